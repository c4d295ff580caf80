// An `http` source's path (SPEC §3.1): the base URL of a REST service, with svc's own settings as
// `x-svc-*` query parameters (removed before any request). Credentials arrive here only through
// `[$ENV]` placeholders (substituted at load) or by the name of a secret on the secrets server; the
// path text stored in core.data_sources keeps the placeholders, never the values (docs/http-sources.md).
import { parseDurationMs } from '../../shared/duration.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { readSecurityText, securityTimeoutMs, unquote } from './security.js';

export type AuthKind = 'none' | 'bearer' | 'header' | 'query' | 'basic';

export interface HttpSourceOptions {
  /** Base URL without svc's parameters; its own query parameters are kept on every request. */
  readonly base: URL;
  /** OpenAPI document (absolute, or relative to the base URL). */
  readonly specUri?: string;
  /** OpenAPI document in a local file (x-svc-spec-path; CATALOG_ALLOWED_PATHS applies). */
  readonly specPath?: string;
  /** `x-svc-security` as written (security.ts completes it from the OpenAPI document). Holds credentials. */
  readonly security?: Readonly<Record<string, unknown>>;
  readonly auth: AuthKind;
  /** The credential (bearer token, header value, query value, or `user:password`). Never logged. */
  readonly token?: string;
  /** Header name (`header`, default X-API-Key) or query parameter name (`query`, default api_key). */
  readonly authName?: string;
  /** A secret on the secrets server (SPEC §15) holding `bearer_token` and/or `extra_http_headers`. */
  readonly secret?: { readonly name: string; readonly server: string; readonly token?: string };
  /** One attempt's time limit. */
  readonly timeoutMs: number;
  /** Further attempts of an idempotent request after a timeout, a network error, 429 or 502–504. */
  readonly retries: number;
  /** Requests of one batch in flight at once. */
  readonly concurrency: number;
  /** Largest response body read. */
  readonly maxBytes: number;
}

const KNOWN = new Set(['x-svc-spec-uri', 'x-svc-spec-path', 'x-svc-security', 'x-svc-auth', 'x-svc-token', 'x-svc-auth-name', 'x-svc-secret', 'x-svc-secrets-url', 'x-svc-secrets-token', 'x-svc-timeout', 'x-svc-retries', 'x-svc-concurrency', 'x-svc-max-bytes']);

function bounded(source: string, name: string, text: string | null, def: number, min: number, max: number): number {
  if (text === null) return def;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": ${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** `path` with [$ENV] already substituted; `queryTimeoutMs` (QUERY_TIMEOUT) caps the per-attempt limit. */
export function parseHttpPath(source: string, path: string, queryTimeoutMs: number): HttpSourceOptions {
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": the http path is not a URL (http://host:port/base)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": the http path must be an http:// or https:// URL`);
  const p = url.searchParams;
  // hugr's names (`x-hugr-security`, `x-hugr-spec-uri`, ...) are read as svc's, never sent on.
  for (const [key, value] of [...p.entries()]) {
    if (!key.startsWith('x-hugr-')) continue;
    p.delete(key);
    if (p.get(`x-svc-${key.slice(7)}`) === null) p.set(`x-svc-${key.slice(7)}`, value);
  }
  for (const key of [...p.keys()]) {
    if (key.startsWith('x-svc-') && !KNOWN.has(key)) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": unknown path parameter "${key}" (known: ${[...KNOWN].join(', ')})`);
  }
  const auth = (p.get('x-svc-auth') ?? (p.get('x-svc-token') !== null ? 'bearer' : 'none')) as AuthKind;
  if (!['none', 'bearer', 'header', 'query', 'basic'].includes(auth)) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": x-svc-auth must be bearer, header, query or basic`);
  if (auth !== 'none' && p.get('x-svc-token') === null && p.get('x-svc-secret') === null) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": x-svc-auth=${auth} needs x-svc-token (from [$ENV]) or x-svc-secret`);
  const secretName = p.get('x-svc-secret');
  const server = p.get('x-svc-secrets-url');
  if (secretName !== null && !server) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": x-svc-secret needs x-svc-secrets-url (the secrets server)`);
  const security = p.get('x-svc-security') !== null ? readSecurityText(source, p.get('x-svc-security')!) : undefined;
  const timeoutText = p.get('x-svc-timeout');
  const attempt = timeoutText !== null ? parseDurationMs(timeoutText) : (security && securityTimeoutMs(source, security)) ?? 10_000;
  if (attempt === undefined || attempt <= 0) throw new PublicError(ErrorCode.BadUserInput, `data source "${source}": x-svc-timeout must be a duration such as "5s" or "500ms"`);
  const timeoutMs = Math.min(attempt, queryTimeoutMs > 0 ? queryTimeoutMs : Infinity);
  const options: HttpSourceOptions = {
    base: url,
    ...(p.get('x-svc-spec-uri') ? { specUri: unquote(p.get('x-svc-spec-uri')!) } : {}),
    ...(p.get('x-svc-spec-path') ? { specPath: unquote(p.get('x-svc-spec-path')!) } : {}),
    ...(security ? { security } : {}),
    auth,
    ...(p.get('x-svc-token') !== null ? { token: p.get('x-svc-token')! } : {}),
    ...(p.get('x-svc-auth-name') ? { authName: p.get('x-svc-auth-name')! } : {}),
    ...(secretName !== null ? { secret: { name: secretName, server: server!, ...(p.get('x-svc-secrets-token') ? { token: p.get('x-svc-secrets-token')! } : {}) } } : {}),
    timeoutMs,
    retries: bounded(source, 'x-svc-retries', p.get('x-svc-retries'), 2, 0, 5),
    concurrency: bounded(source, 'x-svc-concurrency', p.get('x-svc-concurrency'), 8, 1, 64),
    maxBytes: bounded(source, 'x-svc-max-bytes', p.get('x-svc-max-bytes'), 16 * 1024 * 1024, 1024, 256 * 1024 * 1024),
  };
  for (const key of KNOWN) p.delete(key);
  return options;
}
