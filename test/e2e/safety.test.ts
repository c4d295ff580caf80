// SQL injection (DESIGN.md §3.4) and one statement per root field (SPEC §5), on DuckDB and
// PostgreSQL.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../support/app.js';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

const HOSTILE = [`'; DROP TABLE customers; --`, `" OR 1=1 --`, `\\'); DELETE FROM orders; --`, `$1`, `?`, `%' OR '1'='1`, `]]'"`, `[$auth.role]`];

describe('hostile values are parameters', () => {
  it('in every filter operator, the data survives and nothing matches', async () => {
    for (const d of dialects.all) {
      for (const v of HOSTILE) {
        const q = `query($v: String!, $l: [String!]!, $j: JSON) {
          a: shop_customers(filter: {name: {eq: $v}}) { id }
          b: shop_customers(filter: {name: {like: $v}}) { id }
          c: shop_customers(filter: {name: {ilike: $v}}) { id }
          d: shop_customers(filter: {country: {in: $l}}) { id }
          e: shop_products(filter: {attributes: {has: $v}}) { id }
          f: shop_products(filter: {attributes: {contains: $j}}) { id }
          g: shop_orders(filter: {customer: {name: {eq: $v}}}) { id }
          h: shop_customers(filter: {orders: {any_of: {note: {eq: $v}}}}) { id }
        }`;
        const r = await d.app.gql(q, { v, l: [v, 'GB'], j: { [v]: v } });
        expect(r.body.errors, `${d.name} ${JSON.stringify(v)}: ${r.text}`).toBeUndefined();
        expect(r.body.data.a).toEqual([]);
        expect(r.body.data.d.length).toBe(2);
      }
      const count = await d.app.gql('{ shop_customers_aggregation { _rows_count } shop_orders_aggregation { _rows_count } }');
      expect(count.body.data).toEqual({ shop_customers_aggregation: { _rows_count: 4 }, shop_orders_aggregation: { _rows_count: 4 } });
    }
  });

  it('a NUL character is stored by DuckDB and refused clearly by PostgreSQL', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('query($v: String!) { shop_customers(filter: {name: {eq: $v}}) { id } }', { v: 'a\u0000b' });
      if (d.name === 'duckdb') expect(r.body.data.shop_customers).toEqual([]);
      else expect(r.body.errors[0]).toMatchObject({ message: expect.stringMatching(/invalid input value/), extensions: { code: 'QUERY_FAILED' } });
    }
  });

  it('in regex patterns', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('query($v: String!) { shop_customers(filter: {name: {regex: $v}}) { id } }', { v: `') OR TRUE --` });
      expect(r.body.errors?.[0]?.message ?? '', d.name).not.toMatch(/syntax error/i);
    }
  });

  it('in written values, which come back as written', async () => {
    for (const d of dialects.all) {
      for (const [i, v] of HOSTILE.entries()) {
        const r = await d.app.gql('mutation($id: Int!, $v: String!) { insert_shop_tags(data: {id: $id, name: $v}) { id name } }', { id: 900 + i, v });
        expect(r.body.data?.insert_shop_tags, `${d.name}: ${r.text}`).toEqual({ id: 900 + i, name: v });
      }
      const del = await d.app.gql('mutation { delete_shop_tags(filter: {id: {gte: 900}}) { affected_rows } }');
      expect(del.body.data.delete_shop_tags.affected_rows).toBe(HOSTILE.length);
    }
  });

  it('in order_by and distinct_on names, which must name fields', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('{ shop_customers(order_by: [{field: "name; DROP TABLE customers"}]) { name } }');
      expect(r.body.errors[0].message).toMatch(/is not selected/);
      const s = await d.app.gql('{ shop_customers(distinct_on: ["id\\" DESC; --"]) { name } }');
      expect(s.body.errors[0].message).toMatch(/is not a field of "shop_customers"/);
    }
  });
});

describe('catalog identifiers with quotes', () => {
  it('are quoted on DuckDB', async () => {
    const duck = dialects.all.find((d) => d.name === 'duckdb')!;
    const file = join(duck.app.dir, 'weird.duckdb');
    await duck.app.runtime.engine.exec(`ATTACH '${file}' AS weird_setup; CREATE TABLE weird_setup."we""ird table" (id INTEGER PRIMARY KEY, "la""bel; DROP TABLE x; --" VARCHAR); INSERT INTO weird_setup."we""ird table" VALUES (1, 'ok'); DETACH weird_setup;`);
    await duck.app.gql(`mutation($p: String!, $c: String!) { core { insert_data_sources(data: {name: "weird", type: "duckdb", prefix: "w", as_module: false, path: $p,
      catalogs: [{name: "weird", type: "localFS", path: $c}]}) { name } } }`, { p: file, c: join(FIXTURES, 'catalogs/weird') });
    const load = await duck.app.gql('mutation { function { core { load_data_source(name: "weird") { success message } } } }');
    expect(load.body.data.function.core.load_data_source.success).toBe(true);
    const r = await duck.app.gql('{ w_odd { id label } }');
    expect(r.body).toEqual({ data: { w_odd: [{ id: 1, label: 'ok' }] }, extensions: {} });
  });
});

describe('one statement per root field', () => {
  it('however deep the relations and aggregations go', async () => {
    for (const d of dialects.all) {
      d.statements.length = 0;
      const r = await d.app.gql(`{
        shop_customers { name orders { items { product { category { parent { name } } tags { name } } } } orders_aggregation { _rows_count } }
        shop_order_items_bucket_aggregation { key { product { category { name } } } aggregations { total { sum } } }
        shop_products_by_sku(sku: "BK-001") { order_items { order { customer { name } } } }
      }`);
      expect(r.body.errors).toBeUndefined();
      expect(d.statements, d.name).toHaveLength(3);
    }
  });
});
