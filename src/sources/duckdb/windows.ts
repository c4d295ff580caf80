// An ordered list read in windows of its order keys (src/sql/dialects/duckdb-windows.ts, issue 30):
// the keys of every n-th row first, then each window's rows, sorted alone. The caller holds the
// connection inside one transaction, so the bounds and every window read the same snapshot.
import type { DuckDBConnection, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import type { KeyWindow, KeyWindows } from '../../sql/compiler.js';
import type { ResultReader } from './read.js';

/** The list's rows in `read`'s batches; `total` (offset + limit) is the last row wanted, if any. */
export async function* windowRows<T>(c: DuckDBConnection, w: KeyWindows, total: number | undefined, read: ResultReader<T>): AsyncGenerator<T[]> {
  const keys = w.first.hi.length;
  const bounds = await c.runAndReadAll(w.bounds.sql, w.bounds.params as DuckDBValue[]);
  const rows = bounds.getRows();
  // No bound: fewer rows than one window. `_nulls`: a key declared never null is null in some row,
  // which the plain comparisons of the windows would lose: the rows are read in one sort then.
  const nulls = bounds.columnCount > keys + 1 && rows[0]?.[keys + 1] === true;
  if (!rows.length || nulls) {
    yield* windowOf(c, read, w.all);
    return;
  }
  const types = bounds.columnTypes().slice(0, keys);
  let lo: readonly DuckDBValue[] | undefined;
  for (const row of rows) {
    const hi = row.slice(0, keys);
    yield* windowOf(c, read, lo ? w.between : w.first, types, lo, hi);
    lo = hi;
  }
  // The bounds end at row `total` when there is one: nothing after it is wanted.
  if (total === undefined || Number(rows[rows.length - 1]![keys]) !== total) yield* windowOf(c, read, w.last, types, lo);
}

async function* windowOf<T>(c: DuckDBConnection, read: ResultReader<T>, win: KeyWindow, keyTypes: readonly DuckDBType[] = [], lo?: readonly DuckDBValue[], hi?: readonly DuckDBValue[]): AsyncGenerator<T[]> {
  const values = [...win.params] as DuckDBValue[];
  // The keys are bound as DuckDB returned them, with their own types (a DECIMAL stays exact); the
  // list's own parameters as every statement binds them.
  const types: (DuckDBType | undefined)[] = new Array(values.length);
  const bind = (at: readonly number[], v: readonly DuckDBValue[] | undefined) => at.forEach((p, i) => {
    values[p] = v![i]!;
    types[p] = keyTypes[i];
  });
  bind(win.lo, lo);
  bind(win.hi, hi);
  yield* read(await c.stream(win.sql, values, types as DuckDBType[]));
}
