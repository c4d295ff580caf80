// PostgreSQL range types (SPEC §3.4, §4.1): IntRange = int4range, BigIntRange = int8range,
// TimestampRange = tstzrange. Filters use PostgreSQL's range operators and functions; the operand
// of every test is a bound parameter (DESIGN.md §3.4). See docs/postgres.md for the definitions.
import type { ScalarName } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';

export const RANGE_SCALARS: ReadonlySet<ScalarName> = new Set<ScalarName>(['IntRange', 'BigIntRange', 'TimestampRange']);

/** The scalar of one element of a range (the operand of contains, excludes, upper, lower). */
export const RANGE_ELEMENT: Readonly<Partial<Record<ScalarName, ScalarName>>> = {
  IntRange: 'Int', BigIntRange: 'BigInt', TimestampRange: 'Timestamp',
};

/** Spellings of an open end: PostgreSQL writes it empty; people (and the established servers' docs) write ∞. */
const OPEN_END = /^[+-]?(∞|inf|infinity)?$/i;
const INTEGER = /^[+-]?\d+$/;
const LITERAL = /^([[(])([^,]*),([^,]*)([\])])$/;

/**
 * A range value as PostgreSQL reads it (SPEC §3.4): `[lower,upper]`, `(lower,upper)` and the mixed
 * forms, spaces allowed around bounds, a bound in single quotes (hugr's form), an open end written
 * empty or as ∞ / inf / infinity (signed or not), or `empty`. Anything else is the client's error,
 * named here rather than by the database. Bounds in double quotes are passed on as written.
 * hugr's structured forms are read too: a list `[lower, upper]` (both bounds included) and an object
 * `{lower, upper, type: "[)"}` (a null bound is open).
 */
export function rangeLiteral(value: unknown, scalar: ScalarName): unknown {
  const structured = structuredRange(value);
  if (structured !== undefined) return rangeLiteral(structured, scalar);
  if (typeof value !== 'string' || value.includes('"')) return value;
  const text = value.trim();
  if (text.toLowerCase() === 'empty') return 'empty';
  const m = LITERAL.exec(text);
  const bound = (b: string): string | undefined => {
    // hugr's range parser takes a bound in single quotes as the text inside them.
    const t = b.trim().replace(/^'(.*)'$/, '$1').trim();
    if (OPEN_END.test(t)) return '';
    return scalar === 'TimestampRange' || INTEGER.test(t) ? t : undefined;
  };
  const lower = m ? bound(m[2]!) : undefined;
  const upper = m ? bound(m[3]!) : undefined;
  if (!m || lower === undefined || upper === undefined) {
    throw new PublicError(
      ErrorCode.BadUserInput,
      `invalid ${scalar} value ${JSON.stringify(value)}: write [lower,upper], (lower,upper), [lower,upper) or (lower,upper]` +
        `${scalar === 'TimestampRange' ? '' : ' with whole numbers'}; an open end is empty or ∞ ("[1,)", "(-∞,5]"), or "empty"`,
    );
  }
  return `${m[1]}${lower},${upper}${m[4]}`;
}

/** `[lower, upper]` or `{lower, upper, type}` as range text; undefined for anything else. */
function structuredRange(value: unknown): string | undefined {
  const text = (b: unknown): string => (b === null || b === undefined ? '' : String(b));
  if (Array.isArray(value) && value.length === 2 && value.every((b) => b === null || ['string', 'number'].includes(typeof b))) {
    return `[${text(value[0])},${text(value[1])}]`;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (!keys.length || keys.some((k) => !['lower', 'upper', 'type'].includes(k))) return undefined;
  if (o.type === 'empty') return 'empty';
  const type = o.type === undefined || o.type === null ? '[)' : String(o.type);
  if (!/^[[(][\])]$/.test(type)) return undefined;
  return `${type[0]}${text(o.lower)},${text(o.upper)}${type[1]}`;
}

/** Operators whose operand is a Boolean: `true` tests the property, `false` its absence. */
const BOUND_TESTS: Readonly<Record<string, string>> = {
  upper_inclusive: 'upper_inc', lower_inclusive: 'lower_inc', upper_inf: 'upper_inf', lower_inf: 'lower_inf',
};

/**
 * One range filter. `range` and `element` bind the operand as a range or as one element and
 * return its SQL (a cast parameter). Returns undefined for operators the caller handles itself
 * (`eq`, `is_null`).
 */
export function rangeFilter(
  op: string,
  left: string,
  value: unknown,
  scalar: ScalarName,
  range: () => string,
  element: () => string,
): string | undefined {
  const test = BOUND_TESTS[op];
  if (test) return value ? `${test}(${left})` : `NOT ${test}(${left})`;
  switch (op) {
    // hugr's meanings (its data types page, its IntRangeFilter): a range *contains* a value and
    // *includes* another range.
    case 'contains': return `${left} @> ${element()}`;
    case 'intersects': return `${left} && ${range()}`;
    case 'includes': return `${left} @> ${range()}`;
    // A NULL range neither contains nor excludes anything (the row is not returned).
    case 'excludes': return `NOT (${left} @> ${element()})`;
    case 'upper': return `upper(${left}) = ${element()}`;
    case 'lower': return `lower(${left}) = ${element()}`;
    case 'eq':
    case 'is_null':
      return undefined;
    default:
      throw new PublicError(ErrorCode.BadUserInput, `filter operator "${op}" is not supported for ${scalar}`);
  }
}

/**
 * A tstzrange as PostgreSQL writes it, which is how hugr answers it (SPEC §3.4 "PostgreSQL range
 * text"): `["2025-01-01 00:00:00+00","2025-02-01 00:00:00+00")`, `["2025-06-01 12:30:00+00",)`,
 * `empty`. The sessions run in UTC (src/sources/postgres/source.ts), so in UTC this is the range's
 * own text; for another request zone (SPEC §10) the bounds are written as PostgreSQL would write them
 * with that session zone (`"2025-01-01 09:00:00+09"`, `"... 05:30:00+05:30"`). Either form is read
 * back as a filter value (quoted bounds are passed on as written).
 */
export function timestampRangeText(expr: string, zone: string | undefined): string {
  if (!zone) return `(${expr})::text`;
  const bound = (fn: 'lower' | 'upper'): string => {
    const b = `${fn}(${expr})`;
    const local = `(${b} AT TIME ZONE ${zone})`;
    const offset = `extract(epoch FROM ${local} - (${b} AT TIME ZONE 'UTC'))::integer`;
    const fraction = `CASE WHEN extract(microseconds FROM ${b})::bigint % 1000000 = 0 THEN '' ELSE '.' || rtrim(to_char(${local}, 'US'), '0') END`;
    const zoneText = `(CASE WHEN ${offset} < 0 THEN '-' ELSE '+' END || lpad((abs(${offset}) / 3600)::text, 2, '0') || ` +
      `CASE WHEN abs(${offset}) % 3600 = 0 THEN '' ELSE ':' || lpad(((abs(${offset}) % 3600) / 60)::text, 2, '0') END)`;
    return `CASE WHEN ${b} IS NULL THEN '' WHEN NOT isfinite(${b}) THEN ${b}::text ELSE ` +
      `'"' || to_char(${local}, 'YYYY-MM-DD HH24:MI:SS') || ${fraction} || ${zoneText} || '"' END`;
  };
  return `CASE WHEN ${expr} IS NULL THEN NULL WHEN isempty(${expr}) THEN 'empty' ELSE ` +
    `(CASE WHEN lower_inc(${expr}) THEN '[' ELSE '(' END) || ${bound('lower')} || ',' || ${bound('upper')} || ` +
    `(CASE WHEN upper_inc(${expr}) THEN ']' ELSE ')' END) END`;
}
