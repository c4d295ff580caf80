import { decodeJwt } from 'jose';
import type { IssuerConfig } from './config.js';
import { ProblemError, problem } from './problem.js';
import type { FetchDeps, TokenVerifier } from './tokens.js';

// The service as an OAuth client of each issuer: RFC 8693 token exchange and refresh with the issuer's
// `exchange` client (client_secret_post), and the check of each minted token (seed 002 rule 9).

export interface Minted {
  token: string;
  /** milliseconds since the epoch */
  expiresAt: number;
  refreshToken?: string;
}

export interface MintRequest { audience: string; scope?: string }

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
// OAuth errors that mean "no" for as long as nothing changes at the provider (RFC 6749 §5.2, RFC 8693 §2.2.2).
const LASTING = new Set(['invalid_grant', 'invalid_target', 'invalid_scope', 'unauthorized_client', 'invalid_client', 'invalid_request', 'access_denied', 'unsupported_grant_type']);

export class TokenExchanger {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly deps: FetchDeps,
    private readonly ownAudiences: string[],
  ) {}

  exchange(issuer: IssuerConfig, subjectToken: string, req: MintRequest): Promise<Minted> {
    const form = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN,
      requested_token_type: ACCESS_TOKEN,
      audience: req.audience,
    });
    if (req.scope) form.set('scope', req.scope);
    return this.call(issuer, form, req);
  }

  refresh(issuer: IssuerConfig, refreshToken: string, req: MintRequest): Promise<Minted> {
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
    if (req.scope) form.set('scope', req.scope);
    return this.call(issuer, form, req);
  }

  private async call(issuer: IssuerConfig, form: URLSearchParams, req: MintRequest): Promise<Minted> {
    const client = issuer.exchange;
    if (!client) throw problem('mint_refused', 'the caller\'s issuer has no exchange client configured');
    const endpoint = await this.verifier.tokenEndpoint(issuer);
    if (!endpoint) throw problem('mint_refused', 'the caller\'s issuer publishes no token endpoint');
    form.set('client_id', client.client_id);
    form.set('client_secret', client.client_secret);
    let res: Response;
    let body: Record<string, unknown>;
    try {
      res = await this.deps.fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      throw outage();
    }
    if (res.status >= 500 || !body || typeof body !== 'object') throw outage();
    if (res.status !== 200) {
      if (typeof body.error === 'string' && LASTING.has(body.error)) {
        throw problem('mint_refused', `the identity provider refused the token (${body.error})`);
      }
      throw outage();
    }
    return this.check(body, req);
  }

  /** The minted token must be a JWT naming the requested audience and never this service. */
  private check(body: Record<string, unknown>, req: MintRequest): Minted {
    const token = body.access_token;
    if (typeof token !== 'string' || token === '') throw outage();
    let claims;
    try {
      claims = decodeJwt(token);
    } catch {
      throw problem('mint_refused', 'the identity provider issued a token whose audience cannot be checked');
    }
    const aud: string[] = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    if (!aud.includes(req.audience)) throw problem('mint_refused', 'the minted token does not name the requested audience');
    if (aud.some((a) => this.ownAudiences.includes(a))) throw problem('mint_refused', 'the minted token names this service as audience');
    const now = this.deps.now();
    const candidates: number[] = [];
    if (typeof claims.exp === 'number') candidates.push(claims.exp * 1000);
    if (typeof body.expires_in === 'number' && body.expires_in > 0) candidates.push(now + body.expires_in * 1000);
    if (candidates.length === 0) throw problem('mint_refused', 'the minted token has no expiry');
    const expiresAt = Math.min(...candidates);
    if (expiresAt <= now) throw problem('mint_refused', 'the minted token has already expired');
    const refreshToken = typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : undefined;
    return { token, expiresAt, ...(refreshToken ? { refreshToken } : {}) };
  }
}

const outage = (): ProblemError => problem('service_unavailable', 'the identity provider cannot be reached to generate a parameter');
