// Mutations (SPEC §4.3) on DuckDB and PostgreSQL: nested inserts through N:1 and 1:N inputs,
// batches, precise errors for constraint violations with nothing written, and the refusal of a
// request that writes to two sources.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

const count = async (d: Dialects['all'][number], q: string) => (await d.app.gql(q)).body.data;

describe('nested and batch inserts', () => {
  it('insert an order with a new customer (N:1) and its items (1:N) in one transaction', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql(`mutation { insert_shop_orders(data: {
        id: 50, status: "new", ordered_at: "2025-05-01T10:00:00Z",
        customer: {id: 50, name: "Barbara Liskov", country: "US"},
        items: [{line: 1, product_id: 1, quantity: 2, unit_price: 49.5}, {line: 2, product_id: 3, quantity: 1, unit_price: 120}]
      }) { id customer { name } items(nested_order_by: [{field: "line"}]) { line total } } }`);
      expect(r.body.errors, `${d.name}: ${r.text}`).toBeUndefined();
      expect(r.body.data.insert_shop_orders).toEqual({ id: 50, customer: { name: 'Barbara Liskov' }, items: [{ line: 1, total: 99 }, { line: 2, total: 120 }] });
    }
  });

  it('insert a batch and report the count', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('mutation { insert_shop_tags_batch(data: [{id: 60, name: "a"}, {id: 61, name: "b"}, {id: 62, name: "c"}]) { success affected_rows } }');
      expect(r.body.data.insert_shop_tags_batch).toEqual({ success: true, affected_rows: 3 });
      expect((await count(d, '{ shop_tags_aggregation(filter: {id: {gte: 60, lte: 62}}) { _rows_count } }')).shop_tags_aggregation._rows_count).toBe(3);
    }
  });
});

describe('constraint violations give a precise error and write nothing', () => {
  const cases: [string, string, RegExp][] = [
    ['a missing NOT NULL column', 'mutation { insert_shop_customers(data: {id: 70}) { id } }', /name|NOT NULL|not-null|required/i],
    ['a unique key violated', 'mutation { insert_shop_products(data: {id: 70, sku: "BK-001", name: "dup", price: 1}) { id } }', /unique|duplicate/i],
    ['a foreign key violated', 'mutation { insert_shop_orders(data: {id: 70, customer_id: 999, status: "x", ordered_at: "2025-01-01T00:00:00Z"}) { id } }', /foreign key/i],
    ['a check constraint violated', 'mutation { insert_shop_order_items(data: {order_id: 1, line: 9, product_id: 1, quantity: 0, unit_price: 1}) { order_id } }', /check/i],
    ['a wrong type', 'mutation { insert_shop_tags(data: {id: "seventy", name: "x"}) { id } }', /Int cannot represent/],
  ];
  for (const [what, q, pattern] of cases) {
    it(what, async () => {
      for (const d of dialects.all) {
        const before = await count(d, '{ c: shop_customers_aggregation { _rows_count } p: shop_products_aggregation { _rows_count } o: shop_orders_aggregation { _rows_count } i: shop_order_items_aggregation { _rows_count } }');
        const one = await d.app.gql(q.replace('mutation {', 'mutation { keep: insert_shop_tags(data: {id: 72, name: "rolled back"}) { id } '));
        expect(one.status).toBe(200);
        expect(one.body.data, `${d.name} ${what}: ${one.text}`).toBeNull();
        expect(one.body.errors[0].message, d.name).toMatch(pattern);
        expect(one.body.errors[0].extensions.code).not.toBe('INTERNAL_SERVER_ERROR');
        const after = await count(d, '{ c: shop_customers_aggregation { _rows_count } p: shop_products_aggregation { _rows_count } o: shop_orders_aggregation { _rows_count } i: shop_order_items_aggregation { _rows_count } }');
        expect(after).toEqual(before);
        expect((await count(d, '{ shop_tags_by_pk(id: 72) { id } }')).shop_tags_by_pk).toBeNull();
      }
    });
  }
});

describe('one source per request', () => {
  it('a request writing to two sources is refused up front, naming both, and writes nothing', async () => {
    const d = dialects.all.find((x) => x.name === 'duckdb')!;
    const r = await d.app.gql('mutation { insert_shop_tags(data: {id: 80, name: "x"}) { id } core { insert_roles(data: {name: "r80", description: "x"}) { name } } }');
    expect(r.body.data).toBeNull();
    expect(r.body.errors[0].message).toBe('a request may write to one data source only; this one writes to "shop" and "core"');
    expect((await count(d, '{ shop_tags_by_pk(id: 80) { id } }')).shop_tags_by_pk).toBeNull();
  });
});
