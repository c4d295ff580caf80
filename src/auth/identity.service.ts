// Credentials -> Identity (SPEC §6). The secret key and cluster secret come first, then the
// methods in seed 000 order: API key, OIDC, JWT; anonymous only when nothing was presented.
import type { Config } from '../config/schema.js';
import type { Identity } from './identity.js';
import { currentRequest } from '../shared/request-scope.js';
import { metrics } from '../shared/metrics.js';
import { failureReason, unauthenticated } from './errors.js';
import { AnonymousProvider } from './providers/anonymous.provider.js';
import { ApiKeyProvider } from './providers/api-key.provider.js';
import { JwtProvider } from './providers/jwt.provider.js';
import { type ApiKeyStore, ManagedKeys } from './providers/managed-keys.js';
import { OidcProvider } from './providers/oidc.provider.js';
import type { AuthProvider } from './providers/provider.js';
import { SecretKeyProvider } from './providers/secret-key.provider.js';
import { AuthRequest, type RawHeaders } from './request.js';
import { authSettings } from './settings.js';
import type { MaybePromise } from '../shared/maybe-async.js';

/** The request's scope learns who asks (its log line, lineage). */
function identified(identity: Identity): Identity {
  currentRequest()?.identified(identity);
  return identity;
}

export interface IdentityOptions {
  /** How long a managed-key lookup is remembered (default 30 s); `forgetApiKeys()` ends it early. */
  apiKeyCacheMs?: number;
  /** Pause after a failed OIDC discovery before asking the issuer again (default 5 s). */
  oidcRetryMs?: number;
}

const API_KEY_CACHE_MS = 30_000;

export class IdentityService {
  private readonly providers: AuthProvider[];
  private readonly anonymous: AnonymousProvider;
  private readonly managed?: ManagedKeys;
  private readonly cookieName: string;

  /** `core` is the store of managed API keys (the runtime's CoreStore); needed only when they are on. */
  constructor(config: Config, core?: ApiKeyStore, options: IdentityOptions = {}) {
    const settings = authSettings(config);
    const { api_keys: keys, oidc, jwt } = config.auth;
    this.cookieName = settings.cookieName;
    if (keys?.managed || config.ALLOW_MANAGED_API_KEYS) {
      // A wiring fault, not a user's: fail at boot rather than silently refusing every managed key.
      if (!core) throw new Error('managed API keys are enabled but IdentityService was given no core store');
      this.managed = new ManagedKeys(core, options.apiKeyCacheMs ?? API_KEY_CACHE_MS);
    }
    this.providers = [
      new SecretKeyProvider(config.SECRET_KEY, config.CLUSTER_SECRET),
      ...(keys?.enabled || this.managed ? [new ApiKeyProvider(keys, this.managed)] : []),
      ...(oidc?.enabled ? [new OidcProvider(oidc, settings, options.oidcRetryMs)] : []),
      ...(jwt?.enabled ? [new JwtProvider(jwt, settings.cookieName, settings.fetchTimeoutMs, settings.clockLeewayS)] : []),
    ];
    this.anonymous = new AnonymousProvider(config.ALLOWED_ANONYMOUS, config.ANONYMOUS_ROLE);
  }

  /**
   * The caller of a request; refusals are counted by reason (svc_auth_failures_total). Synchronous
   * when no provider has to wait (nothing presented, the secret key, a static API key): a request
   * without credentials makes no promise here (issue 30). A refusal is a throw, or a rejected promise.
   */
  identify(headers: RawHeaders): MaybePromise<Identity> {
    let found: MaybePromise<Identity>;
    try {
      found = this.authenticate(new AuthRequest(headers), 0);
    } catch (e) {
      throw this.refused(e);
    }
    if (found instanceof Promise) {
      return found.then(identified, (e: unknown) => {
        throw this.refused(e);
      });
    }
    return identified(found);
  }

  private refused(e: unknown): unknown {
    metrics.authFailures.inc({ reason: failureReason(e) });
    return e;
  }

  /** The providers from the `from`th on, in order; the first that knows the credential decides. */
  private authenticate(req: AuthRequest, from: number): MaybePromise<Identity> {
    for (let i = from; i < this.providers.length; i++) {
      const identity = this.providers[i]!.authenticate(req);
      if (identity instanceof Promise) return identity.then((found) => found ?? this.authenticate(req, i + 1));
      if (identity) return identity;
    }
    // A credential nobody accepted is refused; it never degrades to anonymous (SPEC §6).
    if (req.bearer !== undefined || req.header('x-svc-api-key') !== undefined) throw unauthenticated('invalid credentials');
    if (req.otherScheme) throw unauthenticated('unsupported Authorization scheme');
    if (this.tokenProviders() && req.cookie(this.cookieName) !== undefined) throw unauthenticated('invalid credentials');
    return this.anonymous.identity();
  }

  /** Drops remembered managed-key lookups; called for the cache tag `$AuthAPIKeys` (SPEC §6). */
  forgetApiKeys(): void {
    this.managed?.forget();
  }

  /** The session cookie is a credential only when some provider reads it. */
  private tokenProviders(): boolean {
    return this.providers.some((p) => p.name === 'oidc' || p.name === 'jwt');
  }
}
