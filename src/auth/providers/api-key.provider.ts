// API keys (seed 000 "API keys", SPEC §6): static keys from the configuration first, then managed
// keys from `core.api_keys`. A key comes in `x-svc-api-key` or as the Bearer token.
import type { Config } from '../../config/schema.js';
import type { Identity } from '../identity.js';
import { unauthenticated } from '../errors.js';
import type { AuthRequest } from '../request.js';
import type { ManagedKeys } from './managed-keys.js';
import type { AuthProvider } from './provider.js';
import { same } from './same.js';
import type { MaybePromise } from '../../shared/maybe-async.js';

/**
 * A key named as such and not found is a failed credential. A Bearer token that is no key of ours
 * may still be a JWT or an OIDC token, so the next provider gets it (SPEC §6).
 */
function notFound(explicit: string | undefined): undefined {
  if (explicit !== undefined) throw unauthenticated('invalid API key');
  return undefined;
}

type StaticKeys = NonNullable<Config['auth']['api_keys']>;

export class ApiKeyProvider implements AuthProvider {
  readonly name = 'api_key';

  constructor(
    private readonly statics: StaticKeys | undefined,
    private readonly managed: ManagedKeys | undefined,
  ) {}

  authenticate(req: AuthRequest): MaybePromise<Identity | undefined> {
    const explicit = req.header('x-svc-api-key');
    const key = explicit ?? req.bearer;
    if (key === undefined) return undefined;
    // A static key is decided at once; only a managed key waits for its (cached) row.
    const found = this.staticKey(key, req);
    if (found) return found;
    if (!this.managed) return notFound(explicit);
    return this.managed.authenticate(key, req).then((identity) => identity ?? notFound(explicit));
  }

  private staticKey(key: string, req: AuthRequest): Identity | undefined {
    if (!this.statics?.enabled) return undefined;
    // Compare against every key so the time taken does not tell which position matched.
    let match: StaticKeys['keys'][number] | undefined;
    for (const k of this.statics.keys) if (same(k.key, key) && !match) match = k;
    if (!match) return undefined;
    // Seed 000 "Request headers": headers may describe the user behind a static key, but only
    // when the configuration names them (issue 14 item 3): otherwise anyone holding a shared key
    // could claim any user id and pass row filters written for that user.
    const fromHeader = (name: string | undefined) => (name ? req.header(name) : undefined);
    const userName = fromHeader(match.headers?.user_name ?? this.statics.header_username) ?? match.username ?? 'api';
    return {
      role: match.role ?? 'public',
      userId: fromHeader(match.headers?.user_id ?? this.statics.header_user_id) ?? match.user_id ?? userName,
      userName,
      authType: 'apikey',
    };
  }
}
