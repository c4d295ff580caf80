// Differential fuzz on MariaDB/MySQL (as test/fuzz/pg-differential.test.ts): random valid queries over
// a self_defined source whose tables hold the column types users bring (test/fixtures/fuzz/mysql.sql).
// Every answer the fast path writes from rows must be byte for byte the general path's (graphql-js,
// same server) and the answer of a server reading one JSON document per statement (SQL_ROWS=false);
// no 5xx, no internal error but graphql-js's own for values a scalar cannot carry, no database text.
// FUZZ_SEED and FUZZ_RUNS change the seed and count (`npm run fuzz:differential` runs longer).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaService } from '../../src/pipeline/schema.service.js';
import { FIXTURES, startApp, type TestApp, tempDir } from '../support/app.js';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { catalogDir, data } from '../pg/support.js';
import { forgiven, fuzz, outcomes, type Target } from './differential/harness.js';

const SEED = Number(process.env.FUZZ_SEED ?? 30);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const ADMIN = { 'x-svc-secret-key': 'k' };
/**
 * Open bugs on every path (notes/h30x.md, notes/h30j.md), left out of the random selections until
 * fixed (the columns stay in the fixture): a bit(n) column (b8, b1) or a YEAR column holding 0000 (yr)
 * in a read fails with an internal error, as MariaDB writes them into JSON_ARRAY/JSON_OBJECT as
 * unquoted bytes and as the number `0000`, which no JSON parser takes.
 */
const LEFT_OUT = new Set(['b8', 'b1', 'yr']);

let db: TestMysqlDatabase;
const apps: { rows?: TestApp; json?: TestApp } = {};

async function serve(rows: boolean): Promise<TestApp> {
  const t = await startApp({ SECRET_KEY: 'k', SQL_ROWS: String(rows), CATALOGS_DIR: tempDir() });
  await data(t, `mutation($path: String!, $catalog: String!) { core { insert_data_sources(data: {
      name: "fz", type: "mysql", prefix: "fz", as_module: false, path: $path, self_defined: true,
      catalogs: [{name: "fz", type: "localFS", path: $catalog}]}) { name } } }`, { path: db.url, catalog: catalogDir('# self-defined\n') });
  const load = await data(t, 'mutation { function { core { load_data_source(name: "fz") { success message } } } }');
  expect(load.function.core.load_data_source).toMatchObject({ success: true });
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "fz_reader", permissions: [
      {type_name: "data-object:query", field_name: "fz_item", filter: {flag: {eq: true}}},
      {type_name: "fz_part", field_name: "label", disabled: true}]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
  return t;
}

beforeAll(async () => {
  db = await createMysqlDatabase('svc_fzmy');
  await db.exec(readFileSync(join(FIXTURES, 'fuzz/mysql.sql'), 'utf8'));
  [apps.rows, apps.json] = await Promise.all([serve(true), serve(false)]);
}, 120_000);

afterAll(async () => {
  await apps.rows?.close();
  await apps.json?.close();
  await db?.drop();
});

describe(`MySQL differential fuzz (seed ${SEED}, ${RUNS} queries as admin)`, () => {
  for (const [caller, headers, seed] of [['admin', ADMIN, SEED], ['a role with a row filter and a denied field', { ...ADMIN, 'x-svc-role': 'fz_reader' }, SEED + 1]] as const) {
    it(`answers every random query the same on the fast path, the general path and from JSON documents, as ${caller}`, async () => {
      const schema = apps.rows!.app.get(SchemaService).current.schema;
      const target: Target = { fast: apps.rows!, json: apps.json!, headers };
      const run = await fuzz(schema, 'fz', target, seed, caller === 'admin' ? RUNS : Math.ceil(RUNS / 3), LEFT_OUT);
      console.log(`${caller}: ${run.clean} answers without errors; value errors seen: ${[...run.valueErrors].join('; ') || 'none'}; fast path so far ${JSON.stringify(await outcomes(apps.rows!, ADMIN))}; forgiven ${JSON.stringify(forgiven)}`);
      expect(run.failures, run.failures.join('\n\n')).toEqual([]);
    }, 600_000);
  }
});
