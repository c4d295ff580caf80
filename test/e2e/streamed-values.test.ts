// A streamed DuckDB list (a root list asked with a limit above STREAM_LIST_ROWS, written row by row)
// answers what the same list answers read whole (issue 31): the rows written as JSON.stringify
// writes their values (`7`, `1e+21`, `\u001f`, a JSON column's last duplicate key), and a NaN or an
// infinity under Float null with VALUE_NOT_REPRESENTABLE at its path. DuckDB's own text of such rows
// was written as it was ("NaN" as a string in a Float field, no error). Same table
// (test/fixtures/fuzz/duckdb.sql), one server streaming lists of more than 2 rows, one never. The
// errors of a streamed list follow its rows (they are met while it is written): the one difference.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp, tempDir } from '../support/app.js';

async function fuzzApp(streamAbove: string): Promise<TestApp> {
  const catalogs = join(tempDir(), 'catalogs');
  mkdirSync(join(catalogs, 'fz'), { recursive: true });
  writeFileSync(join(catalogs, 'fz', 'source.yaml'), 'type: duckdb\npath: fz.duckdb\ncreate: true\nseed: seed.sql\nprefix: fz\nself_defined: true\n');
  copyFileSync(join(FIXTURES, 'fuzz/duckdb.sql'), join(catalogs, 'fz', 'seed.sql'));
  // A DOUBLE served as Float! by hand: a NaN there nulls its row (a root list's items are nullable).
  mkdirSync(join(catalogs, 'nn'), { recursive: true });
  writeFileSync(join(catalogs, 'nn', 'source.yaml'), 'type: duckdb\npath: nn.duckdb\ncreate: true\nseed: seed.sql\nprefix: nn\n');
  writeFileSync(join(catalogs, 'nn', 'seed.sql'), "CREATE TABLE items (id INTEGER PRIMARY KEY, x DOUBLE NOT NULL);\nINSERT INTO items VALUES (1, 1.5), (2, 2.0), (3, 'NaN'), (4, 4.5);\n");
  writeFileSync(join(catalogs, 'nn', 'schema.graphql'), 'type items @table(name: "items") {\n  id: Int! @pk\n  x: Float!\n}\n');
  return startApp({ CATALOGS_DIR: catalogs, STREAM_LIST_ROWS: streamAbove });
}

let streamed: TestApp;
let whole: TestApp;
beforeAll(async () => {
  streamed = await fuzzApp('2');
  whole = await fuzzApp('0');
}, 120_000);
afterAll(async () => {
  await streamed?.close();
  await whole?.close();
});

const ITEMS = '{ fz_item(order_by: [{field: "id"}], limit: 100) { id f8 f8_x f4 dec2 dech t j lf li i16 u8 req } }';
const CASES: [string, string][] = [
  ['spellings, escapes, a JSON column with duplicate keys, NaN and the infinities', ITEMS],
  ['only rows DuckDB spells as JavaScript does', '{ fz_item(order_by: [{field: "id"}], limit: 100) { id i4 b req } }'],
  ['a NaN in a DOUBLE[]', '{ fz_item(order_by: [{field: "id", direction: DESC}], limit: 50) { id lf } }'],
  ['an unordered list of JSON and doubles', '{ fz_part(limit: 100) { id w doc big } }'],
  ['nested lists under a streamed list', '{ fz_owner(order_by: [{field: "id"}], limit: 10) { id item(nested_order_by: [{field: "id"}]) { id f8 f8_x t } } }'],
  ['two streamed lists', `{ a: fz_item(order_by: [{field: "id"}], limit: 7) { id f8_x } b: fz_item(order_by: [{field: "id", direction: DESC}], limit: 9) { f8_x lf id } }`],
];

/**
 * The answer read whole with its `errors` written last: a streamed list's errors are known only once
 * its rows are written, so they follow `data` (and `extensions`); the rest is the same text.
 */
function errorsLast(text: string): string {
  const errors = (JSON.parse(text) as { errors?: unknown }).errors;
  if (!errors) return text;
  const head = `{"errors":${JSON.stringify(errors)},`;
  expect(text.startsWith(head)).toBe(true);
  return `{${text.slice(head.length, -1)},"errors":${JSON.stringify(errors)}}`;
}

describe('a streamed DuckDB list answers what it answers read whole', () => {
  it.each(CASES)('%s: the same text, first and prepared', async (_label, query) => {
    for (const round of [1, 2]) {
      const a = await streamed.gql(query);
      const b = await whole.gql(query);
      expect(a.status).toBe(200);
      // Written row by row (no length), and the other read whole.
      expect(a.headers['content-length']).toBeUndefined();
      expect(b.headers['content-length']).toBeDefined();
      expect(a.text, `round ${round}`).toBe(errorsLast(b.text));
    }
  });

  it('a NaN under Float is null with VALUE_NOT_REPRESENTABLE at its row, after data', async () => {
    const a = await streamed.gql(ITEMS);
    expect(a.text).not.toContain('"NaN"');
    expect(a.text).not.toContain('7.0');
    const rows = a.body.data.fz_item as { id: number; f8_x: unknown; f8: unknown }[];
    expect(rows.map((r) => r.f8_x)).toEqual([null, null, null, 5e-324, 1.7976931348623157e308, -1.5, 0]);
    expect(a.body.errors.map((e: { path: unknown }) => e.path)).toEqual([['fz_item', 0, 'f8_x'], ['fz_item', 1, 'f8_x'], ['fz_item', 2, 'f8_x'], ['fz_item', 2, 'lf', 0]]);
    expect(a.body.errors[0]).toMatchObject({ message: 'the value at fz_item.0.f8_x is NaN, which the GraphQL type Float cannot represent', extensions: { code: 'VALUE_NOT_REPRESENTABLE' } });
  });

  it('a NaN under Float! nulls its row, as read whole', async () => {
    const query = '{ nn_items(order_by: [{field: "id"}], limit: 10) { id x } }';
    const b = await whole.gql(query);
    const error = { message: 'the value at nn_items.2.x is NaN, which the GraphQL type Float cannot represent', locations: [{ line: 1, column: 55 }], path: ['nn_items', 2, 'x'], extensions: { code: 'VALUE_NOT_REPRESENTABLE' } };
    expect(b.body).toEqual({ errors: [error], data: { nn_items: [{ id: 1, x: 1.5 }, { id: 2, x: 2 }, null, { id: 4, x: 4.5 }] }, extensions: {} });
    const a = await streamed.gql(query);
    expect(a.headers['content-length']).toBeUndefined();
    expect(a.text).toBe(errorsLast(b.text));
  });
});
