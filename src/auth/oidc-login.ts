// The OIDC browser login the seed configures (auth.oidc client_id, client_secret, redirect_uri,
// additional_scopes): the authorization code flow with PKCE (RFC 7636) through openid-client.
// `begin` sends the browser to the issuer with a fresh state, nonce and code challenge, kept in a
// short-lived HttpOnly cookie (no server-side store, so any node of a cluster finishes the login);
// `finish` checks them against the callback, exchanges the code (client_secret at the token
// endpoint), verifies the ID token and hands it back for the session cookie (OIDC_COOKIE_NAME), which
// the OIDC provider then accepts like a Bearer token. Tokens and secrets never reach a message.
import type * as Client from 'openid-client';
import type { Config } from '../config/schema.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { AuthSettings } from './settings.js';

type OidcConfig = NonNullable<Config['auth']['oidc']>;

/** Name of the cookie carrying one login's state, verifier and nonce between login and callback. */
export const LOGIN_COOKIE = 'svc_oidc_login';
/** A login must come back within this time. */
export const LOGIN_TTL_S = 600;

export interface LoginStart {
  readonly redirect: string;
  /** Value of LOGIN_COOKIE. */
  readonly cookie: string;
}

export interface LoginDone {
  /** The ID token: the session cookie's value. */
  readonly idToken: string;
  /** Seconds until the ID token expires (the cookie's Max-Age). */
  readonly maxAge: number;
  /** Where the browser goes next (a path of this server). */
  readonly returnTo: string;
}

/** Only a path of this server: an open redirect would hand the session to anyone's page. */
export function safeReturn(v: unknown): string {
  return typeof v === 'string' && /^\/(?![/\\])/.test(v) ? v : '/';
}

export class OidcLogin {
  // openid-client is imported with the first login, not at start (issue 30: ~0.5 MB of heap that
  // a server without the browser login would carry).
  private session?: Promise<{ client: typeof Client; config: Client.Configuration }>;

  constructor(
    private readonly cfg: OidcConfig & { client_id: string; redirect_uri: string },
    private readonly settings: AuthSettings,
  ) {}

  /** Whether the configuration asks for the browser login: a client and a redirect URI. */
  static configured(cfg: OidcConfig | undefined): cfg is OidcConfig & { client_id: string; redirect_uri: string } {
    return !!cfg && cfg.enabled !== false && !!cfg.client_id && !!cfg.redirect_uri;
  }

  get cookieName(): string {
    return this.settings.cookieName;
  }

  get secureCookies(): boolean {
    return this.cfg.redirect_uri.startsWith('https:');
  }

  private discover(): Promise<{ client: typeof Client; config: Client.Configuration }> {
    this.session ??= import('openid-client')
      .then(async (client) => ({
        client,
        config: await client.discovery(new URL(this.cfg.issuer), this.cfg.client_id, this.cfg.client_secret ?? undefined, this.cfg.client_secret ? client.ClientSecretBasic(this.cfg.client_secret) : client.None(), {
          // A loopback or test issuer may be plain http; openid-client refuses it otherwise.
          ...(this.cfg.issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {}),
          timeout: Math.ceil(this.settings.fetchTimeoutMs / 1000),
        }),
      }))
      .catch((e: unknown) => {
        this.session = undefined;
        throw new PublicError(ErrorCode.SourceUnavailable, `the OIDC issuer could not be discovered (${(e as { code?: string }).code ?? 'unreachable'})`, 503);
      });
    return this.session;
  }

  async begin(returnTo: unknown): Promise<LoginStart> {
    const { client, config } = await this.discover();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const scope = ['openid', ...this.cfg.additional_scopes.filter((s) => s !== 'openid')].join(' ');
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.cfg.redirect_uri, scope, state, nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const cookie = Buffer.from(JSON.stringify({ s: state, v: verifier, n: nonce, r: safeReturn(returnTo), t: Date.now() })).toString('base64url');
    return { redirect: url.href, cookie };
  }

  /** `callback`: the URL the browser came back to (query `code`, `state`); `cookie`: LOGIN_COOKIE. */
  async finish(callback: URL, cookie: string | undefined): Promise<LoginDone> {
    let saved: { s: string; v: string; n: string; r: string; t: number };
    try {
      saved = JSON.parse(Buffer.from(cookie ?? '', 'base64url').toString('utf8'));
      if (typeof saved.s !== 'string' || typeof saved.v !== 'string' || typeof saved.n !== 'string') throw new Error('shape');
    } catch {
      throw new PublicError(ErrorCode.Unauthenticated, 'the login has no state: start it again at /auth/login', 401);
    }
    if (Date.now() - saved.t > LOGIN_TTL_S * 1000) throw new PublicError(ErrorCode.Unauthenticated, 'the login took too long: start it again at /auth/login', 401);
    const { client, config } = await this.discover();
    // The callback's own origin may differ behind a proxy: the registered redirect URI is what was sent.
    const current = new URL(this.cfg.redirect_uri);
    current.search = callback.search;
    let tokens: Awaited<ReturnType<typeof Client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: saved.v, expectedState: saved.s, expectedNonce: saved.n, idTokenExpected: true });
    } catch (e) {
      const err = e as { error?: string; code?: string; name?: string };
      // The issuer's error code (access_denied, invalid_grant) or openid-client's check, never a token.
      throw new PublicError(ErrorCode.Unauthenticated, `the login failed: ${err.error ?? err.code ?? err.name ?? 'refused'}`, 401);
    }
    const claims = tokens.claims();
    if (!tokens.id_token || !claims) throw new PublicError(ErrorCode.Unauthenticated, 'the login failed: the issuer sent no ID token', 401);
    return { idToken: tokens.id_token, maxAge: Math.max(0, Number(claims.exp) - Math.floor(Date.now() / 1000)), returnTo: saved.r };
  }

  /** Where the issuer sends the browser after its logout: a path of this server, absolute. */
  afterLogout(returnTo: unknown): string {
    return new URL(safeReturn(returnTo), this.cfg.redirect_uri).href;
  }

  /** The issuer's logout page when it has one (RP-initiated logout), else undefined. */
  async endSession(idToken: string | undefined, postLogout: string): Promise<string | undefined> {
    const session = await this.discover().catch(() => undefined);
    if (!session?.config.serverMetadata().end_session_endpoint) return undefined;
    const { client, config } = session;
    return client.buildEndSessionUrl(config, { ...(idToken ? { id_token_hint: idToken } : {}), post_logout_redirect_uri: postLogout, client_id: this.cfg.client_id }).href;
  }
}
