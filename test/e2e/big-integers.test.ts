// Integers beyond 2^53 are exact (issue 15 item 2, SPEC §3.4): GraphQL literals, JSON variables,
// filters, inserts and results, on DuckDB and PostgreSQL. Bodies are written by hand here, since
// JSON.stringify would round the numbers before they left the test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let t: TestApp;
let db: TestDatabase;
const TABLE = 'CREATE TABLE big (id BIGINT PRIMARY KEY, label VARCHAR, amount DOUBLE PRECISION)';
const CATALOG = 'type big @table(name: "big") {\n  id: BigInt! @pk\n  label: String\n  amount: Float\n}\n';

beforeAll(async () => {
  db = await createTestDatabase('svc_bigint');
  await db.exec(TABLE);
  const root = join(tempDir(), 'catalogs');
  for (const [name, yaml] of [['duck', 'type: duckdb\npath: ":memory:"\nprefix: duck\nseed: seed.sql\n'], ['pg', `type: postgres\npath: "${db.url}"\nprefix: pg\n`]] as const) {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'source.yaml'), yaml);
    writeFileSync(join(root, name, 'schema.graphql'), CATALOG);
    writeFileSync(join(root, name, 'seed.sql'), `${TABLE.replace('DOUBLE PRECISION', 'DOUBLE')};`);
  }
  t = await startApp({ CATALOGS_DIR: root });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

/** A /query request whose body text is sent as written. */
const raw = (body: string) => t.request({ method: 'POST', url: '/query', payload: body, headers: { 'content-type': 'application/json' } });

describe('integers beyond 2^53', () => {
  for (const p of ['duck', 'pg']) {
    it(`are exact on ${p}: literals, variables, filters, inserts and answers`, async () => {
      const lit = await t.gql(`mutation { insert_${p}_big(data: {id: 9007199254740993, label: "literal"}) { id label } }`);
      expect(lit.text).toContain(`"insert_${p}_big":{"id":9007199254740993,"label":"literal"}`);

      const vars = await raw(`{"query": "mutation($id: BigInt!) { insert_${p}_big(data: {id: $id, label: \\"variable\\", amount: 1.5}) { id } }", "variables": {"id": 9007199254740995}}`);
      expect(vars.text).toContain('"id":9007199254740995');

      const eq = await t.gql(`{ ${p}_big(filter: {id: {eq: 9007199254740993}}) { id label } }`);
      expect(eq.text).toContain(`"${p}_big":[{"id":9007199254740993,"label":"literal"}]`);

      const inList = await raw(`{"query": "query($ids: [BigInt!]) { ${p}_big(filter: {id: {in: $ids}}, order_by: [{field: \\"id\\"}]) { id } }", "variables": {"ids": [9007199254740993, 9007199254740995, 9007199254740997]}}`);
      expect(inList.text).toContain(`"${p}_big":[{"id":9007199254740993},{"id":9007199254740995}]`);

      const byPk = await raw(`{"query": "query($id: BigInt!) { ${p}_big_by_pk(id: $id) { label amount } }", "variables": {"id": 9007199254740995}}`);
      expect(byPk.body.data[`${p}_big_by_pk`]).toEqual({ label: 'variable', amount: 1.5 });

      // A big integer given to a Float is a float; to a BigInt column beyond 64 bits, a precise error.
      const float = await raw(`{"query": "mutation($a: Float) { insert_${p}_big(data: {id: 3, amount: $a}) { amount } }", "variables": {"a": 99999999999999999999999}}`);
      expect(float.body.data?.[`insert_${p}_big`], float.text).toEqual({ amount: 1e23 });
      const tooBig = await raw(`{"query": "mutation($id: BigInt!) { insert_${p}_big(data: {id: $id}) { id } }", "variables": {"id": 99999999999999999999999}}`);
      expect(tooBig.body.errors?.[0]?.extensions.code, tooBig.text).toBe('QUERY_FAILED');
      expect(tooBig.text).not.toContain('1e+23');
    });
  }
});
