// `@cube` objects (hugr's special table types): a row query that selects a `@measurement` field with
// `measurement_func` (or `_rows_count`) groups the rows by every other selected value and aggregates
// the measurements per group. The grouping is a derived table under the object's own alias, so
// filters, permissions and relations (correlated on the row's key columns, which are grouped too)
// are planned exactly as for any table; one statement per root field still.
import type { ScalarName } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { AggFn } from './ir/aggregate.js';
import type { FilterNode } from './ir/filter.js';
import type { FromNode, GroupColumn, OutField } from './ir/select.js';

interface Measure {
  readonly fn: AggFn;
  /** `_rows_count`: counts the rows of the group, reads no value. */
  readonly count?: boolean;
  readonly cast?: ScalarName;
}

const FUNCS: Readonly<Record<string, AggFn>> = { SUM: 'sum', AVG: 'avg', MIN: 'min', MAX: 'max', ANY: 'any', OR: 'bool_or', AND: 'bool_and' };

/** The planned fields that aggregate (keyed by the field itself, which the planner never copies before grouping). */
const measures = new WeakMap<OutField, Measure>();

/** Marks `field` as a measurement aggregated by `measurement_func` (an enum value of the field's scalar, checked by GraphQL). */
export function measured(field: OutField, func: string, scalar: ScalarName): OutField {
  const fn = FUNCS[func];
  if (!fn) throw new PublicError(ErrorCode.BadUserInput, `unknown measurement_func "${func}"`);
  // An average of whole numbers stays a whole number, as the field's type says.
  const cast = fn === 'avg' && (scalar === 'Int' || scalar === 'BigInt') ? scalar : undefined;
  measures.set(field, { fn, ...(cast ? { cast } : {}) });
  return field;
}

/** `_rows_count` of a cube row: the number of rows in its group. */
export function rowsCount(key: string): OutField {
  const field: OutField = { kind: 'scalar', key, expr: { kind: 'param', value: null, scalar: 'BigInt' }, scalar: 'BigInt', list: false, notNull: true };
  measures.set(field, { fn: 'count', count: true });
  return field;
}

/** Physical columns of `alias` that `value` (any IR) reads. */
function columnsOf(value: unknown, alias: string, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) columnsOf(v, alias, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.kind === 'column' && o.table === alias && typeof o.column === 'string') out.add(o.column);
    else for (const v of Object.values(o)) columnsOf(v, alias, out);
  }
  return out;
}

/**
 * The grouped rows of a cube selection, or undefined when nothing is aggregated (the rows are then
 * read as they are: a measurement without `measurement_func` is a plain value, hugr's "dimension").
 * Selected values become the group's columns; every column the other fields read from the row
 * (relation keys, function-call arguments) and `keep` (the parent's correlation) is grouped too.
 */
export function cubeRows(
  from: FromNode, fields: readonly OutField[], where: FilterNode | undefined, keep: readonly unknown[],
): { from: FromNode; fields: OutField[] } | undefined {
  if (!fields.some((f) => measures.has(f))) return undefined;
  const alias = from.alias;
  const columns: GroupColumn[] = [];
  const out = fields.map((f): OutField => {
    if (f.kind !== 'scalar') return f;
    const name = `_g${columns.length}`;
    const m = measures.get(f);
    columns.push(m ? { name, agg: m.fn, ...(m.count ? {} : { expr: f.expr }), ...(m.cast ? { cast: m.cast } : {}) } : { name, expr: f.expr });
    return { ...f, expr: { kind: 'column', table: alias, column: name } };
  });
  const keys = columnsOf([out.filter((f) => f.kind !== 'scalar'), keep], alias, new Set());
  for (const column of [...keys].sort()) columns.push({ name: column, expr: { kind: 'column', table: alias, column } });
  return { from: { kind: 'from', alias, name: [], group: { source: from, ...(where ? { where } : {}), columns } }, fields: out };
}
