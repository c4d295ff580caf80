// hugr's pages on catalogs, queries, aggregations, functions and mutations (issue 32), on one DuckDB
// source whose catalog is written as those pages write catalogs (test/compat/northwind). Each
// describe block is one page; the requests are the page's requests on our data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { data, startNorthwind } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind();
}, 60_000);
afterAll(() => t?.close());

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('docs/4-engine-configuration/3-schema-definition (directives reference: tables, views, relations, functions)', () => {
  it('loads the catalog as hugr writes it (enum geometry types, named references, @references on several fields)', async () => {
    const d = await data(t, '{ function { core { data_source_status(name: "nw") } } }');
    expect(d.function.core.data_source_status).toBe('loaded');
  });

  it('filters and selects through @field_references both ways', async () => {
    const d = await data(t, `{
      orders(filter: {employee: {salary: {gte: 1000}}}, order_by: [{field: "id"}]) {
        id customer { id name } employee { id first_name } shipper { id name }
      }
      employees(filter: {salary: {gte: 1000}, orders: {any_of: {customer: {id: {eq: 1}}}}}) {
        id first_name orders(order_by: [{field: "id"}]) { id customer { id name } }
      }
    }`);
    expect(d.orders).toEqual([
      { id: 2, customer: { id: 1, name: 'Alfreds' }, employee: { id: 2, first_name: 'Andrew' }, shipper: { id: 2, name: 'United' } },
      { id: 3, customer: { id: 2, name: 'Bottom Dollar' }, employee: { id: 2, first_name: 'Andrew' }, shipper: { id: 1, name: 'Speedy' } },
    ]);
    expect(d.employees).toEqual([{ id: 2, first_name: 'Andrew', orders: [{ id: 2, customer: { id: 1, name: 'Alfreds' } }, { id: 3, customer: { id: 2, name: 'Bottom Dollar' } }] }]);
  });

  it('many-to-many through an is_m2m table, filtered and selected from both ends', async () => {
    const d = await data(t, `{
      products(filter: {categories: {any_of: {id: {eq: 1}}}}, order_by: [{field: "id"}]) { id name categories(order_by: [{field: "id"}]) { id name } }
      categories(filter: {products: {any_of: {id: {eq: 1}}}}, order_by: [{field: "id"}]) { id products(order_by: [{field: "id"}]) { id } }
    }`);
    expect(d.products).toEqual([
      { id: 1, name: 'Chai', categories: [{ id: 1, name: 'Beverages' }, { id: 2, name: 'Condiments' }] },
      { id: 2, name: 'Chang', categories: [{ id: 1, name: 'Beverages' }] },
    ]);
    expect(d.categories).toEqual([{ id: 1, products: [{ id: 1 }, { id: 2 }] }, { id: 2, products: [{ id: 1 }, { id: 3 }] }]);
  });

  it('@references over two fields, @sql computed fields, @pk and @unique queries', async () => {
    const d = await data(t, `{
      order_details(filter: {order_id: {eq: 1}}, order_by: [{field: "id"}]) { id total supplier_product_info { price } }
      orders_by_pk(id: 3) { id status }
      products_by_sku(sku: "IKURA") { id name }
    }`);
    expect(d.order_details).toEqual([{ id: 1, total: 180, supplier_product_info: { price: 15 } }, { id: 2, total: 45, supplier_product_info: { price: 8 } }]);
    expect(d.orders_by_pk).toEqual({ id: 3, status: 'completed' });
    expect(d.products_by_sku).toEqual({ id: 4, name: 'Ikura' });
  });

  it('a view with its own SQL and relations; a parameterized view with required arguments', async () => {
    const d = await data(t, `{
      shipped_products_view(order_by: [{field: "quantity", direction: DESC}], limit: 2) { quantity customer { name } product { name } }
      orders_in_window(args: {from: "2024-02-01T00:00:00Z", to: "2024-03-01T00:00:00Z"}, order_by: [{field: "id"}]) { id status }
    }`);
    expect(d.shipped_products_view).toEqual([
      { quantity: 10, customer: { name: 'Alfreds' }, product: { name: 'Chai' } },
      { quantity: 6, customer: { name: 'Bottom Dollar' }, product: { name: 'Ikura' } },
    ]);
    expect(d.orders_in_window).toEqual([{ id: 2, status: 'pending' }, { id: 3, status: 'completed' }]);
  });

  it('geometry fields declared with @geometry_info(type: POINT) answer GeoJSON', async () => {
    const d = await data(t, '{ stores_by_pk(id: 1) { location area } }');
    expect(d.stores_by_pk.location).toEqual({ type: 'Point', coordinates: [1, 1] });
    expect(d.stores_by_pk.area.type).toBe('Polygon');
  });
});

describe('docs/4-engine-configuration/3-schema-definition/2-function.md', () => {
  it('scalar, structured and table functions (a list of a structure type without sql is a table function)', async () => {
    const d = await data(t, '{ function { order_value(order_id: 1) numbers(start: 1, stop: 3) { generate_series } greet(name: "svc") { value } } }');
    expect(d.function).toEqual({ order_value: 230, numbers: [{ generate_series: 1 }, { generate_series: 2 }, { generate_series: 3 }], greet: { value: 'hello svc' } });
  });
});

describe('docs/5-graphql/1-queries/3-filtering.md', () => {
  const cases: [string, string, number[]][] = [
    ['scalar eq', 'customers(filter: {country: {eq: "Canada"}})', [2]],
    ['implicit AND', 'products(filter: {price: {gte: 10.0}, in_stock: {eq: true}})', [1, 3]],
    ['in', 'products(filter: {price: {in: [10.0, 31.0]}})', [3, 4]],
    ['like', 'products(filter: {name: {like: "Ch%"}})', [1, 2]],
    ['ilike', 'products(filter: {name: {ilike: "%syrup"}})', [3]],
    ['regex', 'products(filter: {name: {regex: "^[A-Z][a-z]+$"}})', [1, 2, 4]],
    ['boolean is_null', 'products(filter: {in_stock: {is_null: true}})', [4]],
    ['timestamps', 'orders(filter: {order_date: {gte: "2024-02-01T00:00:00Z", lt: "2024-03-01T00:00:00Z"}})', [2, 3]],
    ['_or', 'customers(filter: {_or: [{country: {eq: "Canada"}}, {country: {eq: "France"}}]})', [2, 4]],
    ['_not', 'products(filter: {_not: {name: {in: ["Chai", "Chang"]}}})', [3, 4]],
    ['_and of _or and _not through a relation', 'orders(filter: {_and: [{_or: [{status: {eq: "pending"}}, {status: {eq: "completed"}}]}, {_not: {customer: {country: {eq: "Germany"}}}}]})', [3]],
    ['N:1 relation', 'orders(filter: {customer: {country: {eq: "Germany"}}})', [1, 2]],
    ['deep relation', 'order_details(filter: {order: {customer: {country: {eq: "Canada"}}}})', [4, 5]],
    ['any_of', 'customers(filter: {orders: {any_of: {status: {eq: "pending"}}}})', [1]],
    // The page does not say what all_of means for a customer with no orders: svc needs at least one.
    ['all_of', 'customers(filter: {orders: {all_of: {status: {eq: "completed"}}}})', [2]],
    ['none_of', 'customers(filter: {orders: {none_of: {status: {eq: "cancelled"}}}})', [1, 2, 4]],
    ['nested list filters', 'customers(filter: {orders: {any_of: {order_details: {any_of: {product: {name: {eq: "Ikura"}}, quantity: {gte: 5}}}}}})', [2]],
    ['is_null', 'customers(filter: {phone: {is_null: true}})', [2, 4]],
    ['is_null and a relation', 'orders(filter: {shipped_date: {is_null: true}, customer: {country: {eq: "Germany"}}})', [2]],
  ];
  for (const [name, field, expected] of cases) {
    it(name, async () => {
      const root = field.slice(0, field.indexOf('('));
      const withOrder = field.replace(/\)$/, ', order_by: [{field: "id"}])');
      const d = await data(t, `{ ${withOrder} { id } }`);
      expect(ids(d[root])).toEqual(expected);
    });
  }

  it('filters reused through variables', async () => {
    const d = await data(t, 'query GetCustomers($f: customers_filter!) { customers(filter: $f, order_by: [{field: "id"}]) { id } }', { f: { _and: [{ country: { in: ['Canada', 'France'] } }] } });
    expect(ids(d.customers)).toEqual([2, 4]);
  });
});

describe('docs/5-graphql/1-queries/7-aggregations.md', () => {
  it('single-row aggregation', async () => {
    const d = await data(t, '{ order_details_aggregation { _rows_count quantity { sum min max } unit_price { max } } orders_aggregation { order_date { min max } } }');
    expect(d.order_details_aggregation).toEqual({ _rows_count: 6, quantity: { sum: 27, min: 1, max: 10 }, unit_price: { max: 31 } });
    expect(d.orders_aggregation).toEqual({ order_date: { min: '2024-01-05T10:00:00Z', max: '2024-03-02T15:45:00Z' } });
  });

  it('bucket aggregation by a field, by a relation, ordered by an aggregate with a limit', async () => {
    const d = await data(t, `{
      by_status: orders_bucket_aggregation(order_by: [{field: "key.status"}]) { key { status } aggregations { _rows_count } }
      by_country: orders_bucket_aggregation(order_by: [{field: "key.customer.country"}]) { key { customer { country } } aggregations { _rows_count } }
      top: order_details_bucket_aggregation(order_by: [{field: "aggregations.quantity.sum", direction: DESC}], limit: 2) { key { product_id } aggregations { quantity { sum } } }
    }`);
    expect(d.by_status).toEqual([
      { key: { status: 'cancelled' }, aggregations: { _rows_count: 1 } },
      { key: { status: 'completed' }, aggregations: { _rows_count: 2 } },
      { key: { status: 'pending' }, aggregations: { _rows_count: 1 } },
    ]);
    expect(d.by_country.map((b: any) => [b.key.customer.country, b.aggregations._rows_count])).toEqual([['Canada', 1], ['Germany', 2], ['Switzerland', 1]]);
    expect(d.top).toEqual([{ key: { product_id: 1 }, aggregations: { quantity: { sum: 11 } } }, { key: { product_id: 4 }, aggregations: { quantity: { sum: 6 } } }]);
  });

  it('time buckets and extracted parts', async () => {
    const d = await data(t, `{
      orders_bucket_aggregation(order_by: [{field: "key.month"}]) { key { month: order_date(bucket: month) year: _order_date_part(extract: year) } aggregations { _rows_count } }
    }`);
    expect(d.orders_bucket_aggregation.map((b: any) => [b.key.month, b.key.year, b.aggregations._rows_count])).toEqual([
      ['2024-01-01T00:00:00Z', 2024, 1], ['2024-02-01T00:00:00Z', 2024, 2], ['2024-03-01T00:00:00Z', 2024, 1],
    ]);
  });

  it('nested aggregations through relations, and a relation of a relation', async () => {
    const d = await data(t, '{ customers_aggregation { _rows_count orders { _rows_count order_details { quantity { sum } } } } }');
    expect(d.customers_aggregation).toEqual({ _rows_count: 4, orders: { _rows_count: 4, order_details: { quantity: { sum: 27 } } } });
  });

  it('subquery aggregations per parent, filtered by aliases, and bucket aggregations of a relation', async () => {
    const d = await data(t, `{
      customers(order_by: [{field: "id"}]) { id orders_aggregation { _rows_count } }
      one: customers(filter: {id: {eq: 1}}) {
        all: orders_aggregation { _rows_count }
        done: orders_aggregation(filter: {status: {eq: "completed"}}) { _rows_count }
        orders_bucket_aggregation(order_by: [{field: "key.status"}]) { key { status } aggregations { _rows_count } }
      }
    }`);
    // A customer without orders: null, as the orders list itself (hugr's engine answers the same).
    expect(d.customers.map((c: any) => [c.id, c.orders_aggregation?._rows_count ?? null])).toEqual([[1, 2], [2, 1], [3, 1], [4, null]]);
    expect(d.one).toEqual([{
      all: { _rows_count: 2 }, done: { _rows_count: 1 },
      orders_bucket_aggregation: [{ key: { status: 'completed' }, aggregations: { _rows_count: 1 } }, { key: { status: 'pending' }, aggregations: { _rows_count: 1 } }],
    }]);
  });

  it('several filtered aggregations of one bucket', async () => {
    const d = await data(t, `{
      products_bucket_aggregation(order_by: [{field: "key.in_stock"}]) { key { in_stock } all: aggregations { _rows_count } cheap: aggregations(filter: {price: {lt: 15}}) { _rows_count } }
    }`);
    // Buckets order nulls first (docs/aggregations.md).
    expect(d.products_bucket_aggregation).toEqual([
      { key: { in_stock: null }, all: { _rows_count: 1 }, cheap: { _rows_count: 0 } },
      { key: { in_stock: false }, all: { _rows_count: 1 }, cheap: { _rows_count: 0 } },
      { key: { in_stock: true }, all: { _rows_count: 2 }, cheap: { _rows_count: 1 } },
    ]);
  });
});

// Last: these change the data.
describe('docs/5-graphql/2-mutations.md', () => {
  it('insert returns the row; nested rows, sequences and static defaults are filled', async () => {
    const d = await data(t, `mutation {
      insert_customers(data: {id: 10, name: "John Doe", email: "john@example.com", phone: "+1-555-0123"}) { id name email }
      insert_orders(data: {customer_id: 10, order_date: "2024-04-01T00:00:00Z", order_details: [{product_id: 1, supplier_id: 1, quantity: 2, unit_price: 18, discount: 0}]}) {
        id status customer { name } order_details { product_id quantity }
      }
    }`);
    expect(d.insert_customers).toEqual({ id: 10, name: 'John Doe', email: 'john@example.com' });
    expect(d.insert_orders).toEqual({ id: 100, status: 'pending', customer: { name: 'John Doe' }, order_details: [{ product_id: 1, quantity: 2 }] });
  });

  it('update and delete by filter (through relations too) answer affected_rows and success', async () => {
    const d = await data(t, `mutation {
      update_customers(filter: {id: {eq: 10}}, data: {phone: "+1-555-9999"}) { affected_rows success }
      update_orders(filter: {_and: [{status: {eq: "cancelled"}}, {customer: {country: {eq: "Switzerland"}}}]}, data: {status: "archived"}) { affected_rows }
    }`);
    expect(d).toEqual({ update_customers: { affected_rows: 1, success: true }, update_orders: { affected_rows: 1 } });
    const gone = await data(t, 'mutation { delete_order_details(filter: {order: {customer_id: {eq: 10}}}) { affected_rows success } }');
    expect(gone.delete_order_details).toEqual({ affected_rows: 1, success: true });
  });

  it('all mutations of one request are one transaction', async () => {
    const r = await t.gql(`mutation {
      update_customers(filter: {id: {eq: 10}}, data: {name: "Changed"}) { affected_rows }
      insert_customers(data: {id: 1, name: "Duplicate", email: "x@example.com"}) { id }
    }`);
    expect(r.body.errors?.length).toBeGreaterThan(0);
    const d = await data(t, '{ customers_by_pk(id: 10) { name } }');
    expect(d.customers_by_pk).toEqual({ name: 'John Doe' });
  });
});
