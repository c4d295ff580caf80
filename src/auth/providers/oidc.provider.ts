// OIDC (SPEC §6): the issuer's discovery document names its JWKS; ID tokens and JWT access tokens
// of that issuer are verified against it. The token comes as Bearer or in the session cookie.
import { traceHeaders } from '../../shared/tracing.js';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { Config } from '../../config/schema.js';
import type { Identity } from '../identity.js';
import { providerUnavailable, tokenFailure, unauthenticated } from '../errors.js';
import type { AuthRequest } from '../request.js';
import type { AuthSettings } from '../settings.js';
import { peekJwt, roleFrom, stringClaim } from '../token-claims.js';
import type { AuthProvider } from './provider.js';

type OidcConfig = NonNullable<Config['auth']['oidc']>;

/** Issuers sign with key pairs; a shared-secret (HS*) token can never come from a JWKS. */
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** After a failed discovery, wait this long before asking the issuer again. */
export const DISCOVERY_RETRY_MS = 5_000;

interface Discovered {
  issuer: string;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

export class OidcProvider implements AuthProvider {
  readonly name = 'oidc';
  private discovered?: Promise<Discovered>;
  private failedAt = 0;

  constructor(
    private readonly cfg: OidcConfig,
    private readonly settings: AuthSettings,
    private readonly retryMs = DISCOVERY_RETRY_MS,
  ) {}

  authenticate(req: AuthRequest): Identity | undefined | Promise<Identity> {
    const token = req.bearer ?? req.cookie(this.settings.cookieName);
    if (token === undefined) return undefined;
    // Only tokens that name this issuer are ours; others go on to the JWT provider (SPEC §6).
    const peek = peekJwt(token);
    if (typeof peek?.payload.iss !== 'string' || trimSlash(peek.payload.iss) !== trimSlash(this.cfg.issuer)) return undefined;
    return this.verify(token);
  }

  private async verify(token: string): Promise<Identity> {
    const { issuer, jwks } = await this.discover();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, { issuer, algorithms: ASYMMETRIC, clockTolerance: this.settings.clockLeewayS, requiredClaims: ['exp'] }));
    } catch (e) {
      throw tokenFailure(e, 'the OIDC key set');
    }
    this.checkAudience(payload);
    return this.identity(payload);
  }

  /**
   * An ID token names the client in `aud`; an access token often names an API there and the client
   * in `azp`. Either is accepted. Without a client_id nothing is checked (docs/auth.md).
   */
  private checkAudience(payload: JWTPayload): void {
    const client = this.cfg.client_id;
    if (!client) return;
    const aud = Array.isArray(payload.aud) ? payload.aud : payload.aud === undefined ? [] : [payload.aud];
    if (!aud.includes(client) && payload.azp !== client) throw unauthenticated('token audience is not accepted');
  }

  private identity(payload: JWTPayload): Identity {
    const s = this.settings;
    const sub = stringClaim(payload, 'sub');
    const email = stringClaim(payload, 'email');
    return {
      role: roleFrom(payload, { roleClaim: this.cfg.role_claim, scopePrefix: this.cfg.role_scope_prefix }) ?? 'public',
      userId: (s.oidcUserIdClaim && stringClaim(payload, s.oidcUserIdClaim)) || sub || null,
      userName:
        (s.oidcUserNameClaim && stringClaim(payload, s.oidcUserNameClaim)) || stringClaim(payload, 'name') || stringClaim(payload, 'preferred_username') || sub || 'unknown',
      authType: 'oidc',
      provider: payload.iss!,
      ...(email ? { claims: { email } } : {}),
    };
  }

  /** The discovery document, fetched once; a failure is retried after a pause, not on every request. */
  private discover(): Promise<Discovered> {
    if (!this.discovered) {
      if (Date.now() - this.failedAt < this.retryMs) return Promise.reject(providerUnavailable('the OIDC issuer'));
      this.discovered = this.fetchDiscovery().catch((e: unknown) => {
        this.discovered = undefined;
        this.failedAt = Date.now();
        throw e;
      });
    }
    return this.discovered;
  }

  private async fetchDiscovery(): Promise<Discovered> {
    const url = `${trimSlash(this.cfg.issuer)}/.well-known/openid-configuration`;
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(this.settings.fetchTimeoutMs), headers: traceHeaders({ accept: 'application/json' }) });
      if (!res.ok) throw new Error(`status ${res.status}`);
      doc = (await res.json()) as typeof doc;
    } catch {
      throw providerUnavailable('the OIDC issuer');
    }
    // OpenID Connect Discovery §4.3: the document's issuer must be the one asked for.
    if (typeof doc.issuer !== 'string' || trimSlash(doc.issuer) !== trimSlash(this.cfg.issuer) || typeof doc.jwks_uri !== 'string') {
      throw providerUnavailable('the OIDC issuer', 'its discovery document names another issuer or no jwks_uri');
    }
    return { issuer: doc.issuer, jwks: createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: this.settings.fetchTimeoutMs }) };
  }
}
