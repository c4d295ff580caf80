// Catalog functions without sql on DuckDB (issue 18 item 3): a name the engine defines
// (generate_series, range) is called bare; a macro of the source's own database is called in the
// source's namespace, and wins over an engine function of the same name.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

let t: TestApp;
const statements: string[] = [];

beforeAll(async () => {
  const dir = join(tempDir(), 'catalogs', 'calc');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'source.yaml'), 'type: duckdb\npath: ":memory:"\nprefix: calc\nseed: seed.sql\n');
  // The source's own macros: one with a name of its own, one shadowing DuckDB's range().
  writeFileSync(join(dir, 'seed.sql'), 'CREATE MACRO evens(n) AS TABLE SELECT 2 * i AS value FROM generate_series(1, n) t(i);\nCREATE MACRO range(n) AS TABLE SELECT -i AS value FROM generate_series(1, n) t(i);\n');
  writeFileSync(join(dir, 'schema.graphql'), [
    'type number_row { value: BigInt }',
    'type series_row { generate_series: BigInt }',
    'extend type Function {',
    '  evens(n: Int!): [number_row] @function(name: "evens", is_table: true)',
    '  mine(n: Int!): [number_row] @function(name: "range", is_table: true)',
    '  series(a: Int!, b: Int!): [series_row] @function(name: "generate_series", is_table: true)',
    '}',
  ].join('\n'));
  t = await startApp({ CATALOGS_DIR: join(dir, '..') });
  t.runtime.executor.observe((source, sql) => source === 'calc' && statements.push(sql));
});
afterAll(() => t?.close());

describe('DuckDB functions called without sql', () => {
  it('an engine table function is called bare; the source\'s own macros in its namespace', async () => {
    const r = await t.gql('{ function { calc_series(a: 1, b: 2) { generate_series } calc_evens(n: 2) { value } calc_mine(n: 2) { value } } }');
    expect(r.body).toEqual({ data: { function: {
      calc_series: [{ generate_series: 1 }, { generate_series: 2 }],
      calc_evens: [{ value: 2 }, { value: 4 }],
      calc_mine: [{ value: -1 }, { value: -2 }],
    } }, extensions: {} });
    expect(statements.some((s) => s.includes('FROM "generate_series"('))).toBe(true);
    expect(statements.some((s) => s.includes('FROM "calc"."main"."evens"('))).toBe(true);
    expect(statements.some((s) => s.includes('FROM "calc"."main"."range"('))).toBe(true);
  });
});
