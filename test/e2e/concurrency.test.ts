// Concurrent writes (issue: mutations): parallel requests updating the same rows and inserting
// new ones all succeed, nothing is lost, and counts add up, on DuckDB and PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

it('parallel mutation requests on the same rows all commit, one after another', async () => {
  for (const d of dialects.all) {
    const n = 25;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => d.app.gql(`mutation {
      update_shop_products(filter: {id: {eq: 1}}, data: {price: ${100 + i}}) { affected_rows }
      insert_shop_tags(data: {id: ${500 + i}, name: "parallel ${i}"}) { id }
    }`)));
    for (const r of results) expect(r.body.errors, `${d.name}: ${r.text}`).toBeUndefined();
    const check = await d.app.gql('{ shop_tags_aggregation(filter: {id: {gte: 500}}) { _rows_count } shop_products_by_pk(id: 1) { price } }');
    expect(check.body.data.shop_tags_aggregation._rows_count, d.name).toBe(n);
    // The last committed update wins; it is one of the values written.
    expect(check.body.data.shop_products_by_pk.price).toBeGreaterThanOrEqual(100);
    expect(check.body.data.shop_products_by_pk.price).toBeLessThan(100 + n);
    // Reads keep answering while writers queue.
    const read = await d.app.gql('{ shop_customers_aggregation { _rows_count } }');
    expect(read.body.data.shop_customers_aggregation._rows_count).toBe(4);
  }
});

it('a failing request in the middle of parallel writers rolls back alone', async () => {
  for (const d of dialects.all) {
    expect((await d.app.gql('mutation { insert_shop_tags(data: {id: 700, name: "taken"}) { id } }')).body.errors).toBeUndefined();
    const ok = Array.from({ length: 5 }, (_, i) => d.app.gql(`mutation { insert_shop_tags(data: {id: ${710 + i}, name: "ok"}) { id } }`));
    const bad = d.app.gql('mutation { a: insert_shop_tags(data: {id: 800, name: "first"}) { id } b: insert_shop_tags(data: {id: 700, name: "clash"}) { id } }');
    const [badResult, ...okResults] = await Promise.all([bad, ...ok]);
    for (const r of okResults) expect(r.body.errors).toBeUndefined();
    expect(badResult.body.data).toBeNull();
    const check = await d.app.gql('{ shop_tags(filter: {id: {gte: 700}}, order_by: [{field: "id"}]) { id name } }');
    expect(check.body.data.shop_tags.map((x: { id: number }) => x.id), d.name).toEqual([700, 710, 711, 712, 713, 714]);
  }
});
