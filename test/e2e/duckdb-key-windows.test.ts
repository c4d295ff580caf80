// Streamed /query lists of a DuckDB source read in windows of their order keys (issue 30,
// DUCKDB_WINDOW_ROWS; src/sql/dialects/duckdb-windows.ts) answer the same text, byte for byte, as
// one sort of every row: served twice from the same seed, windows of 4 rows against one sort, with
// ties broken by the key, nulls in the order column, a client filter and a role's row filter (the
// same SQL in every window, the range added), offsets and limits.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const CLERK = { ...ADMIN, 'x-svc-role': 'clerk', 'x-svc-user-id': '3', 'x-svc-user-name': 'u3' };

function catalogs(): string {
  const root = join(tempDir(), 'catalogs');
  const dir = join(root, 'win');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'source.yaml'), 'type: duckdb\npath: ":memory:"\nprefix: win\nas_module: false\nseed: seed.sql\n');
  // 300 rows: grp has ties (0-6) and nulls (every 11th row); owner is what the role's row filter reads.
  writeFileSync(join(dir, 'seed.sql'), `CREATE TABLE items (id INTEGER PRIMARY KEY, grp INTEGER, owner INTEGER NOT NULL, name VARCHAR NOT NULL, price DECIMAL(15,2) NOT NULL);
    INSERT INTO items SELECT i, CASE WHEN i % 11 = 0 THEN NULL ELSE i % 7 END, i % 5, 'item ' || (i % 17), (i % 13) / 4 FROM range(300) t(i);`);
  writeFileSync(join(dir, 'schema.graphql'), 'type items @table(name: "items") {\n  id: Int! @pk\n  grp: Int\n  owner: Int!\n  name: String!\n  price: Float!\n}\n');
  return root;
}

let windowed: TestApp;
let one: TestApp;
beforeAll(async () => {
  const dir = catalogs();
  // Every root list asked for more than 2 rows is streamed; windowed reads 4 rows a window.
  const env = { SECRET_KEY: 'k', CATALOGS_DIR: dir, STREAM_LIST_ROWS: '2' };
  windowed = await startApp({ ...env, DUCKDB_WINDOW_ROWS: '4' });
  one = await startApp({ ...env, DUCKDB_WINDOW_ROWS: '0' });
  for (const app of [windowed, one]) {
    const r = await app.gql(`mutation { core { insert_roles(data: {name: "clerk", description: "sees owners 1-3", permissions: [
      {type_name: "data-object:query", field_name: "win_items", filter: {owner: {in: [1, 2, "[$auth.user_id_int]"]}}}
    ]}) { name } } }`, undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
  }
}, 120_000);
afterAll(async () => {
  await windowed?.close();
  await one?.close();
});

const CASES: [string, string, Record<string, string>?][] = [
  ['by the key', '{ win_items(order_by: [{field: "id"}], limit: 1000) { id grp name } }'],
  ['by a column with ties and nulls, the key breaking ties', '{ win_items(order_by: [{field: "grp"}, {field: "id", direction: DESC}], limit: 250, offset: 7) { id grp } }'],
  ['descending with nulls last, a filter', '{ win_items(order_by: [{field: "grp", direction: DESC}, {field: "id"}], filter: {_not: {name: {eq: "item 3"}}}, limit: 200) { id grp name } }'],
  ['by a decimal and a text with ties, limit on a window edge', '{ win_items(order_by: [{field: "price"}, {field: "name", direction: DESC}, {field: "id"}], limit: 40) { id price name } }'],
  ['a role with a row filter and a client filter', '{ win_items(order_by: [{field: "grp"}, {field: "id"}], filter: {id: {gt: 10}}, limit: 500) { id owner grp } }', CLERK],
  ['a role with a row filter, past the last row', '{ win_items(order_by: [{field: "name"}, {field: "id", direction: DESC}], limit: 100, offset: 150) { id owner name } }', CLERK],
];

describe('a DuckDB list read in key windows', () => {
  it.each(CASES)('%s: the answer of one sort, byte for byte', async (_label, query, headers = ADMIN) => {
    for (const round of [1, 2]) {
      const a = await windowed.gql(query, undefined, headers);
      const b = await one.gql(query, undefined, headers);
      expect(a.status).toBe(200);
      expect(a.body?.errors, a.text.slice(0, 600)).toBeUndefined();
      // Streamed (no length), so read through the windows; and long enough to cross many of them.
      expect(a.headers['content-length']).toBeUndefined();
      expect(a.body.data.win_items.length, `round ${round}`).toBeGreaterThan(12);
      expect(a.text, `round ${round}`).toBe(b.text);
    }
  });

  it('the role sees only its rows', async () => {
    const r = await windowed.gql('{ win_items(order_by: [{field: "id"}], limit: 500) { id owner } }', undefined, CLERK);
    expect(r.body.errors, r.text.slice(0, 500)).toBeUndefined();
    expect(new Set(r.body.data.win_items.map((i: { owner: number }) => i.owner))).toEqual(new Set([1, 2, 3]));
    expect(r.body.data.win_items).toHaveLength(180);
  });
});
