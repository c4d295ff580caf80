// DuckDB's JSON writes a DOUBLE that is NaN or infinite as a bare `NaN`, `Infinity` or `-Infinity`,
// which is not JSON: every read holding one failed to parse (an internal error on every path). They
// become the strings PostgreSQL's JSON holds for them ("NaN"), which a Float field refuses as
// graphql-js does: the field is null with VALUE_NOT_REPRESENTABLE (src/pipeline/value-errors.ts), on
// the fast path and the general path alike (the fast path's completion hands such values to
// graphql-js). Rewriting the text here costs two substring searches per answer; rendering each
// double through a CASE in the statement cost DuckDB 60% more time to build the JSON (measured).

const TOKENS = ['NaN', 'Infinity', '-Infinity'] as const;

/** DuckDB's JSON text with its bare non-finite numbers written as JSON strings. */
export function finiteJson(text: string): string {
  if (!text.includes('NaN') && !text.includes('Infinity')) return text;
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
      continue;
    }
    if (ch === 34) {
      inString = true;
      continue;
    }
    // N, I, or a minus sign before I: outside strings only a number can start with these.
    if (ch !== 78 && ch !== 73 && ch !== 45) continue;
    const token = TOKENS.find((t) => text.startsWith(t, i));
    if (!token) continue;
    out += `${text.slice(last, i)}"${token}"`;
    last = i + token.length;
    i = last - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}
