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
  [114, parseDbJson], // json
  [3802, parseDbJson], // jsonb
  [1082, identity], // date: ISO text (PostgreSQL's default DateStyle) is JSON's form
  [1114, jsonLocalTimestamp],
  [1184, jsonTimestamp],
]);

/** pg's `types` option for rows statements. */
export const ROW_VALUE_TYPES = {
  getTypeParser: (oid: number) => PARSERS.get(oid) ?? identity,
} as const;
