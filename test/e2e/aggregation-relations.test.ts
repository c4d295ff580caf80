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

it('with a relation filter on the aggregations: answers on PostgreSQL, refuses clearly on DuckDB', async () => {
  const q = `{ shop_customers_bucket_aggregation(order_by: [{ field: "key.country" }]) { key { country }
    shipped: aggregations(filter: { orders: { any_of: { status: { eq: "shipped" } } } }) { _rows_count orders { status { list(distinct: true) } } } } }`;
  for (const d of dialects.all) {
    const r = await d.app.gql(q);
    if (d.name === 'duckdb') {
      expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(r.body.errors[0].message).toMatch(/use "<relation>_aggregation"/);
      continue;
    }
    expect(r.body.errors, d.name).toBeUndefined();
    const gb = r.body.data.shop_customers_bucket_aggregation.find((b: any) => b.key.country === 'GB');
    expect(gb.shipped._rows_count).toBeGreaterThan(0);
    // Every order of a customer with a shipped order counts, shipped or not.
    expect(gb.shipped.orders.status.list).toContain('shipped');
  }
});
