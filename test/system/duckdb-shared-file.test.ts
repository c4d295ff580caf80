// Two data sources over one DuckDB file (issue 32, found while checking core.meta): the second is
// refused by name, not with DuckDB's "Unique file handle conflict" as an internal error; the first
// keeps serving.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
  const path = join(t.dir, 'inv.duckdb');
  const db = await DuckDBInstance.create(path);
  const c = await db.connect();
  await c.run(readFileSync(join(FIXTURES, 'catalogs/inventory/seed.sql'), 'utf8'));
  c.closeSync();
  db.closeSync();
  for (const name of ['inv', 'inv_again']) {
    const r = await t.gql(`mutation($path: String!, $catalog: String!) { core { insert_data_sources(data: {
        name: "${name}", type: "duckdb", prefix: "${name}", as_module: true, path: $path,
        catalogs: [{name: "${name}_catalog", type: "localFS", path: $catalog}]}) { name } } }`, { path, catalog: join(FIXTURES, 'catalogs/inventory') });
    expect(r.body.errors).toBeUndefined();
  }
}, 60_000);
afterAll(() => t?.close());

const load = async (name: string) => (await t.gql(`mutation { function { core { load_data_source(name: "${name}") { success message } } } }`)).body.data.function.core.load_data_source;

it('refuses a second source over a file another source serves, naming that source', async () => {
  expect(await load('inv')).toEqual({ success: true, message: 'data source "inv" loaded' });
  expect(await load('inv_again')).toEqual({ success: false, message: 'data source "inv_again": its DuckDB file is already served by data source "inv"' });
  const r = await t.gql('{ inv { warehouses { city } } }');
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data.inv.warehouses.length).toBeGreaterThan(0);
});
