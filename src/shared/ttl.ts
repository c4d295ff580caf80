// Lifetimes of cache entries: `@cache(ttl: 300)`, `@cache(ttl: "5m")`, `CACHE_TTL`, `X-Svc-Cache`
// (SPEC §9, seed 000 "Cache headers for /jq-query"). A bare number is seconds, as the seed's
// `X-Svc-Cache: 300` shows; the duration grammar is the project's one (src/shared/duration.ts).
import { parseDurationMs } from './duration.js';
import { ErrorCode, PublicError } from './errors.js';

/**
 * Seconds (number or digits) or a duration (`"30s"`, `"5m"`, `"1h"`, `"24h"`) -> milliseconds.
 * undefined/null/empty -> undefined (use the default). 0 is kept: it means "no expiry"
 * (docs/cache.md). Anything else -> PublicError BAD_USER_INPUT (400).
 */
export function parseTtl(v: number | string | undefined | null): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) throw invalidTtl(v);
    return Math.round(v * 1000);
  }
  const text = v.trim();
  if (text === '') return undefined;
  const ms = parseDurationMs(text);
  if (ms === undefined || !Number.isFinite(ms)) throw invalidTtl(v);
  return Math.round(ms);
}

function invalidTtl(v: number | string): PublicError {
  return new PublicError(
    ErrorCode.BadUserInput,
    `invalid cache ttl ${JSON.stringify(v)}: use seconds (300) or a duration ("30s", "5m", "1h", "24h")`,
    400,
  );
}
