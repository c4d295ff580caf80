// hugr's schema-definition pages (issue 32), second part: modules and field transformations (the
// special table types page is test/compat/cube-hypertable.test.ts). The catalogs are ours, written in the syntax each page shows;
// the requests are the pages' requests on our data (the northwind fixture for field transformations).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { data, startNorthwind, writeSource } from './support.js';

const KEY = { 'x-svc-secret-key': 'compat-b' };
const as = (role: string) => ({ ...KEY, 'x-svc-role': role, 'x-svc-user-id': '1' });

let t: TestApp;
beforeAll(async () => {
  const dir = join(tempDir(), 'catalogs');
  // Objects and functions placed in modules, one nested (sales.reports); the source itself is not a module.
  writeSource(dir, 'shop', {
    'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n',
    'seed.sql': [
      'CREATE SEQUENCE customer_ids START 3;',
      "CREATE TABLE customers (id INTEGER PRIMARY KEY DEFAULT nextval('customer_ids'), name VARCHAR NOT NULL, email VARCHAR NOT NULL, created_at TIMESTAMPTZ);",
      "INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com', '2024-05-01 09:00:00+00'), (2, 'Ben', 'ben@example.com', NULL);",
      'CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, total DOUBLE, category VARCHAR, year INTEGER);',
      "INSERT INTO orders VALUES (10, 1, 20, 'books', 2024), (11, 1, 5, 'toys', 2024), (12, 2, 7.5, 'books', 2024);",
      'CREATE VIEW total_sales_view AS SELECT category, year, sum(total) AS total FROM orders GROUP BY category, year;',
      // A macro naming its table bare, as a database's own macros do (svc qualifies it: src/sources/duckdb/macros.ts).
      'CREATE MACRO get_customer_orders(cid) AS TABLE SELECT id, total FROM orders WHERE customer_id = cid ORDER BY id;',
    ].join('\n'),
    'schema.graphql': `type customers @table(name: "customers") @module(name: "crm") {
  id: Int! @pk @default(sequence: "customer_ids")
  name: String!
  email: String!
  created_at: Timestamp
}

type total_sales @view(name: "total_sales_view") @module(name: "sales.reports") {
  category: String
  year: Int
  total: Float
}

type order {
  id: Int
  total: Float
}

extend type Function {
  get_customer_orders(customer_id: Int!): [order]
    @function(name: "get_customer_orders", is_table: true)
    @module(name: "crm")
}
`,
  });
  t = await startApp({ CATALOGS_DIR: dir, SECRET_KEY: 'compat-b' });
  nw = await startNorthwind();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await nw?.close();
});
let nw: TestApp;

describe('docs/4-engine-configuration/3-schema-definition/4-modules.md', () => {
  it('queries a table in a module and a view in a nested module', async () => {
    const d = await data(t, `{
      crm { customers(order_by: [{field: "id"}]) { id name email created_at } }
      sales { reports { total_sales(order_by: [{field: "category"}]) { category year total } } }
    }`);
    expect(d.crm.customers).toEqual([
      { id: 1, name: 'Ann', email: 'ann@example.com', created_at: '2024-05-01T09:00:00Z' },
      { id: 2, name: 'Ben', email: 'ben@example.com', created_at: null },
    ]);
    expect(d.sales.reports.total_sales).toEqual([{ category: 'books', year: 2024, total: 27.5 }, { category: 'toys', year: 2024, total: 5 }]);
  });

  it('names the module types _module_<path>_<root>, dots as underscores', async () => {
    const d = await data(t, `{
      q: __type(name: "_module_crm_query") { fields { name } }
      m: __type(name: "_module_crm_mutation") { fields { name } }
      f: __type(name: "_module_crm_function") { fields { name } }
      r: __type(name: "_module_sales_reports_query") { fields { name } }
    }`);
    expect(d.q.fields.map((f: any) => f.name)).toEqual(expect.arrayContaining(['customers', 'customers_by_pk', 'customers_aggregation', 'customers_bucket_aggregation']));
    expect(d.m.fields.map((f: any) => f.name)).toEqual(expect.arrayContaining(['insert_customers', 'update_customers', 'delete_customers']));
    expect(d.f.fields.map((f: any) => f.name)).toEqual(['get_customer_orders']);
    expect(d.r.fields.map((f: any) => f.name)).toEqual(expect.arrayContaining(['total_sales']));
  });

  it('mutates in a module and calls a function in a module', async () => {
    const m = await data(t, 'mutation { crm { insert_customers(data: {name: "John Doe", email: "john.doe@example.com"}) { id name email } } }');
    expect(m.crm.insert_customers).toEqual({ id: 3, name: 'John Doe', email: 'john.doe@example.com' });
    const f = await data(t, '{ function { crm { get_customer_orders(customer_id: 1) { id total } } } }');
    expect(f.function.crm.get_customer_orders).toEqual([{ id: 10, total: 20 }, { id: 11, total: 5 }]);
  });

  it('a permission on a module type (type_name "_module_crm_query", field "*") disables its queries for the role', async () => {
    await data(t, `mutation { core {
      insert_roles(data: {name: "external_api", description: "no crm"}) { name }
      insert_role_permissions(data: {role: "external_api", type_name: "_module_crm_query", field_name: "*", disabled: true}) { role type_name }
    } }`, undefined, KEY);
    const denied = await t.gql('{ crm { customers { id } } }', undefined, as('external_api'));
    expect(denied.body.errors?.[0]?.extensions?.code, denied.text).toBe('FORBIDDEN');
    const other = await data(t, '{ sales { reports { total_sales { category } } } }', undefined, as('external_api'));
    expect(other.sales.reports.total_sales).toHaveLength(2);
  });
});

describe('docs/4-engine-configuration/3-schema-definition/3-data-objects/11-field-transformations.md', () => {
  it('time buckets and parts in rows, and as bucket keys beside aggregations', async () => {
    const d = await data(nw, `{
      orders(filter: {id: {eq: 1}}) {
        order_date day: order_date(bucket: day) week: order_date(bucket: week) quarter: order_date(bucket: quarter) year_start: order_date(bucket: year)
        quarter_hour: order_date(bucket_interval: "15 minutes")
        doy: _order_date_part(extract: doy) q: _order_date_part(extract: quarter) wk: _order_date_part(extract: week)
        iso_year: _order_date_part(extract: iso_year) minute: _order_date_part(extract: minute) day_of_month: _order_date_part(extract: day)
      }
      orders_bucket_aggregation(order_by: [{field: "key.order_month"}]) {
        key { order_month: order_date(bucket: month) year: _order_date_part(extract: year) month: _order_date_part(extract: month) }
        aggregations { _rows_count total { sum } }
      }
    }`);
    expect(d.orders).toEqual([{
      order_date: '2024-01-05T10:00:00Z', day: '2024-01-05T00:00:00Z', week: '2024-01-01T00:00:00Z', quarter: '2024-01-01T00:00:00Z', year_start: '2024-01-01T00:00:00Z',
      quarter_hour: '2024-01-05T10:00:00Z', doy: 5, q: 1, wk: 1, iso_year: 2024, minute: 0, day_of_month: 5,
    }]);
    expect(d.orders_bucket_aggregation).toEqual([
      { key: { order_month: '2024-01-01T00:00:00Z', year: 2024, month: 1 }, aggregations: { _rows_count: 1, total: { sum: 225 } } },
      { key: { order_month: '2024-02-01T00:00:00Z', year: 2024, month: 2 }, aggregations: { _rows_count: 2, total: { sum: 232.7 } } },
      { key: { order_month: '2024-03-01T00:00:00Z', year: 2024, month: 3 }, aggregations: { _rows_count: 1, total: { sum: 57 } } },
    ]);
  });

  it('JSON: struct types (bigint, boolean, json), paths written with "$." in aggregations and buckets', async () => {
    const d = await data(nw, `{
      orders(filter: {id: {eq: 1}}) { metadata(struct: {score: "bigint", gift: "boolean", details: "json", channel: "string"}) }
      orders_aggregation { metadata { count(path: "channel") sum(path: "$.score") avg(path: "$.details.amount") } }
      orders_bucket_aggregation(filter: {metadata: {is_null: false}}, order_by: [{field: "aggregations._rows_count", direction: DESC}]) {
        key { category: metadata(struct: {channel: "string"}) }
        aggregations { _rows_count metadata { sum(path: "$.score") } }
      }
    }`);
    expect(d.orders).toEqual([{ metadata: { score: 4, gift: true, details: { amount: 10 }, channel: 'web' } }]);
    expect(d.orders_aggregation.metadata.count).toBe(3);
    expect(d.orders_aggregation.metadata.sum).toBe(11);
    expect(d.orders_aggregation.metadata.avg).toBeCloseTo(22 / 3, 10);
    expect(d.orders_bucket_aggregation).toEqual([
      { key: { category: { channel: 'web' } }, aggregations: { _rows_count: 2, metadata: { sum: 9 } } },
      { key: { category: { channel: 'shop' } }, aggregations: { _rows_count: 1, metadata: { sum: 2 } } },
    ]);
  });

  it('geometry: transforms and measurements in rows, union / extent / intersection in aggregations', async () => {
    const d = await data(nw, `{
      stores(filter: {id: {eq: 1}}) {
        center: area(transforms: [Centroid]) box: area(transforms: [Envelope]) moved: location(transforms: [FlipCoordinates])
        area_units: _area_measurement(type: Area) perimeter_units: _area_measurement(type: Perimeter)
      }
      zones_aggregation(filter: {priority: {eq: "high"}}) { _rows_count boundary { union extent intersection } }
    }`);
    const s = d.stores[0];
    expect(s.center).toEqual({ type: 'Point', coordinates: [2, 2] });
    expect(s.box.type).toBe('Polygon');
    expect(s.moved).toEqual({ type: 'Point', coordinates: [1, 1] });
    expect([s.area_units, s.perimeter_units]).toEqual([16, 16]);
    const a = d.zones_aggregation;
    expect(a._rows_count).toBe(2);
    const bounds = (g: any) => {
      const pts = g.coordinates.flat(2).length ? (g.coordinates as number[][][]).flat() : [];
      const xs = pts.map((p) => p[0]!), ys = pts.map((p) => p[1]!);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    };
    expect(a.boundary.extent.type).toBe('Polygon');
    expect(bounds(a.boundary.extent)).toEqual([0, -1, 9, 9]);
    expect(a.boundary.intersection.type).toBe('Polygon');
    expect(bounds(a.boundary.intersection)).toEqual([3, 0, 5, 5]);
    expect(a.boundary.union.type).toBe('Polygon');
    expect(bounds(a.boundary.union)).toEqual([0, -1, 9, 9]);
  });
});
