// The values of a rows statement (src/sql/rows/) read from PostgreSQL's text format exactly as the
// JSON path has them once json_build_object printed them (datum_to_json) and parseDbJson read them
// back: numbers as numbers (NaN and the infinities as strings, integers beyond 2^53 as BigInt),
// booleans, JSON parsed, dates and timestamps in the XSD form JSON uses, anything else as its text.
// The compiler sends lists, Date, JSON and Vector values as JSON (PostgresCompiler.columnValue).
import { parseDbJson } from '../../shared/json.js';

/** A number as json_build_object prints it and parseDbJson reads it. */
export function jsonNumber(text: string): number | bigint | string {
  // 'NaN', 'Infinity', '-Infinity' are no JSON numbers: json_build_object quotes them.
  const last = text.charCodeAt(text.length - 1);
  if (last === 78 || last === 121) return text;
  const n = Number(text);
  // Only an integer of 16 digits or more can be beyond 2^53 (a float8 that large prints with an exponent).
  if (text.length >= 16 && !Number.isSafeInteger(n) && /^-?\d+$/.test(text)) return BigInt(text);
  return n;
}

/** `2024-01-02 03:04:05.5+00` -> `2024-01-02T03:04:05.5+00:00`: JSON's form of a timestamp (minutes always in the offset). */
function jsonTimestamp(text: string): string {
  if (text.length < 11 || text.charCodeAt(10) !== 32) return text; // infinity, -infinity
  const t = `${text.slice(0, 10)}T${text.slice(11)}`;
  return t.replace(/([+-]\d\d)((?::\d\d)*)((?: BC)?)$/, (_m, h: string, rest: string, bc: string) => `${h}${rest || ':00'}${bc}`);
}

/** The zone offset rewrite above applies to timestamptz only; a plain timestamp has none. */
function jsonLocalTimestamp(text: string): string {
  if (text.length < 11 || text.charCodeAt(10) !== 32) return text;
  return `${text.slice(0, 10)}T${text.slice(11)}`;
}

/**
 * A json or jsonb value as parseDbJson reads it; a JSON string without escapes (a date sent as
 * JSON, as Q1's order date is) is its text between the quotes, with no parse. PostgreSQL only holds
 * valid JSON, in which a quote or control character inside a string is always escaped.
 */
function jsonValue(text: string): unknown {
  const last = text.length - 1;
  if (last > 0 && text.charCodeAt(0) === 34 && text.charCodeAt(last) === 34 && !text.includes('\\')) return text.slice(1, last);
  return parseDbJson(text);
}

const identity = (v: string): string => v;
const bool = (v: string): boolean => v === 't';

/** Type OIDs of PostgreSQL's own types (pg_type.h), as the statement's row description gives them. */
const PARSERS: ReadonlyMap<number, (v: string) => unknown> = new Map<number, (v: string) => unknown>([
  [16, bool],
  [21, Number], // int2
  [23, Number], // int4
  [20, jsonNumber], // int8
  [700, jsonNumber], // float4
  [701, jsonNumber], // float8
  [1700, jsonNumber], // numeric
  [114, jsonValue], // json
  [3802, jsonValue], // jsonb
  [1082, identity], // date: ISO text (PostgreSQL's default DateStyle) is JSON's form
  [1114, jsonLocalTimestamp],
  [1184, jsonTimestamp],
]);

/**
 * Element readers of the array types a 1:N level's columns come as (src/sql/rows/compiler.ts), by
 * the array's type OID: each element read as a column of its type is. Types whose values JSON
 * prints as their text are read as that text. Any other array type (an enum's, a domain's, an
 * extension's, timestamps) is not read this way: the source runs the statement's JSON form.
 */
const ELEMENTS: ReadonlyMap<number, (v: string) => unknown> = new Map<number, (v: string) => unknown>([
  [1000, bool],
  [1005, Number], // int2[]
  [1007, Number], // int4[]
  [1016, jsonNumber], // int8[]
  [1021, jsonNumber], // float4[]
  [1022, jsonNumber], // float8[]
  [1231, jsonNumber], // numeric[]
  [199, jsonValue], // json[]
  [3807, jsonValue], // jsonb[]
  [1009, identity], // text[]
  [1015, identity], // varchar[]
  [1014, identity], // bpchar[]
  [1003, identity], // name[]
  [2951, identity], // uuid[]
  [1187, identity], // interval[] (IntervalStyle iso_8601, as JSON prints it)
  [1028, identity], // oid[]: JSON prints an oid as a string
  [1001, identity], // bytea[]
  [1563, identity], // varbit[]
  [1561, identity], // bit[]
]);

/** Array types whose elements are numbers in plain decimal form (read in place, see decimalAt). */
const NUMERIC = new Set([1005, 1007, 1016, 1021, 1022, 1231]);
/** 10^k, exact as doubles for k <= 22. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * The number an unquoted element at `i` spells, read without making its text, or undefined (then
 * read from its text): at most 15 digits, an optional sign and point, no exponent. Such a number is
 * an integer below 2^53 divided by an exact power of ten, so the division is correctly rounded: the
 * double Number() gives for the same text (and -0 for a negative zero). Writes the end into `end[0]`.
 */
function decimalAt(text: string, i: number, stop: number, end: number[]): number | undefined {
  let j = i;
  const negative = text.charCodeAt(j) === 45;
  if (negative) j++;
  let value = 0;
  let digits = 0;
  let fraction = -1;
  for (; j < stop; j++) {
    const ch = text.charCodeAt(j);
    if (ch >= 48 && ch <= 57) {
      value = value * 10 + (ch - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (ch === 46 && fraction < 0) fraction = 0;
    else break;
  }
  const next = text.charCodeAt(j);
  if (digits === 0 || digits > 15 || (j < stop && next !== 44)) return undefined;
  end[0] = j;
  if (fraction > 0) value /= POW10[fraction]!;
  return negative ? -value : value;
}

/**
 * The values of a one-dimensional array's text (`{1,"a b",NULL}`), each read by `element`; NULL
 * unquoted is null, a quoted element is unescaped (array_out escapes `"` and `\\` only). Undefined
 * for text of another form (a nested array, bounds): the caller reads the JSON form instead.
 */
function arrayValues(text: string, element: (v: string) => unknown, numeric: boolean): unknown[] | undefined {
  const end = text.length - 1;
  if (text.charCodeAt(0) !== 123 || text.charCodeAt(end) !== 125) return undefined;
  const out: unknown[] = [];
  if (end === 1) return out;
  const at = [0];
  let i = 1;
  for (;;) {
    const first = text.charCodeAt(i);
    if (first === 123) return undefined;
    if (first === 34) {
      let value = '';
      let from = i + 1;
      let j = from;
      for (;;) {
        const ch = text.charCodeAt(j);
        if (ch === 92) {
          value += text.slice(from, j);
          from = j + 1;
          j += 2;
          continue;
        }
        if (ch === 34 || j >= end) break;
        j++;
      }
      if (j >= end) return undefined;
      out.push(element(value + text.slice(from, j)));
      i = j + 1;
    } else {
      const n = numeric ? decimalAt(text, i, end, at) : undefined;
      if (n !== undefined) {
        out.push(n);
        i = at[0]!;
      } else {
        let j = text.indexOf(',', i);
        if (j < 0) j = end;
        const value = text.slice(i, j);
        out.push(value === 'NULL' ? null : element(value));
        i = j;
      }
    }
    if (i >= end) return out;
    if (text.charCodeAt(i) !== 44) return undefined;
    i++;
  }
}

/** The reader of a 1:N level's array column of this type, or undefined where its elements are not read this way. */
export function arrayReader(oid: number): ((text: string) => unknown[] | undefined) | undefined {
  let reader = readers.get(oid);
  if (!reader) {
    const element = ELEMENTS.get(oid);
    if (!element) return undefined;
    const numeric = NUMERIC.has(oid);
    readers.set(oid, (reader = (text) => arrayValues(text, element, numeric)));
  }
  return reader;
}

const readers = new Map<number, (text: string) => unknown[] | undefined>();

/** pg's `types` option for rows statements. */
export const ROW_VALUE_TYPES = {
  getTypeParser: (oid: number) => PARSERS.get(oid) ?? identity,
} as const;
