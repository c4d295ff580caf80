// Credentials of an http source: a token from the environment (`[$ENV]` in the path), or a secret
// read from the secrets server (SPEC §15: GET /v1/secrets/{name} with a bearer token), cached until
// it expires (at most 5 minutes). Values never reach logs or error messages: errors name the secret
// and the server's status only.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { OAuth2Tokens } from './oauth2.js';
import type { HttpSourceOptions } from './options.js';
import type { Security } from './security.js';

const MAX_CACHE_MS = 5 * 60_000;

export interface Credentials {
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
}

/** A secret parameter is a bare string or `{type, value}` (SPEC §15). */
function paramText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  return undefined;
}

export class CredentialSource {
  private cached?: { value: Credentials; until: number };
  private security?: Security;
  private tokens?: OAuth2Tokens;

  constructor(
    private readonly source: string,
    private readonly o: HttpSourceOptions,
  ) {}

  /** x-svc-security, once resolved (it may need the OpenAPI document); OAuth2 tokens come from `tokens`. */
  use(security: Security, tokens?: OAuth2Tokens): void {
    this.security = security;
    this.tokens = tokens;
    this.cached = undefined;
  }

  /** The API answered 401: an OAuth2 token is fetched again before the next request. */
  rejected(): boolean {
    if (!this.tokens) return false;
    this.tokens.reset();
    return true;
  }

  async get(): Promise<Credentials> {
    const value = await this.fixed();
    if (!this.tokens) return value;
    return { headers: { ...value.headers, authorization: await this.tokens.header() }, query: value.query };
  }

  private async fixed(): Promise<Credentials> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.value;
    const headers: Record<string, string> = {};
    const query: Record<string, string> = {};
    let token = this.o.token;
    let until = Date.now() + MAX_CACHE_MS;
    if (this.o.secret) {
      const s = await this.readSecret();
      token = s.token ?? token;
      Object.assign(headers, s.headers);
      if (s.expiresAt) until = Math.min(until, s.expiresAt - 30_000);
    }
    if (token !== undefined) {
      switch (this.o.auth === 'none' ? 'bearer' : this.o.auth) {
        case 'bearer': headers.authorization = `Bearer ${token}`; break;
        case 'header': headers[(this.o.authName ?? 'X-API-Key').toLowerCase()] = token; break;
        case 'query': query[this.o.authName ?? 'api_key'] = token; break;
        case 'basic': headers.authorization = `Basic ${Buffer.from(token).toString('base64')}`; break;
      }
    }
    const sec = this.security;
    if (sec?.type === 'basic') headers.authorization = `Basic ${Buffer.from(`${sec.username}:${sec.password}`).toString('base64')}`;
    else if (sec?.type === 'apiKey' && sec.in === 'header') headers[sec.name.toLowerCase()] = sec.apiKey;
    else if (sec?.type === 'apiKey') query[sec.name] = sec.apiKey;
    const value = { headers, query };
    this.cached = { value, until };
    return value;
  }

  private async readSecret(): Promise<{ token?: string; headers: Record<string, string>; expiresAt?: number }> {
    const secret = this.o.secret!;
    const url = new URL(`v1/secrets/${encodeURIComponent(secret.name)}`, secret.server.endsWith('/') ? secret.server : `${secret.server}/`);
    let r: Response;
    try {
      r = await fetch(url, { headers: { accept: 'application/json', ...(secret.token ? { authorization: `Bearer ${secret.token}` } : {}) }, signal: AbortSignal.timeout(this.o.timeoutMs) });
    } catch {
      throw new PublicError(ErrorCode.SourceUnavailable, `http source "${this.source}": the secrets server did not answer for secret "${secret.name}"`);
    }
    if (!r.ok) {
      await r.body?.cancel().catch(() => undefined);
      throw new PublicError(ErrorCode.SourceUnavailable, `http source "${this.source}": secret "${secret.name}" could not be read from the secrets server (status ${r.status})`);
    }
    const body = (await r.json()) as { params?: Record<string, unknown>; expires_at?: string | null };
    const params = body.params ?? {};
    const headers: Record<string, string> = {};
    const extra = params.extra_http_headers;
    const extraValue = extra && typeof extra === 'object' && !('value' in extra) ? extra : paramText(extra);
    const parsed = typeof extraValue === 'string' ? (JSON.parse(extraValue) as Record<string, unknown>) : (extraValue as Record<string, unknown> | undefined);
    for (const [k, v] of Object.entries(parsed ?? {})) headers[k.toLowerCase()] = String(v);
    const token = paramText(params.bearer_token) ?? paramText(params.token);
    const expiresAt = body.expires_at ? Date.parse(body.expires_at) : undefined;
    return { ...(token !== undefined ? { token } : {}), headers, ...(expiresAt && !Number.isNaN(expiresAt) ? { expiresAt } : {}) };
  }
}
