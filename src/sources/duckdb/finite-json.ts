// DuckDB's JSON writes a DOUBLE that is NaN or infinite as a bare `NaN`, `Infinity` or `-Infinity`,
// which is not JSON: every read holding one failed to parse (an internal error on every path). They
// become the strings PostgreSQL's JSON holds for them ("NaN"), which a Float field refuses as
// graphql-js does: the field is null with VALUE_NOT_REPRESENTABLE (src/pipeline/value-errors.ts), on
// the fast path and the general path alike (the fast path's completion hands such values to
// graphql-js). Rewriting the text here costs two substring searches per answer; rendering each
// double through a CASE in the statement cost DuckDB 60% more time to build the JSON (measured).

import { rewriteOutsideStrings } from '../../shared/json.js';

const TOKENS = ['NaN', 'Infinity', '-Infinity'] as const;

/** DuckDB's JSON text with its bare non-finite numbers written as JSON strings. */
export function finiteJson(text: string): string {
  if (!text.includes('NaN') && !text.includes('Infinity')) return text;
  return rewriteOutsideStrings(text, (t, i, ch) => {
    // N, I, or a minus sign before I: outside strings only a number can start with these.
    if (ch !== 78 && ch !== 73 && ch !== 45) return undefined;
    const token = TOKENS.find((x) => t.startsWith(x, i));
    return token ? { end: i + token.length, with: `"${token}"` } : undefined;
  });
}
