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
import { check, forgiven, fuzz, outcomes, type Target } from './differential/harness.js';

const SEED = Number(process.env.FUZZ_SEED ?? 30);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const ADMIN = { 'x-svc-secret-key': 'k' };

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

/**
 * Columns MariaDB cannot write into JSON itself, read by the dialect (found by this fuzz): a BIT value
 * went into JSON_ARRAY as raw bytes and YEAR 0 as `0000`, so every read selecting them was an internal
 * error on every path. BIT(n) is served as its n binary digits (PostgreSQL's bit(n) text), YEAR as a
 * number; filters, orders, 1:N levels and aggregations see the same values.
 */
const BITS = [
  { q: '{ fz_item(order_by: [{field: "id"}]) { id b8 b1 b64 yr } }', data: { fz_item: [
    { id: 1, b8: '10100101', b1: '1', b64: '1'.repeat(64), yr: 1901 }, { id: 2, b8: '00000000', b1: '0', b64: '0'.repeat(64), yr: 2155 },
    { id: 3, b8: '11111111', b1: null, b64: null, yr: 0 }, { id: 4, b8: null, b1: null, b64: null, yr: null }, { id: 5, b8: null, b1: null, b64: null, yr: null },
    { id: 6, b8: null, b1: null, b64: null, yr: null }, { id: 7, b8: '00000111', b1: '1', b64: `${'0'.repeat(63)}1`, yr: 2000 }] } },
  { q: '{ fz_item_by_pk(id: 3) { yr b8 } }', data: { fz_item_by_pk: { yr: 0, b8: '11111111' } } },
  { q: '{ fz_item(filter: {_or: [{b8: {eq: "00000111"}}, {yr: {eq: 0}}, {b1: {eq: "0"}}]}, order_by: [{field: "b8", direction: DESC}, {field: "id"}]) { id b8 } }',
    data: { fz_item: [{ id: 3, b8: '11111111' }, { id: 7, b8: '00000111' }, { id: 2, b8: '00000000' }] } },
  { q: '{ fz_item(filter: {b8: {like: "1%"}, yr: {gt: 1900}}, order_by: [{field: "id"}]) { id } }', data: { fz_item: [{ id: 1 }] } },
  { q: '{ fz_owner(order_by: [{field: "id"}]) { id item(nested_order_by: [{field: "yr"}, {field: "id"}], filter: {b8: {is_null: false}}) { id yr b8 } } }', data: { fz_owner: [
    { id: 1, item: [{ id: 1, yr: 1901, b8: '10100101' }, { id: 2, yr: 2155, b8: '00000000' }] }, { id: 2, item: [{ id: 3, yr: 0, b8: '11111111' }] },
    { id: 3, item: [{ id: 7, yr: 2000, b8: '00000111' }] }, { id: 4, item: null }] } },
  { q: '{ fz_item_aggregation { _rows_count yr { min max sum } b8 { count list(distinct: true) } } }', data: { fz_item_aggregation: { _rows_count: 7, yr: { min: 0, max: 2155, sum: 6056 }, b8: { count: 4, list: ["00000000", "00000111", "10100101", "11111111"] } } } },
  { q: '{ fz_item_bucket_aggregation(order_by: [{field: "key.b1"}]) { key { b1 } aggregations { _rows_count yr { max } } } }', data: { fz_item_bucket_aggregation: [
    { key: { b1: null }, aggregations: { _rows_count: 4, yr: { max: 0 } } }, { key: { b1: '0' }, aggregations: { _rows_count: 1, yr: { max: 2155 } } },
    { key: { b1: '1' }, aggregations: { _rows_count: 2, yr: { max: 2000 } } }] } },
];

/**
 * Found by the fuzz (seed 777): an aggregation whose outputs are only `__typename` read the aggregated
 * rows without aggregating them, one row per related row: "Subquery returns more than 1 row", an
 * internal error on every path (and no object at all where there were no rows).
 */
const FOUND = [
  { q: '{ fz_owner(order_by: [{field: "id"}]) { id item_aggregation { item_note_aggregation { _rows_count { __typename } } } } }', data: { fz_owner: [1, 2, 3, 4].map((id) => ({ id, item_aggregation: { item_note_aggregation: { _rows_count: { __typename: 'BigIntAggregation' } } } })) } },
  { q: '{ fz_item_aggregation { __typename } fz_owner_by_pk(id: 4) { item_aggregation { __typename } } }', data: { fz_item_aggregation: { __typename: '_fz_item_aggregation' }, fz_owner_by_pk: { item_aggregation: { __typename: '_fz_item_aggregation' } } } },
];

describe('mismatches found by the fuzz, fixed', () => {
  for (const v of FOUND) {
    it(v.q, async () => {
      const o = await check({ fast: apps.rows!, json: apps.json!, headers: ADMIN }, v.q, true);
      expect(o.problems, o.problems.join('\n')).toEqual([]);
      expect(JSON.parse(o.fast).data).toEqual(v.data);
    });
  }
});

describe('BIT and YEAR columns are answered on every path', () => {
  for (const v of BITS) {
    it(v.q, async () => {
      const o = await check({ fast: apps.rows!, json: apps.json!, headers: ADMIN }, v.q, true);
      expect(o.problems, o.problems.join('\n')).toEqual([]);
      expect(JSON.parse(o.fast).data).toEqual(v.data);
    });
  }
});

describe(`MySQL differential fuzz (seed ${SEED}, ${RUNS} queries as admin)`, () => {
  for (const [caller, headers, seed] of [['admin', ADMIN, SEED], ['a role with a row filter and a denied field', { ...ADMIN, 'x-svc-role': 'fz_reader' }, SEED + 1]] as const) {
    it(`answers every random query the same on the fast path, the general path and from JSON documents, as ${caller}`, async () => {
      const schema = apps.rows!.app.get(SchemaService).current.schema;
      const target: Target = { fast: apps.rows!, json: apps.json!, headers };
      const run = await fuzz(schema, 'fz', target, seed, caller === 'admin' ? RUNS : Math.ceil(RUNS / 3));
      console.log(`${caller}: ${run.clean} answers without errors; value errors seen: ${[...run.valueErrors].join('; ') || 'none'}; fast path so far ${JSON.stringify(await outcomes(apps.rows!, ADMIN))}; forgiven ${JSON.stringify(forgiven)}`);
      expect(run.failures, run.failures.join('\n\n')).toEqual([]);
    }, 600_000);
  }
});
