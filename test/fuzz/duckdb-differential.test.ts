// Differential fuzz on DuckDB (as test/fuzz/pg-differential.test.ts): random valid queries over a
// self_defined DuckDB source whose tables hold the column types users bring (test/fixtures/fuzz/duckdb.sql:
// hugeint and unsigned integers, decimals, floats, timestamps of every precision, infinite dates,
// intervals, lists, structs, maps, enums, bits, blobs). DuckDB builds the answer's JSON itself and the
// fast path writes it into the response as text; every such answer must be the general path's
// (graphql-js, same server) byte for byte. No 5xx, no internal error (a value a scalar cannot carry
// is VALUE_NOT_REPRESENTABLE), no database text. FUZZ_SEED and FUZZ_RUNS change the seed and count.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaService } from '../../src/pipeline/schema.service.js';
import { FIXTURES, startApp, type TestApp, tempDir } from '../support/app.js';
import { check, forgiven, fuzz, outcomes, type Target } from './differential/harness.js';

const SEED = Number(process.env.FUZZ_SEED ?? 30);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const ADMIN = { 'x-svc-secret-key': 'k' };
let app: TestApp;

beforeAll(async () => {
  const catalogs = join(tempDir(), 'catalogs');
  mkdirSync(join(catalogs, 'fz'), { recursive: true });
  writeFileSync(join(catalogs, 'fz', 'source.yaml'), 'type: duckdb\npath: fz.duckdb\ncreate: true\nseed: seed.sql\nprefix: fz\nself_defined: true\n');
  copyFileSync(join(FIXTURES, 'fuzz/duckdb.sql'), join(catalogs, 'fz', 'seed.sql'));
  app = await startApp({ SECRET_KEY: 'k', CATALOGS_DIR: catalogs });
  const r = await app.gql(`mutation { core { insert_roles(data: {name: "fz_reader", permissions: [
      {type_name: "data-object:query", field_name: "fz_item", filter: {b: {eq: true}}},
      {type_name: "fz_part", field_name: "label", disabled: true}]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/**
 * Answers whose text depended on the path (found by this fuzz): the fast path wrote DuckDB's own JSON
 * text (`7.0`, `1e21`, `-0.0`, `\u001F`, a JSON column with its duplicate keys and `1e400`, a
 * DECIMAL(38,10) served as Float with all its digits), the general path JavaScript's. Both now write
 * what JSON.stringify writes for the value, as the PostgreSQL source does.
 */
const SPELLED = [
  { q: '{ fz_item_by_pk(id: 7) { f8 dec2 f4 i16 } }', text: '{"fz_item_by_pk":{"f8":100,"dec2":7,"f4":0.5,"i16":7}}' },
  { q: '{ fz_part(filter: {id: {in: [2, 3]}}, order_by: [{field: "id"}]) { id w doc } }', text: '{"fz_part":[{"id":2,"w":0,"doc":[1e+21,1,0]},{"id":3,"w":1e+21,"doc":null}]}' },
  { q: '{ fz_item_by_pk(id: 5) { j } }', text: '{"fz_item_by_pk":{"j":{"n":null,"dup":2,"deep":{"deeper":[1,[2,[3,{"x":-9007199254740993}]]]}}}}' },
  { q: '{ fz_item(filter: {id: {in: [1, 3]}}, order_by: [{field: "id"}]) { id dech f8 } }', text: '{"fz_item":[{"id":1,"dech":1.2345678901234569e+27,"f8":0.1},{"id":3,"dech":0,"f8":1e+21}]}' },
  { q: '{ fz_owner_by_pk(id: 1) { item(nested_order_by: [{field: "id"}]) { id t } } }', text: '\\u0001\\u001f del' },
];

describe('the same bytes on every path', () => {
  for (const v of SPELLED) {
    it(v.q, async () => {
      const o = await check({ fast: app, headers: ADMIN }, v.q, true);
      expect(o.problems, o.problems.join('\n')).toEqual([]);
      expect(o.fast).toContain(v.text);
    });
  }
});

/** NaN and the infinities in a DOUBLE: VALUE_NOT_REPRESENTABLE at the field, as on PostgreSQL; DuckDB's JSON held a bare NaN. */
const VALUES = [
  { q: '{ fz_item_by_pk(id: 1) { id f8_x } }', data: { fz_item_by_pk: { id: 1, f8_x: null } }, errors: ['the value at fz_item_by_pk.f8_x is NaN, which the GraphQL type Float cannot represent'] },
  { q: '{ fz_item(filter: {id: {in: [2, 3]}}, order_by: [{field: "id"}]) { id f8_x } }', data: { fz_item: [{ id: 2, f8_x: null }, { id: 3, f8_x: null }] },
    errors: ['the value at fz_item.0.f8_x is Infinity, which the GraphQL type Float cannot represent', 'the value at fz_item.1.f8_x is -Infinity, which the GraphQL type Float cannot represent'] },
  { q: '{ fz_item_by_pk(id: 3) { id lf } }', data: { fz_item_by_pk: { id: 3, lf: [null] } }, errors: ['the value at fz_item_by_pk.lf.0 is NaN, which the GraphQL type Float cannot represent'] },
  { q: '{ fz_owner_by_pk(id: 1) { id item(nested_order_by: [{field: "id"}]) { id f8_x } } }', data: { fz_owner_by_pk: { id: 1, item: [{ id: 1, f8_x: null }, { id: 2, f8_x: null }] } },
    errors: ['the value at fz_owner_by_pk.item.0.f8_x is NaN, which the GraphQL type Float cannot represent', 'the value at fz_owner_by_pk.item.1.f8_x is Infinity, which the GraphQL type Float cannot represent'] },
];

describe('a NaN or an infinity in a DOUBLE is VALUE_NOT_REPRESENTABLE at its field, the rest served', () => {
  for (const v of VALUES) {
    it(v.q, async () => {
      const o = await check({ fast: app, headers: ADMIN }, v.q, true);
      expect(o.problems, o.problems.join('\n')).toEqual([]);
      const body = JSON.parse(o.fast);
      expect(body.data).toEqual(v.data);
      expect(body.errors.map((e: { message: string }) => e.message).sort()).toEqual([...v.errors].sort());
      for (const e of body.errors) expect(e.extensions).toEqual({ code: 'VALUE_NOT_REPRESENTABLE' });
    });
  }
});

describe('a NaN read inside a mutation request (its transaction) is VALUE_NOT_REPRESENTABLE too', () => {
  it('insert_fz_part { item { f8_x } }', async () => {
    const r = await app.gql('mutation { insert_fz_part(data: {id: 99, item_id: 1, qty: 1}) { id item { id f8_x } } }', undefined, ADMIN);
    await app.gql('mutation { delete_fz_part(filter: {id: {eq: 99}}) { affected_rows } }', undefined, ADMIN);
    // (A mutation with an error anywhere is rolled back whole: data is null.) Before: an internal error.
    expect(r.body.errors, r.text).toEqual([expect.objectContaining({
      message: 'the value at insert_fz_part.item.f8_x is NaN, which the GraphQL type Float cannot represent', path: ['insert_fz_part', 'item', 'f8_x'], extensions: { code: 'VALUE_NOT_REPRESENTABLE' },
    })]);
  });
});

describe(`DuckDB differential fuzz (seed ${SEED}, ${RUNS} queries as admin)`, () => {
  for (const [caller, headers, seed] of [['admin', ADMIN, SEED], ['a role with a row filter and a denied field', { ...ADMIN, 'x-svc-role': 'fz_reader' }, SEED + 1]] as const) {
    it(`answers every random query the same on the fast path and the general path, as ${caller}`, async () => {
      const schema = app.app.get(SchemaService).current.schema;
      const target: Target = { fast: app, headers };
      const run = await fuzz(schema, 'fz', target, seed, caller === 'admin' ? RUNS : Math.ceil(RUNS / 3));
      console.log(`${caller}: ${run.clean} answers without errors; value errors seen: ${[...run.valueErrors].join('; ') || 'none'}; fast path so far ${JSON.stringify(await outcomes(app, ADMIN))}; forgiven ${JSON.stringify(forgiven)}`);
      expect(run.failures, run.failures.join('\n\n')).toEqual([]);
    }, 600_000);
  }
});
