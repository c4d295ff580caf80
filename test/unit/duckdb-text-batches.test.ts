// A DuckDB list streamed as text for /query (issue 30) comes in batches of about one written piece
// (32K characters), each read from its own slice of DuckDB's 2048-row chunk, so that the strings
// of a batch die before V8's young generation promotes them (a whole chunk's rows lived while the
// chunk was written, and with a small young generation the 1,000,000-row answer's server grew by
// the answer's size). The rows are those of the values path, in the same order; /ipc's batches stay
// a chunk each (an Arrow record batch per chunk). Real engine and source, real DuckDB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbEngine } from '../../src/sources/duckdb/engine.js';
import { DuckDbSource } from '../../src/sources/duckdb/source.js';
import type { OrderItem, SelectNode } from '../../src/planner/ir/select.js';
import type { CompiledSql } from '../../src/sql/compiler.js';

const column = (c: string) => ({ kind: 'column', table: 't0', column: c }) as const;
const list = (orderBy: OrderItem[] = [], limit = 100_000): SelectNode => ({
  kind: 'select',
  from: { kind: 'from', alias: 't0', name: ['tb', 'main', 'items'] },
  fields: ['id', 'note'].map((f) => ({ kind: 'scalar', key: f, expr: column(f), scalar: f === 'id' ? 'Int' : 'String', list: false })),
  orderBy,
  limit,
}) as SelectNode;

const ROWS = 10_000;
const PIECE = 32 * 1024;
let engine: DuckDbEngine;
let source: DuckDbSource;
beforeAll(async () => {
  engine = await DuckDbEngine.create(':memory:', 2, 0, { windowRows: 3000 });
  source = await DuckDbSource.attach(engine, { name: 'tb', path: ':memory:', readOnly: false, create: true });
  // Rows of about 100 characters, every 1000th one 50,000 characters long, some notes null.
  await source.exec(`CREATE TABLE items AS SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL WHEN i % 1000 = 500 THEN repeat('w', 50000)
    ELSE 'a note of some length about row ' || i || ' ' || repeat('x', i % 60) END AS note FROM range(${ROWS}) t(i)`);
});
afterAll(() => engine?.close());

const batches = async (stmt: CompiledSql, text: boolean): Promise<unknown[][]> => {
  const out: unknown[][] = [];
  for await (const rows of source.streamRows(stmt, undefined, text)) out.push([...rows]);
  return out;
};

describe('a DuckDB list streamed as text', () => {
  it.each([
    ['unordered (as scanned)', list()],
    ['ordered, read in key windows', list([{ expr: column('id'), desc: true, notNull: true }])],
  ])('%s: batches of about one piece, the rows of the values path', async (_label, sel) => {
    const stmt = engine.compiler.compileRows(sel);
    const text = await batches(stmt, true);
    const values = await batches(stmt, false);
    const rows = text.flat() as string[];
    expect(rows).toHaveLength(ROWS);
    expect(rows.map((r) => JSON.parse(r))).toEqual(values.flat());
    const longest = Math.max(...rows.map((r) => r.length));
    expect(longest).toBeGreaterThan(50_000);
    for (const batch of text) {
      const chars = (batch as string[]).reduce((n, r) => n + r.length, 0);
      // Rows until a piece is reached: at most one piece and one row.
      expect(chars - (batch as string[]).at(-1)!.length).toBeLessThan(PIECE);
    }
    // About 1 MB of text: dozens of batches, where whole chunks would be 5.
    expect(text.length).toBeGreaterThan(rows.join(',').length / (2 * PIECE));
  });

  it('/ipc reads the values a DuckDB chunk (2048 rows) per batch, as before', async () => {
    const values = await batches(engine.compiler.compileRows(list()), false);
    expect(values[0]).toHaveLength(2048);
    expect(values.flat()).toHaveLength(ROWS);
  });
});
