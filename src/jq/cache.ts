// Cache headers of /jq-query (seed 000 "Cache headers for /jq-query", SPEC §9). They are parsed and
// checked here; the store itself is a hook (JQ_CACHE) that the service's cache plugs into. Until
// then NoJqCache answers every lookup with a miss and stores nothing.
import { createHash } from 'node:crypto';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { parseDurationMs } from '../shared/duration.js';
import { cacheScope, stableJson } from '../cache/keys.js';

export const JQ_CACHE = Symbol('svc.jq.cache');

export interface JqCacheEntryOptions {
  /** From X-Svc-Cache; undefined means the cache's default lifetime. */
  readonly ttlSeconds?: number;
  readonly tags: readonly string[];
}

/** The store behind /jq-query caching; keys already carry the caller's role. */
export interface JqCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, body: string, options: JqCacheEntryOptions): Promise<void>;
}

export class NoJqCache implements JqCache {
  async get(): Promise<string | undefined> {
    return undefined;
  }

  async set(): Promise<void> {}
}

export interface JqCacheRequest extends JqCacheEntryOptions {
  /** `<X-Svc-Cache-Key or sha256 of the body>:<caller scope>` (see callerScope). */
  readonly key: string;
  /** X-Svc-Cache-Invalidate: run the query again and replace the entry. */
  readonly invalidate: boolean;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

function bad(message: string): PublicError {
  return new PublicError(ErrorCode.BadRequest, message, 400);
}

/**
 * The part of a cache key that makes an entry the caller's own (issue 14 item 11): the role, and a
 * hash of the caller's `[$auth.*]` values (user id and name, claims: whatever the role's rules may
 * read) and the time zone timestamps are rendered in.
 */
export function callerScope(role: string, authVars: Readonly<Record<string, unknown>>, timezone: string): string {
  // The scope of every cache key (src/cache/keys.ts): /jq-query's entries are scoped as field results are.
  return cacheScope({ role, auth: stableJson(authVars), timezone });
}

/** sha256 (hex) of the request body as JSON text. */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(typeof body === 'string' ? body : JSON.stringify(body) ?? '').digest('hex');
}

/**
 * The caching asked for by a request, or null when it sends no cache header. 400 (PublicError) for
 * a TTL that is not seconds or a duration, or an X-Svc-Cache-Invalidate that is not a boolean.
 */
export function parseCacheHeaders(headers: Headers, body: unknown, scope: string): JqCacheRequest | null {
  const ttlText = header(headers, 'x-svc-cache')?.trim();
  const keyText = header(headers, 'x-svc-cache-key');
  const tagsText = header(headers, 'x-svc-cache-tags');
  const invalidateText = header(headers, 'x-svc-cache-invalidate')?.trim().toLowerCase();
  if (ttlText === undefined && keyText === undefined && tagsText === undefined && invalidateText === undefined) return null;
  let ttlSeconds: number | undefined;
  if (ttlText) {
    const ms = parseDurationMs(ttlText);
    if (ms === undefined || ms <= 0) throw bad(`invalid X-Svc-Cache ${JSON.stringify(ttlText)}: use seconds ("300") or a duration ("30s", "5m", "1h")`);
    ttlSeconds = ms / 1000;
  }
  let invalidate = false;
  if (invalidateText) {
    if (!['true', 'false', '1', '0'].includes(invalidateText)) throw bad(`invalid X-Svc-Cache-Invalidate ${JSON.stringify(invalidateText)}: use true or false`);
    invalidate = invalidateText === 'true' || invalidateText === '1';
  }
  const tags = (tagsText ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const key = `${keyText?.trim() || bodyHash(body)}:${scope}`;
  return { key, ttlSeconds, tags, invalidate };
}
