// Differential fuzz on DuckDB (as test/fuzz/pg-differential.test.ts): random valid queries over a
// self_defined DuckDB source whose tables hold the column types users bring (test/fixtures/fuzz/duckdb.sql:
// hugeint and unsigned integers, decimals, floats, timestamps of every precision, infinite dates,
// intervals, lists, structs, maps, enums, bits, blobs). DuckDB builds the answer's JSON itself and the
// fast path writes it into the response as text; every such answer must be the general path's
// (graphql-js, same server): byte for byte, or (open, counted as valueOnly) the same JSON value where
// DuckDB writes its text its own way (`7.0`, `1e21`, `\u001F`, a JSON column as stored). No 5xx, no internal error but graphql-js's own for values a scalar
// cannot carry, no database text. FUZZ_SEED and FUZZ_RUNS change the seed and count.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaService } from '../../src/pipeline/schema.service.js';
import { FIXTURES, startApp, type TestApp, tempDir } from '../support/app.js';
import { forgiven, fuzz, outcomes, type Target } from './differential/harness.js';

const SEED = Number(process.env.FUZZ_SEED ?? 30);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const ADMIN = { 'x-svc-secret-key': 'k' };
/**
 * Open bugs (notes/h30x.md), left out of the random selections until fixed (the columns stay in the
 * fixture): a NaN or an infinity in a DOUBLE column (f8_x) or list (lf) makes DuckDB's JSON invalid,
 * an internal error on every path; a DECIMAL(38,10) (dech) is written with all its digits by the fast
 * path and as a rounded double by the general path, different values.
 */
const LEFT_OUT = new Set(['f8_x', 'lf', 'dech']);

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

describe(`DuckDB differential fuzz (seed ${SEED}, ${RUNS} queries as admin)`, () => {
  for (const [caller, headers, seed] of [['admin', ADMIN, SEED], ['a role with a row filter and a denied field', { ...ADMIN, 'x-svc-role': 'fz_reader' }, SEED + 1]] as const) {
    it(`answers every random query the same on the fast path and the general path, as ${caller}`, async () => {
      const schema = app.app.get(SchemaService).current.schema;
      const target: Target = { fast: app, headers, byValue: true };
      const run = await fuzz(schema, 'fz', target, seed, caller === 'admin' ? RUNS : Math.ceil(RUNS / 3), LEFT_OUT);
      console.log(`${caller}: ${run.clean} answers without errors; value errors seen: ${[...run.valueErrors].join('; ') || 'none'}; fast path so far ${JSON.stringify(await outcomes(app, ADMIN))}; forgiven ${JSON.stringify(forgiven)}`);
      expect(run.failures, run.failures.join('\n\n')).toEqual([]);
    }, 600_000);
  }
});
