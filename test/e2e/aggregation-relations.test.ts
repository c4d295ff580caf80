// List relations aggregated by their own name (SPEC §4.2): every level stays tied to the rows being
// aggregated, at the root and inside buckets, on DuckDB and PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

it('aggregates the related rows of the filtered rows only, two levels down', async () => {
  for (const d of dialects.all) {
    const r = await d.app.gql(`{
      agg: shop_customers_aggregation(filter: { country: { eq: "GB" } }) { orders { _rows_count items { quantity { sum } } } }
      rows: shop_customers(filter: { country: { eq: "GB" } }) { orders { items { quantity } } }
    }`);
    expect(r.body.errors, d.name).toBeUndefined();
    const orders = r.body.data.rows.flatMap((c: any) => c.orders ?? []);
    const quantities = orders.flatMap((o: any) => (o.items ?? []).map((i: any) => i.quantity));
    expect(r.body.data.agg.orders._rows_count, d.name).toBe(orders.length);
    expect(r.body.data.agg.orders.items.quantity.sum, d.name).toBe(sum(quantities));
  }
});

it('inside buckets, aggregates the related rows of each bucket', async () => {
  for (const d of dialects.all) {
    const r = await d.app.gql(`{
      b: shop_customers_bucket_aggregation { key { country } aggregations { orders { _rows_count items { quantity { sum } } } } }
      rows: shop_customers { country orders { items { quantity } } }
    }`);
    expect(r.body.errors, d.name).toBeUndefined();
    for (const bucket of r.body.data.b) {
      const orders = r.body.data.rows.filter((c: any) => c.country === bucket.key.country).flatMap((c: any) => c.orders ?? []);
      const quantities = orders.flatMap((o: any) => (o.items ?? []).map((i: any) => i.quantity));
      expect(bucket.aggregations.orders._rows_count, `${d.name} ${bucket.key.country}`).toBe(orders.length);
      expect(bucket.aggregations.orders.items.quantity.sum, `${d.name} ${bucket.key.country}`).toBe(quantities.length ? sum(quantities) : null);
    }
  }
});

it('with a relation filter on the aggregations, both dialects give the same buckets', async () => {
  const q = `{ shop_customers_bucket_aggregation(order_by: [{ field: "key.country" }]) { key { country }
    shipped: aggregations(filter: { orders: { any_of: { status: { eq: "shipped" } } } }) { _rows_count orders { status { list(distinct: true) } } } } }`;
  const answers = [];
  for (const d of dialects.all) {
    const r = await d.app.gql(q);
    expect(r.body.errors, d.name).toBeUndefined();
    const gb = r.body.data.shop_customers_bucket_aggregation.find((b: any) => b.key.country === 'GB');
    expect(gb.shipped._rows_count, d.name).toBe(2);
    // Every order of a customer with a shipped order counts, shipped or not.
    expect(gb.shipped.orders.status.list, d.name).toEqual(['pending', 'shipped']);
    answers.push(r.body.data);
  }
  expect(answers[0]).toEqual(answers[1]);
});

it('inside buckets filtered through a relation, aggregates the related rows of the rows that pass', async () => {
  for (const d of dialects.all) {
    const r = await d.app.gql(`{
      b: shop_customers_bucket_aggregation(order_by: [{ field: "key.country" }]) {
        key { country }
        shipped: aggregations(filter: { orders: { any_of: { status: { eq: "shipped" } } } }) { _rows_count orders { _rows_count items { quantity { sum } } } }
      }
      rows: shop_customers(filter: { orders: { any_of: { status: { eq: "shipped" } } } }) { country orders { items { quantity } } }
    }`);
    expect(r.body.errors, d.name).toBeUndefined();
    for (const bucket of r.body.data.b) {
      const customers = r.body.data.rows.filter((c: any) => c.country === bucket.key.country);
      const orders = customers.flatMap((c: any) => c.orders ?? []);
      const quantities = orders.flatMap((o: any) => (o.items ?? []).map((i: any) => i.quantity));
      expect(bucket.shipped._rows_count, `${d.name} ${bucket.key.country}`).toBe(customers.length);
      expect(bucket.shipped.orders._rows_count, `${d.name} ${bucket.key.country}`).toBe(orders.length);
      expect(bucket.shipped.orders.items.quantity.sum, `${d.name} ${bucket.key.country}`).toBe(quantities.length ? sum(quantities) : null);
    }
    // GB customers with a shipped order: Ada (orders 1, 2) and Alan (order 3); all their orders count.
    expect(r.body.data.b.find((b: any) => b.key.country === 'GB').shipped.orders._rows_count, d.name).toBe(3);
  }
});
