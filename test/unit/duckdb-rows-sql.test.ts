// A root list DuckDB reads row by row (streamed /query lists, /ipc) is sorted once when it is
// ordered by its own columns (issue 30: a limited derived table ordered again outside was two
// sorts of every row, 290 against 163 MB for 1,000,000 rows), and unordered it is read as scanned
// with the LIMIT left to its reader (DuckDB gathered every kept row first: 139 MB). Checked on a
// real DuckDB: the statement's shape, and the rows it returns against the same list read whole
// (the reader's cut: test/e2e/streamed-lists.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { DuckDbCompiler } from '../../src/sql/dialects/duckdb.js';
import type { SelectNode } from '../../src/planner/ir/select.js';
import type { OrderItem } from '../../src/planner/ir/select.js';

const compiler = new DuckDbCompiler();
const column = (c: string) => ({ kind: 'column', table: 't0', column: c }) as const;
const list = (orderBy: OrderItem[], limit?: number, offset?: number): SelectNode => ({
  kind: 'select',
  from: { kind: 'from', alias: 't0', name: ['memory', 'main', 'items'] },
  fields: [
    { kind: 'scalar', key: 'id', expr: column('id'), scalar: 'Int', list: false },
    { kind: 'scalar', key: 'grp', expr: column('grp'), scalar: 'Int', list: false },
  ],
  orderBy,
  ...(limit !== undefined ? { limit } : {}),
  ...(offset !== undefined ? { offset } : {}),
}) as SelectNode;

let c: DuckDBConnection;
beforeAll(async () => {
  c = await (await DuckDBInstance.create(':memory:')).connect();
  await c.run('CREATE TABLE items AS SELECT i AS id, i % 7 AS grp FROM range(500) t(i)');
});
afterAll(() => c?.closeSync());

const rows = async (sel: SelectNode) => {
  const stmt = compiler.compileRows(sel);
  return (await c.runAndReadAll(stmt.sql, stmt.params as never)).getRows().map((r) => String(r[0]));
};
const whole = async (sel: SelectNode) => {
  const stmt = compiler.compileQuery({ kind: 'list', select: sel } as never);
  return (JSON.parse(String((await c.runAndReadAll(stmt.sql, stmt.params as never)).getRows()[0]![0])) as unknown[]).map((r) => JSON.stringify(r));
};

describe('DuckDB rows of a limited, ordered list', () => {
  const byGroup: OrderItem[] = [{ expr: column('grp'), desc: true }, { expr: column('id'), desc: false }];

  it('are sorted once: ORDER BY and LIMIT on the statement, no derived table', () => {
    const { sql } = compiler.compileRows(list(byGroup, 40, 15));
    expect(sql.match(/ORDER BY/g)).toHaveLength(1);
    expect(sql).not.toContain('(SELECT');
    expect(sql).toMatch(/ORDER BY "t0"\."grp" DESC[^,]*, "t0"\."id" ASC[^,]* LIMIT 40 OFFSET 15$/);
  });

  it('are the rows of the list read whole, in its order, limit and offset included', async () => {
    for (const sel of [list(byGroup, 40, 15), list(byGroup, 1000), list([{ expr: column('id'), desc: true }], 3)]) {
      const streamed = await rows(sel);
      expect(streamed.length).toBeGreaterThan(0);
      expect(streamed).toEqual(await whole(sel));
    }
  });

});

describe('DuckDB rows of a limited, unordered list', () => {
  it('are read as scanned, with no LIMIT (it gathers every kept row first): the reader cuts them', () => {
    const stmt = compiler.compileRows(list([], 10, 3));
    expect(stmt.sql).not.toContain('LIMIT');
    expect(stmt.sql).not.toContain('(SELECT');
    expect(stmt.window).toEqual({ offset: 3, limit: 10 });
  });

  it('with a relation keep the derived table (a join before the LIMIT could change which rows come first)', () => {
    const sel = list([], 10);
    const related = { ...sel, fields: [...sel.fields, { kind: 'object', key: 'self', select: { ...list([]), from: { kind: 'from', alias: 't1', name: ['memory', 'main', 'items'] }, fields: [] } }] } as SelectNode;
    const stmt = compiler.compileRows(related);
    expect(stmt.sql).toContain('(SELECT "t0".* FROM');
    expect(stmt.window).toBeUndefined();
  });

  it('with a field of catalog SQL keep the derived table (it may read other tables)', () => {
    const sel = list([], 10);
    const computed = { ...sel, fields: [...sel.fields, { kind: 'scalar', key: 'twice', expr: { kind: 'raw', parts: [column('id'), ' * 2'] }, scalar: 'Int', list: false }] } as SelectNode;
    expect(compiler.compileRows(computed).window).toBeUndefined();
  });
});
