// OAuth2 tokens of an http source (x-svc-security type oauth2): the client credentials and password
// flows (RFC 6749 §4.3, §4.4) at the flow's tokenUrl, refreshed with the refresh token (§6) at its
// refreshUrl when the token has expired, and fetched anew when refreshing fails. APIs whose token
// endpoints are not OAuth2 are met through jq transforms of the request and answer bodies
// (`x-svc-token-transform`, `x-svc-refresh-transform`, as hugr's `x-hugr-*`). Tokens, secrets and the
// endpoint's answers never reach a message: errors name the endpoint's role and status only.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseDbJson, stringifyJson } from '../../shared/json.js';
import type { JqRunner } from './jq-runner.js';
import type { Security, TokenTransform } from './security.js';

type OAuth2 = Extract<Security, { type: 'oauth2' }>;

interface Token {
  readonly access: string;
  readonly type: string;
  readonly refresh?: string;
  /** When it is treated as expired (30 s before the server says). */
  readonly until: number;
}

const DEFAULT_LIFETIME_S = 3600;

export class OAuth2Tokens {
  private token?: Token;
  private pending?: Promise<Token>;

  constructor(
    private readonly source: string,
    private readonly s: OAuth2,
    /** URLs of the flow are relative to it (hugr's specs write `tokenUrl: /token`). */
    private readonly base: URL,
    private readonly timeoutMs: number,
    private readonly jq: JqRunner | undefined,
  ) {}

  /** The `Authorization` header value, fetching or refreshing the token when needed. */
  async header(): Promise<string> {
    if (!this.token || this.token.until <= Date.now()) {
      // One request at a time: concurrent calls wait for the same token.
      this.pending ??= this.renew().finally(() => (this.pending = undefined));
      this.token = await this.pending;
    }
    const type = this.token.type.toLowerCase() === 'bearer' || !this.token.type ? 'Bearer' : this.token.type;
    return `${type} ${this.token.access}`;
  }

  /** Forget the token (the API answered 401): the next call fetches another. */
  reset(): void {
    this.token = this.token?.refresh ? { ...this.token, until: 0 } : undefined;
  }

  private async renew(): Promise<Token> {
    const old = this.token;
    if (old?.refresh) {
      try {
        return await this.request('refresh', this.s.flow.refreshUrl ?? this.s.flow.tokenUrl, { grant_type: 'refresh_token', refresh_token: old.refresh }, this.s.flow.refreshTransform, { access_token: old.access, refresh_token: old.refresh, token_type: old.type });
      } catch {
        // A refused refresh token: fall back to the flow itself.
      }
    }
    const f = this.s.flow;
    const fields: Record<string, string> = { grant_type: f.kind === 'password' ? 'password' : 'client_credentials' };
    if (f.kind === 'password') Object.assign(fields, { username: this.s.username ?? '', password: this.s.password ?? '' });
    if (this.s.clientId !== undefined) fields.client_id = this.s.clientId;
    if (this.s.clientSecret !== undefined) fields.client_secret = this.s.clientSecret;
    if (f.scopes.length) fields.scope = f.scopes.join(' ');
    return this.request('token', f.tokenUrl, fields, f.tokenTransform, fields);
  }

  private async jqText(program: string, input: unknown, what: string): Promise<unknown> {
    if (!this.jq) throw new PublicError(ErrorCode.Internal, `http source "${this.source}": jq is not available for the ${what} transform`);
    try {
      const out = await this.jq(program, stringifyJson(input), this.s.variables);
      return out.length === 1 ? parseDbJson(out[0]!) : out.map((o) => parseDbJson(o));
    } catch {
      // jq's message may quote the input (a token, a secret): it is not passed on.
      throw new PublicError(ErrorCode.SourceUnavailable, `http source "${this.source}": the OAuth2 ${what} transform (jq) failed`);
    }
  }

  private async request(what: 'token' | 'refresh', at: string, form: Record<string, string>, transform: TokenTransform | undefined, transformInput: unknown): Promise<Token> {
    const url = new URL(at, this.base);
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string;
    if (transform?.requestBody) {
      body = stringifyJson(await this.jqText(transform.requestBody, transformInput, `${what} request`));
      headers['content-type'] = 'application/json';
    } else {
      body = new URLSearchParams(form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    let r: Response;
    try {
      r = await fetch(url, { method: transform?.method ?? 'POST', headers, body, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
    } catch (e) {
      const code = (e as { cause?: { code?: string } }).cause?.code;
      throw new PublicError(ErrorCode.SourceUnavailable, `http source "${this.source}": the OAuth2 ${what} endpoint did not answer${code ? ` (${code})` : ''}`);
    }
    const text = await r.text();
    if (!r.ok) throw new PublicError(ErrorCode.SourceUnavailable, `http source "${this.source}": the OAuth2 ${what} endpoint answered ${r.status}`);
    let answer: unknown;
    try {
      answer = parseDbJson(text);
    } catch {
      throw new PublicError(ErrorCode.SourceUnavailable, `http source "${this.source}": the OAuth2 ${what} endpoint answered with a body that is not JSON`);
    }
    if (transform?.responseBody) answer = await this.jqText(transform.responseBody, answer, `${what} answer`);
    const o = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
    if (typeof o.access_token !== 'string' || !o.access_token) throw new PublicError(ErrorCode.SourceUnavailable, `http source "${this.source}": the OAuth2 ${what} endpoint's answer has no access_token`);
    const lifetime = Number(o.expires_in ?? DEFAULT_LIFETIME_S);
    const seconds = Number.isFinite(lifetime) && lifetime > 0 ? lifetime : DEFAULT_LIFETIME_S;
    return {
      access: o.access_token,
      type: typeof o.token_type === 'string' ? o.token_type : 'Bearer',
      ...(typeof o.refresh_token === 'string' && o.refresh_token ? { refresh: o.refresh_token } : {}),
      until: Date.now() + Math.max(1, seconds - Math.min(30, seconds / 2)) * 1000,
    };
  }
}
