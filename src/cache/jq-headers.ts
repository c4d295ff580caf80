// `/jq-query` cache headers (seed 000 "Cache headers for /jq-query", SPEC §9):
//   X-Svc-Cache             TTL, seconds (`300`) or a duration (`30s`, `5m`, `1h`, `24h`)
//   X-Svc-Cache-Key         custom key; empty = sha256 of the request body
//   X-Svc-Cache-Tags        comma-separated tags
//   X-Svc-Cache-Invalidate  true = run again and replace the entry for the key and role
// The stored key is `<custom key or body hash>:<role>`; the role is always appended.
import { ErrorCode, PublicError } from '../shared/errors.js';
import { hashBody } from './keys.js';
import { parseTtl } from '../shared/ttl.js';

export interface JqCacheOptions {
  readonly key: string;
  readonly ttlMs: number;
  readonly tags: readonly string[];
  readonly invalidate: boolean;
}

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Caching asked for by a /jq-query request; undefined when it sends no X-Svc-Cache. Bad values -> 400. */
export function jqCacheOptions(headers: HeaderBag, body: unknown, role: string): JqCacheOptions | undefined {
  const ttlText = header(headers, 'x-svc-cache');
  if (ttlText === undefined) return undefined;
  const ttlMs = ttlHeader(ttlText);
  const keyText = header(headers, 'x-svc-cache-key')?.trim();
  const tags = (header(headers, 'x-svc-cache-tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const invalidate = booleanHeader(header(headers, 'x-svc-cache-invalidate'));
  return { key: `${keyText || hashBody(body)}:${role}`, ttlMs, tags, invalidate };
}

function ttlHeader(text: string): number {
  let ms: number | undefined;
  try {
    ms = parseTtl(text);
  } catch {
    ms = undefined;
  }
  // 0 would mean "keep forever" inside the cache; a header asking for that is more likely a mistake.
  if (ms === undefined || ms <= 0) {
    throw bad(`invalid X-Svc-Cache ${JSON.stringify(text)}: use a positive number of seconds ("300") or a duration ("30s", "5m", "1h", "24h")`);
  }
  return ms;
}

function booleanHeader(text: string | undefined): boolean {
  const t = text?.trim().toLowerCase();
  if (t === undefined || t === '' || t === 'false' || t === '0') return false;
  if (t === 'true' || t === '1') return true;
  throw bad(`invalid X-Svc-Cache-Invalidate ${JSON.stringify(text)}: use true or false`);
}

function header(headers: HeaderBag, name: string): string | undefined {
  // Node lower-cases incoming names; a hand-built bag may not.
  let v = headers[name];
  if (v === undefined) {
    const found = Object.keys(headers).find((k) => k.toLowerCase() === name);
    v = found === undefined ? undefined : headers[found];
  }
  return typeof v === 'string' || v === undefined ? v : v.join(',');
}

function bad(message: string): PublicError {
  return new PublicError(ErrorCode.BadRequest, message, 400);
}
