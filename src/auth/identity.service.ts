// Credentials -> Identity (SPEC §6). This first version knows the secret key (with identity
// override), static API keys and anonymous access; JWT, OIDC and managed keys plug in here.
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config/schema.js';
import type { Identity } from '../executor/request-context.js';
import { ErrorCode, PublicError } from '../shared/errors.js';

type Headers = Record<string, string | string[] | undefined>;

const header = (h: Headers, name: string): string | undefined => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const unauthenticated = (message: string) => new PublicError(ErrorCode.Unauthenticated, message, 401);

export class IdentityService {
  constructor(private readonly config: Config) {}

  async identify(h: Headers): Promise<Identity> {
    const secret = header(h, 'x-svc-secret-key');
    if (secret !== undefined) {
      if (!this.config.SECRET_KEY || !same(secret, this.config.SECRET_KEY)) throw unauthenticated('invalid secret key');
      const role = header(h, 'x-svc-role');
      const userId = header(h, 'x-svc-user-id');
      const userName = header(h, 'x-svc-user-name');
      if (role || userId || userName) {
        return { role: role ?? 'admin', userId: userId ?? null, userName: userName ?? userId ?? 'api', authType: 'impersonation', impersonatedBy: { role: 'admin', userId: 'api', userName: 'api' } };
      }
      return { role: 'admin', userId: 'api', userName: 'api', authType: 'apiKey' };
    }
    const apiKeys = this.config.auth.api_keys;
    const bearer = header(h, 'authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
    const presented = header(h, 'x-svc-api-key') ?? bearer;
    if (presented !== undefined) {
      const match = apiKeys?.enabled ? apiKeys.keys.find((k) => same(k.key, presented)) : undefined;
      if (!match) throw unauthenticated('invalid credentials');
      const userName = header(h, apiKeys!.header_username) ?? match.username ?? 'api';
      const userId = header(h, apiKeys!.header_user_id) ?? match.user_id ?? userName;
      return { role: match.role ?? 'public', userId, userName, authType: 'apikey' };
    }
    if (header(h, 'authorization') !== undefined) throw unauthenticated('unsupported Authorization scheme');
    if (!this.config.ALLOWED_ANONYMOUS) throw unauthenticated('authentication required');
    return { role: this.config.ANONYMOUS_ROLE, userId: null, userName: 'anonymous', authType: 'anonymous' };
  }
}
