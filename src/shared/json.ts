// JSON from the database, read without losing integers beyond 2^53 (SPEC §3.4: BigInt values are
// exact). Such integers become BigInt values and are written back as bare digits.

const MARK = '\u0000bigint:';

/** Quotes integer literals that a double cannot hold exactly, marking them for the reviver. */
function markUnsafeIntegers(text: string): string {
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
    if (ch === 34) { inString = true; continue; }
    if (ch === 45 || (ch >= 48 && ch <= 57)) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const next = text[j];
      const token = text.slice(i, j);
      if (next !== '.' && next !== 'e' && next !== 'E' && token.replace('-', '').length >= 16 && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, i)}"${MARK}${token}"`;
        last = j;
      }
      i = j - 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

const BIG = /\d{16,}/;

export function parseDbJson(text: string): unknown {
  if (!BIG.test(text)) return JSON.parse(text);
  const marked = markUnsafeIntegers(text);
  if (marked === text) return JSON.parse(text);
  return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v));
}

/** JSON.stringify that writes BigInt values as exact JSON numbers. */
export function stringifyJson(value: unknown): string {
  let found = false;
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    found = true;
    return `${MARK}${v.toString()}`;
  });
  if (!found) return text;
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
