// An ordered DuckDB list read in windows of its order keys (issue 30). DuckDB has no index-ordered
// scan: `ORDER BY id` of 1,000,000 rows sorts every row before the first is returned (163 MB held
// for the bench list), and `WHERE id > $last ORDER BY id LIMIT n` sorts every row after `$last`
// too (its top-N is only used below ~5,000 rows). So the windows are ranges of the order keys: one
// statement reads the keys of every n-th row (a sort of the key columns only), then each window
// `(lo, hi]` is read and sorted alone, with the list's own FROM and WHERE (filters and the role's
// row filters) and the range added; DuckDB prunes the scan by the key's zone maps.
// The ranges partition the rows by their order keys, so no row is lost or read twice whatever the
// ties; the reader (src/sources/duckdb/windows.ts) cuts offset and limit as for an unordered list.
import type { ColumnExpr, ParamExpr, RawSqlExpr } from '../../planner/ir/expr.js';
import type { FilterNode } from '../../planner/ir/filter.js';
import type { OrderItem } from '../../planner/ir/select.js';

/** A window key bound by the reader (the value DuckDB returned for it, with its own type). */
export class KeySlot {}

export type Key = readonly { readonly expr: ColumnExpr; readonly desc: boolean; readonly notNull: boolean; readonly nullsFirst: boolean }[];

type Part = RawSqlExpr['parts'][number];

/** A key slot per order item. */
export const slots = (key: Key): ParamExpr[] => key.map(() => ({ kind: 'param', value: new KeySlot(), scalar: 'String' }));

/**
 * `row` comes after `v` in the order (strictly). A key declared never null compares plainly (the
 * bounds statement checks that none is; see nullKeys); a nullable one places nulls as the ORDER BY
 * does (svc: the smallest value), and is never NULL itself, so NOT of it is the complement.
 */
function after(k: Key[number], v: ParamExpr): Part[] {
  const op = k.desc ? ' < ' : ' > ';
  if (k.notNull) return ['(', k.expr, op, v, ')'];
  const other = k.nullsFirst ? [v, ' IS NULL AND ', k.expr, ' IS NOT NULL'] : [v, ' IS NOT NULL AND ', k.expr, ' IS NULL'];
  return ['(coalesce(', k.expr, op, v, ', false) OR (', ...other, '))'];
}

function same(k: Key[number], v: ParamExpr): Part[] {
  return k.notNull ? ['(', k.expr, ' = ', v, ')'] : ['(', k.expr, ' IS NOT DISTINCT FROM ', v, ')'];
}

/** The key tuple comes after `vs`: after on the first item, or equal on it and after on the rest. */
function tupleAfter(key: Key, vs: readonly ParamExpr[]): Part[] {
  const terms = key.map((k, i) => [...key.slice(0, i).flatMap((e, j) => [...same(e, vs[j]!), ' AND ']), ...after(k, vs[i]!)]);
  return terms.length === 1 ? terms[0]! : ['(', ...terms.flatMap((t, i) => (i ? [' OR ', ...t] : t)), ')'];
}

/**
 * The rows of the window `(lo, hi]` (either end open when absent). The first key, when never null,
 * is also bounded plainly (`>=` / `<=`), a condition DuckDB pushes into the scan and checks against
 * each row group's min/max: the window reads only the row groups its keys lie in.
 */
export function windowRange(key: Key, lo: readonly ParamExpr[] | undefined, hi: readonly ParamExpr[] | undefined): FilterNode {
  const first = key[0]!;
  const items: Part[][] = [];
  if (key.length === 1 && first.notNull) {
    // One key never null: (lo, hi] is exactly `> lo AND <= hi`.
    if (lo) items.push(after(first, lo[0]!));
    if (hi) items.push(['(', first.expr, first.desc ? ' >= ' : ' <= ', hi[0]!, ')']);
  } else {
    if (first.notNull && lo) items.push(['(', first.expr, first.desc ? ' <= ' : ' >= ', lo[0]!, ')']);
    if (first.notNull && hi) items.push(['(', first.expr, first.desc ? ' >= ' : ' <= ', hi[0]!, ')']);
    if (lo) items.push(tupleAfter(key, lo));
    if (hi) items.push(['(NOT ', ...tupleAfter(key, hi), ')']);
  }
  return { kind: 'and', items: items.map((parts) => ({ kind: 'sql', expr: { kind: 'raw', parts } })) };
}

/** Whether any key declared never null is null in some row (then the plain comparisons would lose it). */
export function nullKeys(key: Key, expr: (e: ColumnExpr) => string): string | undefined {
  const declared = key.filter((k) => k.notNull);
  return declared.length ? `bool_or(${declared.map((k) => `${expr(k.expr)} IS NULL`).join(' OR ')}) OVER ()` : undefined;
}
