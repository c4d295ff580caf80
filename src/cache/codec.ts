// Cached values travel as JSON text (L1 holds the text too, so a hit never shares a mutable object
// with another request). Results may hold BigInt values (SPEC §3.4) that must come back exactly,
// including small ones, so a BigInt is written as a marked string and revived on read.
//
// The marker carries a random nonce chosen per process and is stored in front of the text, so a
// genuine string that happens to look like a marker can never be revived by mistake.
import { randomBytes } from 'node:crypto';
import { stringifyMarkingBigInts } from '../shared/json.js';

const NONCE = randomBytes(6).toString('hex');
const MARK = `\u0000big${NONCE}:`;

/** `value` as text: `"-\n<json>"` without BigInt values, `"<nonce>\n<json with markers>"` with them. */
export function encodeValue(value: unknown): string {
  const { text, found } = stringifyMarkingBigInts(value, MARK);
  // undefined (or a function) has no JSON form; it is stored as null, as JSON.stringify does in arrays.
  return `${found ? NONCE : '-'}\n${text ?? 'null'}`;
}

/** The inverse of encodeValue; the nonce may come from another process. */
export function decodeValue<T>(text: string): T {
  const nl = text.indexOf('\n');
  if (nl < 0) throw new Error('cache: malformed cached value');
  const nonce = text.slice(0, nl);
  const json = text.slice(nl + 1);
  if (nonce === '-') return JSON.parse(json) as T;
  const mark = `\u0000big${nonce}:`;
  return JSON.parse(json, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(mark) ? BigInt(v.slice(mark.length)) : v)) as T;
}

/** Size of an entry as the L1 bound counts it (SPEC §9: "bounded by size"). */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
