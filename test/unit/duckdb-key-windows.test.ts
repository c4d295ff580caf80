// An ordered DuckDB list read in windows of its order keys (issue 30, DUCKDB_WINDOW_ROWS): the same
// rows in the same order as one sort of every row, none lost or read twice at a window's edge. Read
// through the real engine and source (bounds, windows, one transaction) on a real DuckDB, with
// windows of 7 rows over 200: ties on the order column broken by the key, nulls in the order column
// (first ascending, last descending), keys of every type bound back exactly, a filter, offsets and
// limits ending on and between window edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbEngine } from '../../src/sources/duckdb/engine.js';
import { DuckDbSource } from '../../src/sources/duckdb/source.js';
import { DuckDbCompiler } from '../../src/sql/dialects/duckdb.js';
import type { FilterNode } from '../../src/planner/ir/filter.js';
import type { OrderItem, SelectNode } from '../../src/planner/ir/select.js';
import type { CompiledSql } from '../../src/sql/compiler.js';

const column = (c: string) => ({ kind: 'column', table: 't0', column: c }) as const;
const FIELDS = ['id', 'grp', 'name', 'price', 'day', 'at', 'x'];
const list = (orderBy: OrderItem[], o: { limit?: number; offset?: number; where?: FilterNode } = {}): SelectNode => ({
  kind: 'select',
  from: { kind: 'from', alias: 't0', name: ['win', 'main', 'items'] },
  fields: FIELDS.map((f) => ({ kind: 'scalar', key: f, expr: column(f), scalar: f === 'id' || f === 'grp' ? 'Int' : 'String', list: false })),
  orderBy,
  ...o,
}) as SelectNode;
const by = (c: string, desc = false, notNull = false): OrderItem => ({ expr: column(c), desc, ...(notNull ? { notNull } : {}) });

let engine: DuckDbEngine;
let source: DuckDbSource;
const plain = new DuckDbCompiler(0);
beforeAll(async () => {
  engine = await DuckDbEngine.create(':memory:', 2, 0, { windowRows: 7 });
  source = await DuckDbSource.attach(engine, { name: 'win', path: ':memory:', readOnly: false, create: true });
  // grp: ties (0-4) and nulls (every 9th row); price, day, at, x: keys of other types with ties.
  await source.exec(`CREATE TABLE items AS SELECT i AS id, CASE WHEN i % 9 = 0 THEN NULL ELSE i % 5 END AS grp,
    'n' || (i % 13) AS name, CAST((i % 11) / 4 AS DECIMAL(15,2)) AS price, DATE '2020-01-01' + CAST(i % 6 AS INTEGER) AS day,
    TIMESTAMP '2020-01-01 00:00:00.000001' + to_microseconds(i % 4) AS at, (i % 17) / 3.0 AS x FROM range(200) t(i)`);
});
afterAll(() => engine?.close());

const read = async (stmt: CompiledSql): Promise<string[]> => {
  const out: string[] = [];
  for await (const rows of source.streamRows(stmt, undefined, true)) out.push(...(rows as string[]));
  return out;
};

describe('an ordered DuckDB list read in key windows', () => {
  const cases: [string, SelectNode][] = [
    ['by its key', list([by('id', false, true)], { limit: 1000 })],
    ['by its key, descending, limit ending on a window edge', list([by('id', true, true)], { limit: 70 })],
    ['by a column with ties, the key breaking them, offset and limit between edges', list([by('grp', false, true), by('id', false, true)], { limit: 50, offset: 9 })],
    ['by a nullable column (nulls first) and the key', list([by('grp'), by('id', true, true)], { limit: 150 })],
    ['by a nullable column, descending (nulls last), and the key', list([by('grp', true), by('id', false, true)], { limit: 180, offset: 20 })],
    ['by a decimal, a date, a timestamp and a double with ties, then the key', list([by('price', true, true), by('day', false, true), by('at', false, true), by('x', true), by('id', false, true)], { limit: 190 })],
    ['by a text column then the key, with a filter', list([by('name', false, true), by('id', false, true)], {
      limit: 100,
      where: { kind: 'compare', op: 'ne', left: column('grp'), right: { kind: 'param', value: 3, scalar: 'Int' }, scalar: 'Int', list: false },
    })],
    ['with no limit', list([by('grp', true), by('id', true, true)])],
  ];

  it.each(cases)('%s: the rows of one sort, in its order', async (_label, sel) => {
    const windowed = engine.compiler.compileRows(sel);
    expect(windowed.window?.keys).toBeDefined();
    const one = plain.compileRows(sel);
    expect(one.window?.keys).toBeUndefined();
    const expected = await read(one);
    expect(expected.length).toBeGreaterThan(20);
    expect(await read(windowed)).toEqual(expected);
  });

  it('reads the list in windows: the bounds are every 7th row and the last one wanted', async () => {
    const stmt = engine.compiler.compileRows(list([by('id', false, true)], { limit: 100, offset: 3 }));
    const keys = stmt.window!.keys!;
    expect(stmt.window).toMatchObject({ offset: 3, limit: 100 });
    expect(keys.between.sql).toMatch(/WHERE \(\(\("t0"\."id" > \$\d+\)\) AND \(\("t0"\."id" <= \$\d+\)\)\) ORDER BY "t0"\."id" ASC$/);
    const bounds = await source.rows(keys.bounds.sql, keys.bounds.params);
    expect(bounds.map((r) => Number(r._n))).toEqual([7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 103]);
  });

  it('a key declared never null that is null in a row: read in one sort, no row lost', async () => {
    // grp is declared never null here, but has nulls: the plain comparisons would skip them.
    const sel = list([by('grp', false, true), by('id', false, true)], { limit: 500 });
    const expected = await read(plain.compileRows(sel));
    expect(expected.filter((r) => r.includes('"grp":null'))).toHaveLength(23);
    expect(await read(engine.compiler.compileRows(sel))).toEqual(expected);
  });

  it('a short list (under one window of rows) is one sort as before', () => {
    const stmt = engine.compiler.compileRows(list([by('id', false, true)], { limit: 7 }));
    expect(stmt.window).toBeUndefined();
    expect(stmt.sql).toMatch(/ORDER BY "t0"\."id" ASC LIMIT 7$/);
  });
});
