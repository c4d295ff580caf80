// Integers beyond 2^53 are exact (issue 15 item 2, SPEC §3.4): GraphQL literals, JSON variables,
// filters, inserts and results, on DuckDB and PostgreSQL. Bodies are written by hand here, since
// JSON.stringify would round the numbers before they left the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTwoSources, type TwoSources } from '../support/two-sources.js';

const TABLE = 'CREATE TABLE big (id BIGINT PRIMARY KEY, label VARCHAR, amount DOUBLE PRECISION)';
const CATALOG = 'type big @table(name: "big") {\n  id: BigInt! @pk\n  label: String\n  amount: Float\n}\n';

let two: TwoSources;
let t: TestApp;
beforeAll(async () => {
  two = await startTwoSources({ name: 'svc_bigint', catalog: CATALOG, duckSql: `${TABLE.replace('DOUBLE PRECISION', 'DOUBLE')};`, pgSql: TABLE });
  t = two.app;
}, 60_000);
afterAll(() => two?.close());

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
