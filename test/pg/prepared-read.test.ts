// readPrepared (src/sources/postgres/prepared-read.ts): a named statement's read on a real
// PostgreSQL connection, its result described once per statement and connection; what fails
// rejects and leaves the connection usable.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROW_VALUE_TYPES } from '../../src/sql/pg/row-values.js';
import { type TypeParsers, readPrepared } from '../../src/sources/postgres/prepared-read.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let db: TestDatabase;
const clients: pg.Client[] = [];

beforeAll(async () => {
  db = await createTestDatabase('svc_prep');
  await db.exec(`CREATE TABLE t (id int PRIMARY KEY, name text, doc json, big bigint);
    INSERT INTO t VALUES (1, 'a', '{"k": [1, 2]}', 9007199254740993), (2, NULL, NULL, 2), (3, 'c', '"x"', -1)`);
}, 30_000);

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await db?.drop();
});

/** A client whose Describe messages are counted (the real connection's own method, counted on the way). */
async function client(): Promise<{ c: pg.Client; describes: () => number }> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  clients.push(c);
  const connection = (c as unknown as { connection: { describe(m: unknown): void } }).connection;
  const real = connection.describe.bind(connection);
  let n = 0;
  connection.describe = (m: unknown) => {
    n++;
    real(m);
  };
  return { c, describes: () => n };
}

const SQL = 'SELECT id, name, doc, big FROM t WHERE id >= $1 ORDER BY id';

describe('readPrepared', () => {
  it('reads rows by the column types, asking for the description once per statement and connection', async () => {
    const { c, describes } = await client();
    const expected = [[1, 'a', { k: [1, 2] }, 9007199254740993n], [2, null, null, 2], [3, 'c', 'x', -1]];
    for (let i = 0; i < 3; i++) {
      const r = await readPrepared(c, 'svc_t1', SQL, [1], ROW_VALUE_TYPES);
      expect(r.rows).toEqual(expected);
      expect(r.oids).toEqual([23, 25, 114, 20]);
    }
    expect(describes()).toBe(1);
    // Another statement is described on its own; the first stays described.
    expect((await readPrepared(c, 'svc_t2', 'SELECT name FROM t WHERE id = $1', [3], ROW_VALUE_TYPES)).rows).toEqual([['c']]);
    expect((await readPrepared(c, 'svc_t1', SQL, [3], ROW_VALUE_TYPES)).rows).toEqual([expected[2]]);
    expect(describes()).toBe(2);
    // Another connection describes it again: a description is only trusted where the statement is prepared.
    const other = await client();
    expect((await readPrepared(other.c, 'svc_t1', SQL, [2], ROW_VALUE_TYPES)).rows).toEqual(expected.slice(1));
    expect(other.describes()).toBe(1);
  });

  it('parses with the parsers of the types it is given, on a statement already described', async () => {
    const { c } = await client();
    const text: TypeParsers = { getTypeParser: () => (v: string) => v };
    await readPrepared(c, 'svc_t3', SQL, [3], ROW_VALUE_TYPES);
    expect((await readPrepared(c, 'svc_t3', SQL, [3], text)).rows).toEqual([['3', 'c', '"x"', '-1']]);
  });

  it('rejects what PostgreSQL refuses (parse, bind, execution) and the connection reads on', async () => {
    const { c } = await client();
    await expect(readPrepared(c, 'svc_bad_sql', 'SELEC 1', [], ROW_VALUE_TYPES)).rejects.toMatchObject({ code: '42601' });
    await expect(readPrepared(c, 'svc_t4', SQL, ['x'], ROW_VALUE_TYPES)).rejects.toMatchObject({ code: '22P02' });
    expect((await readPrepared(c, 'svc_t4', SQL, [3], ROW_VALUE_TYPES)).rows).toEqual([[3, 'c', 'x', -1]]);
    await expect(readPrepared(c, 'svc_t5', 'SELECT 1 / $1::int AS q', [0], ROW_VALUE_TYPES)).rejects.toMatchObject({ code: '22012' });
    expect((await readPrepared(c, 'svc_t5', 'SELECT 1 / $1::int AS q', [1], ROW_VALUE_TYPES)).rows).toEqual([[1]]);
    // A statement whose parse failed is parsed again, not taken as prepared.
    await expect(readPrepared(c, 'svc_t6', 'SELECT nope FROM t WHERE id = 1', [], ROW_VALUE_TYPES)).rejects.toMatchObject({ code: '42703' });
    await db.exec('ALTER TABLE t ADD COLUMN nope int');
    try {
      expect((await readPrepared(c, 'svc_t6', 'SELECT nope FROM t WHERE id = 1', [], ROW_VALUE_TYPES)).rows).toEqual([[null]]);
    } finally {
      await db.exec('ALTER TABLE t DROP COLUMN nope');
    }
  });

  it('rejects a value pg cannot send before writing anything, and a parser that throws once the server is ready', async () => {
    const { c } = await client();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(readPrepared(c, 'svc_t7', SQL, [circular], ROW_VALUE_TYPES)).rejects.toThrow();
    const throwing: TypeParsers = {
      getTypeParser: () => () => {
        throw new Error('parser failed');
      },
    };
    await expect(readPrepared(c, 'svc_t8', SQL, [1], throwing)).rejects.toThrow('parser failed');
    expect((await readPrepared(c, 'svc_t8', SQL, [2], ROW_VALUE_TYPES)).rows).toHaveLength(2);
  });
});
