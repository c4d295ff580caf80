// hugr's schema-definition pages on data objects (issue 32): overview, queries, mutations, aggregations,
// joins and function calls (docs/4-engine-configuration/3-schema-definition/3-data-objects/), on the shop
// fixture (test/compat/shop) and, for the overview's naming example, a source connected as a module.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { COMPAT, data, writeSource } from './support.js';

const PAGES = 'docs/4-engine-configuration/3-schema-definition/3-data-objects';
let t: TestApp;
beforeAll(async () => {
  // The shop source has no prefix (as the pages name objects), so it stands in for northwind, whose names it shares.
  const dir = join(tempDir(), 'catalogs');
  mkdirSync(dir, { recursive: true });
  {
    writeSource(dir, 'shop', { 'source.yaml': 'type: duckdb\npath: shop.duckdb\ncreate: true\nseed: seed.sql\n' });
    copyFileSync(join(COMPAT, 'shop', 'schema.graphql'), join(dir, 'shop', 'schema.graphql'));
    copyFileSync(join(COMPAT, 'shop', 'seed.sql'), join(dir, 'shop', 'seed.sql'));
    writeSource(dir, 'sales', {
      'source.yaml': 'type: duckdb\npath: sales.duckdb\ncreate: true\nseed: seed.sql\nprefix: se\nas_module: true\n',
      'seed.sql': "CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, email VARCHAR NOT NULL, created_at TIMESTAMPTZ);\nINSERT INTO customers VALUES (1, 'Ada', 'ada@example.com', '2024-01-01T00:00:00Z');\n",
      'schema.graphql': 'type customers @table(name: "customers") @module(name: "crm") {\n  id: Int! @pk\n  name: String!\n  email: String!\n  created_at: Timestamp\n}\n',
    });
  }
  t = await startApp({ CATALOGS_DIR: dir });
}, 60_000);
afterAll(() => t?.close());

describe(`${PAGES}/1-overview.md`, () => {
  it('a source connected as module `sales`, a table in module `crm`: queries and mutations under sales { crm { ... } }', async () => {
    const q = await data(t, `{ sales { crm {
      customers { id name email created_at }
      customers_by_pk(id: 1) { name }
      customers_aggregation { _rows_count }
      customers_bucket_aggregation { key { name } aggregations { _rows_count } }
    } } }`);
    expect(q.sales.crm).toEqual({
      customers: [{ id: 1, name: 'Ada', email: 'ada@example.com', created_at: '2024-01-01T00:00:00Z' }],
      customers_by_pk: { name: 'Ada' },
      customers_aggregation: { _rows_count: 1 },
      customers_bucket_aggregation: [{ key: { name: 'Ada' }, aggregations: { _rows_count: 1 } }],
    });
    const m = await data(t, `mutation { sales { crm {
      insert_customers(data: {id: 2, name: "Bo", email: "bo@example.com"}) { id name }
      update_customers(filter: {id: {eq: 2}}, data: {name: "Bob"}) { affected_rows }
      delete_customers(filter: {id: {eq: 2}}) { affected_rows }
    } } }`);
    expect(m.sales.crm).toEqual({ insert_customers: { id: 2, name: 'Bo' }, update_customers: { affected_rows: 1 }, delete_customers: { affected_rows: 1 } });
  });

  it('the source prefix names the types (se_customers); views have no mutations', async () => {
    const d = await data(t, `{ table: __type(name: "se_customers") { name } mutation: __schema { mutationType { name } }
      view: __type(name: "Mutation") { fields { name } } }`);
    expect(d.table).toEqual({ name: 'se_customers' });
    const mutations = JSON.stringify(d.view);
    expect(mutations).not.toContain('insert_top_customers');
    expect(mutations).toContain('insert_orders');
  });
});

describe(`${PAGES}/4-queries.md`, () => {
  it('select with filter, order_by, limit, offset and distinct_on; by primary key; by unique key', async () => {
    const d = await data(t, `{
      page: customers(filter: {country: {eq: "USA"}}, order_by: [{field: "name", direction: ASC}], limit: 10, offset: 1) { id name city country }
      one_per_city: customers(filter: {country: {eq: "USA"}}, distinct_on: ["city"], order_by: [{field: "city"}]) { city country }
      customers_by_pk(id: 2) { id name email }
      order_details_by_pk(id: 2) { quantity unit_price }
      customers_by_email(email: "cleo@example.com") { id name created_at }
    }`);
    expect(d.page).toEqual([{ id: 2, name: 'Ben', city: 'Austin', country: 'USA' }, { id: 3, name: 'Cleo', city: 'Boston', country: 'USA' }]);
    expect(d.one_per_city).toEqual([{ city: 'Austin', country: 'USA' }, { city: 'Boston', country: 'USA' }]);
    expect(d.customers_by_pk).toEqual({ id: 2, name: 'Ben', email: 'ben@example.com' });
    expect(d.order_details_by_pk).toEqual({ quantity: 2, unit_price: 60 });
    expect(d.customers_by_email).toEqual({ id: 3, name: 'Cleo', created_at: '2024-01-10T00:00:00Z' });
  });

  it('filter input: scalar operators by type, _and/_or/_not, relation filters with any_of/all_of/none_of', async () => {
    const d = await data(t, `{
      orders(filter: {
        _and: [{status: {eq: "completed"}}, {total: {gte: 100}}]
        _or: [{priority: {eq: "high"}}, {customer: {vip: {eq: true}}}]
        _not: {order_date: {is_null: true}}
      }, order_by: [{field: "id"}]) { id status total }
      any: customers(filter: {orders: {any_of: {status: {eq: "pending"}, total: {gt: 50}}}}) { id name orders(order_by: [{field: "id"}]) { id status total } }
      all: customers(filter: {orders: {all_of: {status: {eq: "completed"}}}, id: {in: [1, 2, 4]}}) { id }
      none: customers(filter: {orders: {none_of: {status: {eq: "completed"}}}}, order_by: [{field: "id"}]) { id }
      strings: customers(filter: {name: {ilike: "%E%"}, email: {regex: "^b"}, _not: {city: {eq: "Boston"}}}) { id }
      numbers: orders(filter: {total: {ne: 120, lte: 150, in: [80, 120, 150]}}, order_by: [{field: "id"}]) { id }
      booleans: customers(filter: {vip: {eq: true}, created_at: {lt: "2024-01-01T00:00:00Z"}}) { id }
    }`);
    expect(d.orders).toEqual([{ id: 1, status: 'completed', total: 120 }, { id: 4, status: 'completed', total: 1500 }]);
    expect(d.any).toEqual([{ id: 2, name: 'Ben', orders: [{ id: 3, status: 'pending', total: 80 }] }]);
    expect(d.all).toEqual([{ id: 1 }]);
    expect(d.none).toEqual([{ id: 2 }, { id: 3 }]);
    expect(d.strings).toEqual([{ id: 2 }]);
    expect(d.numbers).toEqual([{ id: 2 }, { id: 3 }]);
    expect(d.booleans).toEqual([{ id: 2 }]);
    const types = await data(t, '{ __type(name: "customers_filter") { inputFields { name type { name } } } }');
    const fields = Object.fromEntries(types.__type.inputFields.map((f: any) => [f.name, f.type.name]));
    expect(fields).toMatchObject({ _and: null, _or: null, _not: 'customers_filter', orders: 'orders_list_filter' });
  });

  it('sorting by a related field, pagination with variables, distinct values, a parameterized view with args', async () => {
    const d = await data(t, `query Page($limit: Int!, $offset: Int!) {
      products(order_by: [{field: "category.name", direction: ASC}, {field: "price", direction: DESC}]) { id name price category { name } }
      customers(limit: $limit, offset: $offset, order_by: [{field: "id"}]) { id name }
      places: customers(distinct_on: ["country", "city"], order_by: [{field: "country"}, {field: "city"}]) { country city }
      top_customers(args: {from: "2024-01-01T00:00:00Z", to: "2024-12-31T00:00:00Z"}, filter: {total_spent: {gte: 200}}, limit: 5, order_by: [{field: "customer_id"}]) { customer_id total_spent }
    }`, { limit: 2, offset: 1 });
    expect(d.products.map((p: any) => p.id)).toEqual([3, 1, 4, 2]);
    expect(d.products[0]).toEqual({ id: 3, name: 'Bridge', price: 60, category: { name: 'Books' } });
    expect(d.customers).toEqual([{ id: 2, name: 'Ben' }, { id: 3, name: 'Cleo' }]);
    expect(d.places).toEqual([{ country: 'Italy', city: 'Rome' }, { country: 'USA', city: 'Austin' }, { country: 'USA', city: 'Boston' }]);
    expect(d.top_customers).toEqual([{ customer_id: 1, total_spent: 270 }, { customer_id: 4, total_spent: 1500 }]);
  });
});

describe(`${PAGES}/5-mutations.md`, () => {
  it('insert one row (defaults fill status and created_at) and a batch; a table without a key answers an OperationResult', async () => {
    const one = await data(t, 'mutation { insert_customers(data: {name: "John Doe", email: "john@example.com", status: "active"}) { id name email status created_at } }');
    expect(one.insert_customers).toMatchObject({ id: 10, name: 'John Doe', email: 'john@example.com', status: 'active' });
    expect(Date.parse(one.insert_customers.created_at)).toBeGreaterThan(Date.parse('2025-01-01'));
    // Several rows: insert_T_batch (README "Compatibility with hugr": insert_T takes one row).
    const batch = await data(t, 'mutation { insert_products_batch(data: [{name: "Product A", price: 99.99}, {name: "Product B", price: 149.99}]) { affected_rows success } }');
    expect(batch.insert_products_batch).toEqual({ affected_rows: 2, success: true });
    const rows = await data(t, '{ products(filter: {id: {gte: 10}}, order_by: [{field: "id"}]) { id name price } }');
    expect(rows.products).toEqual([{ id: 10, name: 'Product A', price: 99.99 }, { id: 11, name: 'Product B', price: 149.99 }]);
    const keyless = await data(t, 'mutation { insert_old_logs(data: {message: "d"}) { affected_rows success } }');
    expect(keyless.insert_old_logs).toEqual({ affected_rows: 1, success: true });
  });

  it('insert with related rows (one-to-many, nested two levels) in one transaction; sequences fill keys', async () => {
    const d = await data(t, `mutation { insert_customers(data: {
      name: "Jane Smith", email: "jane@example.com"
      addresses: [{street: "123 Main St", city: "New York", type: "billing"}, {street: "456 Oak Ave", city: "Boston", type: "shipping"}]
      orders: [{order_date: "2024-01-15T00:00:00Z", status: "pending", order_details: [{product_id: 1, quantity: 2, unit_price: 50.00}]}]
    }) { id name status addresses(order_by: [{field: "id"}]) { id type city } orders { id order_number status order_details { product_id quantity } } } }`);
    expect(d.insert_customers).toEqual({
      id: 11, name: 'Jane Smith', status: 'pending',
      addresses: [{ id: 10, type: 'billing', city: 'New York' }, { id: 11, type: 'shipping', city: 'Boston' }],
      orders: [{ id: 100, order_number: 5000, status: 'pending', order_details: [{ product_id: 1, quantity: 2 }] }],
    });
  });

  it('update and delete by filter (relation filters too); soft delete marks the row, @with_deleted shows it', async () => {
    const d = await data(t, `mutation {
      update_customers(filter: {id: {eq: 10}}, data: {email: "newemail@example.com", updated_at: "2024-01-15T10:00:00Z"}) { affected_rows success message }
      update_products(filter: {category_id: {eq: 2}, status: {eq: "active"}}, data: {discount: 0.15}) { affected_rows success }
      update_orders(filter: {_and: [{status: {eq: "pending"}}, {created_at: {lt: "2024-01-01T00:00:00Z"}}, {customer: {status: {eq: "active"}}}]}, data: {status: "cancelled"}) { affected_rows }
      delete_old_logs(filter: {created_at: {lt: "2023-01-01T00:00:00Z"}}) { affected_rows }
      delete_customers(filter: {id: {eq: 10}}) { affected_rows success }
    }`);
    expect(d).toEqual({
      update_customers: { affected_rows: 1, success: true, message: 'updated' },
      update_products: { affected_rows: 1, success: true },
      update_orders: { affected_rows: 1 },
      delete_old_logs: { affected_rows: 2 },
      delete_customers: { affected_rows: 1, success: true },
    });
    const after = await data(t, `{
      gone: customers(filter: {id: {eq: 10}}) { id }
      kept: customers(filter: {id: {eq: 10}}) @with_deleted { id email updated_at deleted_at }
      orders_by_pk(id: 5) { status }
      products(filter: {discount: {eq: 0.15}}) { id }
    }`);
    expect(after.gone).toEqual([]);
    expect(after.kept).toMatchObject([{ id: 10, email: 'newemail@example.com', updated_at: '2024-01-15T10:00:00Z' }]);
    expect(after.kept[0].deleted_at).not.toBeNull();
    expect(after.orders_by_pk).toEqual({ status: 'cancelled' });
    expect(after.products).toEqual([{ id: 2 }]);
  });

  it('all mutations of one request run in one transaction: a failing one leaves nothing written', async () => {
    const r = await t.gql(`mutation {
      update_inventory: update_products(filter: {id: {eq: 3}}, data: {stock_quantity: 45}) { affected_rows }
      create_order: insert_orders(data: {customer_id: 2, status: "pending", total: 10}) { id }
      bad: insert_customers(data: {name: "Dup", email: "ada@example.com"}) { id }
    }`);
    expect(r.body.errors?.length, r.text).toBeGreaterThan(0);
    const d = await data(t, '{ products_by_pk(id: 3) { stock_quantity } orders_aggregation(filter: {total: {eq: 10}}) { _rows_count } }');
    expect(d).toEqual({ products_by_pk: { stock_quantity: 2 }, orders_aggregation: { _rows_count: 0 } });
  });

  it('generated input types: insert data carries relations, update data only direct fields', async () => {
    const d = await data(t, `{ ins: __type(name: "customers_mut_input_data") { inputFields { name } }
      upd: __type(name: "customers_mut_data") { inputFields { name } } }`);
    const ins = d.ins.inputFields.map((f: any) => f.name);
    const upd = d.upd.inputFields.map((f: any) => f.name);
    expect(ins).toEqual(expect.arrayContaining(['name', 'email', 'status', 'addresses', 'orders']));
    expect(upd).toEqual(expect.arrayContaining(['name', 'email', 'status', 'updated_at']));
    expect(upd).not.toContain('orders');
  });
});

// The mutations above added rows; the aggregations below read the seed's rows by their keys.
describe(`${PAGES}/6-aggregations.md`, () => {
  it('single-row aggregation, filtered aggregation, nested aggregation through relations', async () => {
    const d = await data(t, `{
      customers_aggregation(filter: {id: {lte: 4}}) { _rows_count age { avg min max } created_at { min max } }
      orders_aggregation(filter: {status: {eq: "completed"}, order_date: {gte: "2024-01-01T00:00:00Z"}}) { _rows_count total { sum avg } }
      nested: customers_aggregation(filter: {id: {lte: 4}}) { _rows_count orders { _rows_count total { sum avg } order_details { quantity { sum } } } }
    }`);
    expect(d.customers_aggregation).toEqual({ _rows_count: 4, age: { avg: 40, min: 28, max: 52 }, created_at: { min: '2023-05-01T00:00:00Z', max: '2024-02-01T00:00:00Z' } });
    expect(d.orders_aggregation).toEqual({ _rows_count: 3, total: { sum: 1770, avg: 590 } });
    expect(d.nested).toEqual({ _rows_count: 4, orders: { _rows_count: 5, total: { sum: 1890, avg: 378 }, order_details: { quantity: { sum: 34 } } } });
  });

  it('bucket aggregation by fields and related fields, sorted by an aggregate, limited', async () => {
    const d = await data(t, `{
      orders_bucket_aggregation(filter: {id: {lte: 5}}, order_by: [{field: "aggregations.total.sum", direction: DESC}]) {
        key { status customer { country } } aggregations { _rows_count total { sum avg } }
      }
      products_bucket_aggregation(filter: {id: {lte: 4}}, order_by: [{field: "aggregations.price.sum", direction: DESC}]) {
        key { category { name } } aggregations { _rows_count price { sum } }
      }
      top: orders_bucket_aggregation(filter: {id: {lte: 5}}, limit: 2, order_by: [{field: "aggregations.total.sum", direction: DESC}]) {
        key { customer_id } aggregations { total { sum } }
      }
    }`);
    expect(d.orders_bucket_aggregation).toEqual([
      { key: { status: 'completed', customer: { country: 'Italy' } }, aggregations: { _rows_count: 1, total: { sum: 1500, avg: 1500 } } },
      { key: { status: 'completed', customer: { country: 'USA' } }, aggregations: { _rows_count: 2, total: { sum: 270, avg: 135 } } },
      { key: { status: 'pending', customer: { country: 'USA' } }, aggregations: { _rows_count: 1, total: { sum: 80, avg: 80 } } },
      { key: { status: 'cancelled', customer: { country: 'Italy' } }, aggregations: { _rows_count: 1, total: { sum: 40, avg: 40 } } },
    ]);
    expect(d.products_bucket_aggregation).toEqual([
      { key: { category: { name: 'Books' } }, aggregations: { _rows_count: 2, price: { sum: 100 } } },
      { key: { category: { name: 'Games' } }, aggregations: { _rows_count: 2, price: { sum: 55 } } },
    ]);
    expect(d.top).toEqual([{ key: { customer_id: 4 }, aggregations: { total: { sum: 1540 } } }, { key: { customer_id: 1 }, aggregations: { total: { sum: 270 } } }]);
  });

  it('time buckets (bucket, bucket_interval, date parts as keys)', async () => {
    const d = await data(t, `{
      orders_bucket_aggregation(filter: {id: {lte: 5}}) {
        key { order_date(bucket: month) year: _order_date_part(extract: year) month: _order_date_part(extract: month) }
        aggregations { _rows_count total { sum } }
      }
      quarter: orders_bucket_aggregation(filter: {status: {eq: "completed"}}) { key { created_at(bucket_interval: "15 minutes") } aggregations { _rows_count } }
    }`);
    const byMonth = [...d.orders_bucket_aggregation].sort((a: any, b: any) => a.key.order_date.localeCompare(b.key.order_date));
    expect(byMonth).toEqual([
      { key: { order_date: '2023-12-01T00:00:00Z', year: 2023, month: 12 }, aggregations: { _rows_count: 1, total: { sum: 40 } } },
      { key: { order_date: '2024-01-01T00:00:00Z', year: 2024, month: 1 }, aggregations: { _rows_count: 2, total: { sum: 270 } } },
      { key: { order_date: '2024-02-01T00:00:00Z', year: 2024, month: 2 }, aggregations: { _rows_count: 2, total: { sum: 1580 } } },
    ]);
    expect(d.quarter.map((b: any) => b.key.created_at).sort()).toEqual(['2024-01-05T10:00:00Z', '2024-01-09T10:00:00Z', '2024-02-20T10:00:00Z']);
  });

  it('several aggregations per bucket with their own filters; sub-aggregations of related aggregates', async () => {
    const d = await data(t, `{
      products_bucket_aggregation(filter: {id: {lte: 4}}, order_by: [{field: "key.category.name"}]) {
        key { category { name } }
        aggregations { _rows_count }
        in_stock: aggregations(filter: {stock_quantity: {gt: 0}}) { _rows_count stock_quantity { sum } }
        on_sale: aggregations(filter: {discount: {gt: 0}}) { _rows_count discount { avg } }
      }
      customers_bucket_aggregation(filter: {id: {lte: 4}}, order_by: [{field: "key.country"}]) {
        key { country }
        aggregations { orders { _rows_count } orders_aggregation { total { sum { sum avg min max } } } }
      }
    }`);
    expect(d.products_bucket_aggregation).toEqual([
      { key: { category: { name: 'Books' } }, aggregations: { _rows_count: 2 }, in_stock: { _rows_count: 2, stock_quantity: { sum: 7 } }, on_sale: { _rows_count: 1, discount: { avg: 0.2 } } },
      { key: { category: { name: 'Games' } }, aggregations: { _rows_count: 2 }, in_stock: { _rows_count: 0, stock_quantity: { sum: null } }, on_sale: { _rows_count: 1, discount: { avg: 0.15 } } },
    ]);
    expect(d.customers_bucket_aggregation).toEqual([
      { key: { country: 'Italy' }, aggregations: { orders: { _rows_count: 2 }, orders_aggregation: { total: { sum: { sum: 1540, avg: 1540, min: 1540, max: 1540 } } } } },
      { key: { country: 'USA' }, aggregations: { orders: { _rows_count: 3 }, orders_aggregation: { total: { sum: { sum: 350, avg: 175, min: 80, max: 270 } } } } },
    ]);
  });

  it('JSON fields aggregate by path; geometries aggregate to a union and an extent', async () => {
    const d = await data(t, `{
      events_aggregation { metadata { count(path: "$.user_id") sum(path: "$.score") avg(path: "$.duration") list(path: "$.tag", distinct: true) } }
      locations_aggregation { _rows_count area { union extent } }
    }`);
    expect(d.events_aggregation.metadata).toMatchObject({ count: 2, sum: 16, avg: 4 });
    expect([...d.events_aggregation.metadata.list].sort()).toEqual(['a', 'b']);
    expect(d.locations_aggregation._rows_count).toBe(2);
    expect(d.locations_aggregation.area.union.type).toBe('Polygon');
    expect(d.locations_aggregation.area.extent).toMatchObject({ type: 'Polygon' });
    const xs = d.locations_aggregation.area.extent.coordinates[0].map((p: number[]) => p[0]);
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([0, 2]);
  });
});

describe(`${PAGES}/8-joins.md`, () => {
  it('@join with source/references fields and an SQL condition (similar orders)', async () => {
    const d = await data(t, '{ orders(filter: {id: {lte: 5}}, order_by: [{field: "id"}]) { id similar_orders { id total } } }');
    expect(d.orders.map((o: any) => [o.id, (o.similar_orders ?? []).map((s: any) => s.id)])).toEqual([[1, [2]], [2, [1]], [3, []], [4, []], [5, []]]);
  });

  it('query-time _join to rows and to an aggregation; @no_pushdown on a relation', async () => {
    const d = await data(t, `{
      customers(filter: {id: {in: [1, 3]}}, order_by: [{field: "id"}]) {
        id name
        _join(fields: ["id"]) { orders(fields: ["customer_id"], order_by: [{field: "id"}]) { id total } }
        orders @no_pushdown { id }
      }
      products(filter: {id: {lte: 2}}, order_by: [{field: "id"}]) {
        id name
        _join(fields: ["id"]) { reviews_aggregation(fields: ["product_id"]) { _rows_count rating { avg } } }
      }
    }`);
    expect(d.customers[0]).toMatchObject({ id: 1, name: 'Ada', _join: { orders: [{ id: 1, total: 120 }, { id: 2, total: 150 }] } });
    expect(d.customers[0].orders.map((o: any) => o.id).sort()).toEqual([1, 2]);
    expect(d.customers[1]._join.orders ?? []).toEqual([]);
    expect(d.products).toEqual([
      { id: 1, name: 'Atlas', _join: { reviews_aggregation: { _rows_count: 2, rating: { avg: 4.5 } } } },
      { id: 2, name: 'Chess', _join: { reviews_aggregation: { _rows_count: 1, rating: { avg: 3 } } } },
    ]);
  });

  it('_spatial joins by geometry (INTERSECTS, DWITHIN with a buffer)', async () => {
    const d = await data(t, `{ locations(order_by: [{field: "id"}]) {
      id
      _spatial(field: "area", type: INTERSECTS) { locations(field: "area", order_by: [{field: "id"}]) { id } }
      near: _spatial(field: "area", type: DWITHIN, buffer: 1000) { locations(field: "area") { id } }
    } }`);
    expect(d.locations.map((l: any) => [l.id, l._spatial.locations.map((x: any) => x.id)])).toEqual([[1, [1, 2]], [2, [1, 2]]]);
    expect(d.locations[0].near.locations).toHaveLength(2);
  });
});

describe(`${PAGES}/9-function-calls.md`, () => {
  it('@function_call: all arguments from fields; some from fields and the rest asked in the query', async () => {
    const d = await data(t, `{
      orders(filter: {id: {in: [1, 3, 4]}}, order_by: [{field: "id"}]) { id total discount }
      products(filter: {id: {lte: 2}}, order_by: [{field: "id"}]) { id price price_in_currency(currency: "EUR") }
    }`);
    expect(d.orders).toEqual([{ id: 1, total: 120, discount: 0.1 }, { id: 3, total: 80, discount: 0.05 }, { id: 4, total: 1500, discount: 0.15 }]);
    expect(d.products).toEqual([{ id: 1, price: 40, price_in_currency: 20 }, { id: 2, price: 25, price_in_currency: 12.5 }]);
  });

  it('a table function as a list field (argument default kept), called only for the rows the filter and limit keep', async () => {
    const d = await data(t, `{ products(filter: {status: {eq: "active"}}, limit: 2, order_by: [{field: "id"}]) { id recommendations { id name } } }`);
    expect(d.products).toEqual([{ id: 1, recommendations: [{ id: 3, name: 'Bridge' }] }, { id: 2, recommendations: [{ id: 4, name: 'Go' }] }]);
    // The function's sql ends in `LIMIT [limit]`, called per row (DuckDB takes no parameter there in a
    // correlated subquery: the count is written as a number); a variable's value is not kept in a cached plan.
    const q = 'query ($n: Int) { products(filter: {id: {in: [1, 2]}}, order_by: [{field: "id"}]) { id recommendations(limit: $n) { id } } }';
    const counts = async (n: number | null) => (await data(t, q, { n })).products.map((p: any) => (p.recommendations ?? []).length);
    expect([await counts(1), await counts(0), await counts(null), await counts(1)]).toEqual([[1, 1], [0, 0], [1, 1], [1, 1]]);
  });

  it('skip_null_arg leaves null arguments out of a positional call; a row call still runs with null', async () => {
    // The page's comment says the function is not called; svc drops a null argument from a call written
    // without sql from the function root and otherwise calls it (README "Compatibility with hugr").
    // Customer 11 (no city) is Jane Smith, inserted by the mutations page above.
    const d = await data(t, '{ customers(filter: {id: {in: [1, 11]}}, order_by: [{field: "id"}]) { id city city_label } }');
    expect(d.customers).toEqual([{ id: 1, city: 'Boston', city_label: 'BOSTON' }, { id: 11, city: null, city_label: 'NOWHERE' }]);
  });

  it('chained calls: an argument mapped to another function-call field (three levels, as the function-fields page chains them)', async () => {
    const d = await data(t, '{ orders(filter: {id: {in: [1, 4]}}, order_by: [{field: "id"}]) { id total base_discount final_discount discounted_total } }');
    expect(d.orders.map(({ discounted_total, ...o }: any) => o)).toEqual([
      { id: 1, total: 120, base_discount: 0.1, final_discount: 0.1 }, { id: 4, total: 1500, base_discount: 0.1, final_discount: 0.15 },
    ]);
    expect(d.orders[0].discounted_total).toBeCloseTo(108, 9);
    expect(d.orders[1].discounted_total).toBeCloseTo(1275, 9);
    // Selected alone, the last field still computes its chain.
    const last = await data(t, '{ orders_by_pk(id: 4) { discounted_total } }');
    expect(last.orders_by_pk.discounted_total).toBeCloseTo(1275, 9);
  });

  it('a parameterized view over a set-returning function', async () => {
    const d = await data(t, '{ product_recommendations_view(args: {category_id: 2}, order_by: [{field: "product_id"}]) { product_id recommended_product_id score } }');
    expect(d.product_recommendations_view).toEqual([
      { product_id: 2, recommended_product_id: 4, score: 1 / 6 },
      { product_id: 4, recommended_product_id: 2, score: 1 / 6 },
    ]);
  });
});
