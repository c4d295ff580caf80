// Mutations (SPEC §4.3) on DuckDB and PostgreSQL: nested inserts through N:1 and 1:N inputs,
// batches, precise errors for constraint violations with nothing written, and requests that write to
// two sources (each its own transaction, committed after all statements succeeded).
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

describe('the fields after a failed write (issue 31)', () => {
  it('say they were not run because the transaction was rolled back, never INTERNAL_SERVER_ERROR', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql(`mutation {
        a: insert_shop_tags(data: {id: 90, name: "first"}) { id }
        b: insert_shop_products(data: {id: 90, sku: "BK-001", name: "dup", price: 1}) { id }
        c: insert_shop_tags(data: {id: 91, name: "after"}) { id }
        d: update_shop_tags(filter: {id: {eq: 90}}, data: {name: "later"}) { affected_rows }
      }`);
      expect(r.body.data, `${d.name}: ${r.text}`).toBeNull();
      const byPath = Object.fromEntries((r.body.errors as { path: string[]; message: string; extensions: { code: string } }[]).map((e) => [e.path.join('.'), e]));
      expect(byPath.b?.message, d.name).toMatch(/unique|duplicate/i);
      for (const later of ['c', 'd']) {
        expect(byPath[later], `${d.name} ${later}: ${r.text}`).toMatchObject({ message: 'not run: the transaction was rolled back because "b" failed', extensions: { code: 'QUERY_FAILED' } });
      }
      expect((await count(d, '{ shop_tags(filter: {id: {in: [90, 91]}}) { id } }')).shop_tags).toEqual([]);
    }
  });
});

describe('one request, several sources (issue 18 item 7)', () => {
  const roles = '{ core { roles(filter: {name: {like: "r8%"}}, order_by: [{field: "name"}]) { name } } }';

  it('writes to the core module and a data source, each committed, in one request', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql(`mutation {
        insert_shop_tags(data: {id: 80, name: "x"}) { id }
        core { insert_roles(data: {name: "r80", description: "x"}) { name } }
        update_shop_tags(filter: {id: {eq: 80}}, data: {name: "y"}) { affected_rows }
      }`);
      expect(r.body, `${d.name}: ${r.text}`).toEqual({ data: { insert_shop_tags: { id: 80 }, core: { insert_roles: { name: 'r80' } }, update_shop_tags: { affected_rows: 1 } }, extensions: {} });
      expect((await count(d, '{ shop_tags_by_pk(id: 80) { name } }')).shop_tags_by_pk).toEqual({ name: 'y' });
      expect((await count(d, roles)).core.roles).toEqual([{ name: 'r80' }]);
      await d.app.gql('mutation { delete_shop_tags(filter: {id: {eq: 80}}) { affected_rows } core { delete_roles(filter: {name: {eq: "r80"}}) { affected_rows } } }');
    }
  });

  it('a failing statement in either source rolls back both: nothing is written anywhere', async () => {
    for (const d of dialects.all) {
      await d.app.gql('mutation { core { insert_roles(data: {name: "r81", description: "exists"}) { name } } }');
      // The shop write succeeds, then the core write fails (duplicate role): both roll back.
      const late = await d.app.gql('mutation { insert_shop_tags(data: {id: 81, name: "x"}) { id } core { insert_roles(data: {name: "r81", description: "dup"}) { name } } }');
      expect(late.body.data, d.name).toBeNull();
      expect(late.body.errors[0].message, d.name).toMatch(/duplicate|unique|primary key/i);
      // The core write succeeds, then the shop write fails (unknown customer): both roll back.
      const early = await d.app.gql('mutation { core { insert_roles(data: {name: "r82", description: "x"}) { name } } insert_shop_orders(data: {id: 82, customer_id: 999, status: "x", ordered_at: "2025-01-01T00:00:00Z"}) { id } }');
      expect(early.body.data, d.name).toBeNull();
      expect(early.body.errors[0].message, d.name).toMatch(/foreign key/i);
      expect((await count(d, '{ shop_tags_by_pk(id: 81) { id } }')).shop_tags_by_pk).toBeNull();
      expect((await count(d, roles)).core.roles).toEqual([{ name: 'r81' }]);
      await d.app.gql('mutation { core { delete_roles(filter: {name: {eq: "r81"}}) { affected_rows } } }');
    }
  });

  it('requests writing to two sources do not block each other', async () => {
    const d = dialects.all.find((x) => x.name === 'duckdb')!;
    const write = (n: number) => d.app.gql(`mutation { insert_shop_tags(data: {id: ${90 + n}, name: "c"}) { id } core { insert_roles(data: {name: "r9${n}", description: "x"}) { name } } }`);
    const results = await Promise.all([0, 1, 2, 3].map(write));
    for (const r of results) expect(r.body.errors, r.text).toBeUndefined();
    expect((await count(d, '{ shop_tags_aggregation(filter: {id: {gte: 90, lte: 93}}) { _rows_count } }')).shop_tags_aggregation._rows_count).toBe(4);
  });
});
