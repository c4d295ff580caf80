// A DuckDB macro of a source that names its tables bare (issue 32, "seen, not fixed"): DuckDB binds a
// macro where it is called, so svc reads the body back at attach with every bare table qualified
// (src/sources/duckdb/macros.ts). Two sources with a table of the same name: each macro reads its own.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

let t: TestApp;

function source(root: string, name: string, values: string): void {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'source.yaml'), `type: duckdb\npath: ":memory:"\nprefix: ${name}\nseed: seed.sql\n`);
  writeFileSync(join(dir, 'seed.sql'), [
    `CREATE TABLE items (id INTEGER PRIMARY KEY, owner INTEGER, v INTEGER); INSERT INTO items VALUES ${values};`,
    'CREATE MACRO items_of(o) AS TABLE SELECT id, v FROM items WHERE owner = o ORDER BY id;',
    'CREATE MACRO total_of(o) AS (SELECT sum(v) FROM items WHERE owner = o);',
    // A CTE's name is not a table of the database.
    'CREATE MACRO top_of(o) AS TABLE WITH ranked AS (SELECT id AS item, v FROM items i WHERE i.owner = o) SELECT item AS id, v FROM ranked ORDER BY v DESC LIMIT 1;',
  ].join('\n'));
  writeFileSync(join(dir, 'schema.graphql'), [
    'type item { id: Int v: Int }',
    'extend type Function {',
    '  items_of(owner: Int!): [item] @function(name: "items_of", is_table: true)',
    '  total_of(owner: Int!): BigInt @function(name: "total_of")',
    '  top_of(owner: Int!): [item] @function(name: "top_of", is_table: true)',
    '}',
  ].join('\n'));
}

beforeAll(async () => {
  const root = join(tempDir(), 'catalogs');
  source(root, 'a', '(1, 1, 10), (2, 1, 20), (3, 2, 30)');
  source(root, 'b', '(1, 1, 100), (2, 2, 200)');
  t = await startApp({ CATALOGS_DIR: root });
});
afterAll(() => t?.close());

describe('DuckDB macros naming their tables bare', () => {
  it('are called by name, each reading its own database', async () => {
    const r = await t.gql('{ function { a_items: a_items_of(owner: 1) { id v } a_total: a_total_of(owner: 1) a_top: a_top_of(owner: 1) { id v } b_items: b_items_of(owner: 1) { id v } b_total: b_total_of(owner: 2) } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.function).toEqual({
      a_items: [{ id: 1, v: 10 }, { id: 2, v: 20 }], a_total: 30, a_top: [{ id: 2, v: 20 }],
      b_items: [{ id: 1, v: 100 }], b_total: 200,
    });
  });
});
