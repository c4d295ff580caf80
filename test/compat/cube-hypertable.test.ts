// hugr's special table types (issue 32): the cube and hypertable query page and the special-types
// schema page. One catalog, ours, in the syntax the pages show, served from DuckDB at the root (as
// the pages name the objects) and from PostgreSQL as the module `pg` (plain PostgreSQL: no
// TimescaleDB, so a hypertable is served as a table, README "Compatibility with hugr").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { data, writeSource } from './support.js';

const SCHEMA = `type customers @table(name: "customers") {
  id: Int! @pk
  name: String!
  country: String!
}

type categories @table(name: "categories") {
  id: Int! @pk
  name: String!
}

type products @table(name: "products") {
  id: Int! @pk
  name: String!
  category_id: Int! @field_references(references_name: "categories", field: "id", query: "category")
}

type sales @table(name: "sales") @cube {
  id: BigInt! @pk
  # dimensions
  customer_id: Int! @field_references(references_name: "customers", field: "id", query: "customer")
  product_id: Int! @field_references(references_name: "products", field: "id", query: "product")
  store_id: Int!
  sale_date: Date!
  region: String!
  # measurements
  quantity: Int! @measurement
  unit_price: Float! @measurement
  total_amount: Float! @measurement
  discount: Float! @measurement
}

type events @table(name: "events") @cube {
  event_id: BigInt! @pk
  category: String!
  is_successful: Boolean! @measurement
  has_error: Boolean! @measurement
}

type orders @table(name: "orders") @cube {
  id: BigInt! @pk
  customer_id: Int!
  first_order_date: Date! @measurement
  last_order_date: Date! @measurement
}

type sensor_readings @table(name: "sensor_readings") @hypertable {
  sensor_id: Int! @pk
  timestamp: Timestamp! @pk @timescale_key
  temperature: Float!
  humidity: Float!
  pressure: Float!
  battery_level: Float!
}

type hourly_sensor_stats @view(name: "hourly_sensor_stats") @hypertable {
  sensor_id: Int! @pk
  hour: Timestamp! @pk @timescale_key
  avg_temperature: Float!
  reading_count: Int!
}

type sales_metrics @table(name: "sales_metrics") @cube @hypertable {
  id: BigInt! @pk
  timestamp: Timestamp! @timescale_key
  product_id: Int!
  region: String!
  channel: String!
  revenue: Float! @measurement
  units_sold: Int! @measurement
  customers: Int! @measurement
}
`;

// Standard SQL both engines read.
const SEED = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, country VARCHAR NOT NULL);
INSERT INTO customers VALUES (1, 'Ann', 'DE'), (2, 'Ben', 'FR');
CREATE TABLE categories (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
INSERT INTO categories VALUES (1, 'Tools'), (2, 'Toys');
CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, category_id INTEGER NOT NULL);
INSERT INTO products VALUES (1, 'Hammer', 1), (2, 'Kite', 2);
CREATE TABLE sales (id BIGINT PRIMARY KEY, customer_id INTEGER NOT NULL, product_id INTEGER NOT NULL, store_id INTEGER NOT NULL,
  sale_date DATE NOT NULL, region VARCHAR NOT NULL, quantity INTEGER NOT NULL, unit_price DOUBLE PRECISION NOT NULL,
  total_amount DOUBLE PRECISION NOT NULL, discount DOUBLE PRECISION NOT NULL);
INSERT INTO sales VALUES
  (1, 1, 1, 1, '2024-01-05', 'North', 2, 10, 20, 1),
  (2, 2, 2, 1, '2024-01-20', 'North', 3, 20, 60, 5),
  (3, 1, 1, 2, '2024-01-25', 'South', 1, 10, 10, 0),
  (4, 1, 2, 1, '2024-02-10', 'North', 4, 20, 80, 2),
  (5, 2, 1, 2, '2024-04-02', 'South', 5, 10, 50, 3);
CREATE TABLE events (event_id BIGINT PRIMARY KEY, category VARCHAR NOT NULL, is_successful BOOLEAN NOT NULL, has_error BOOLEAN NOT NULL);
INSERT INTO events VALUES (1, 'A', true, false), (2, 'A', false, true), (3, 'B', true, false), (4, 'B', true, false), (5, 'C', false, true);
CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id INTEGER NOT NULL, first_order_date DATE NOT NULL, last_order_date DATE NOT NULL);
INSERT INTO orders VALUES (1, 1, '2024-03-01', '2024-03-09'), (2, 1, '2024-01-15', '2024-02-01'), (3, 2, '2024-05-05', '2024-05-06');
CREATE TABLE sensor_readings (sensor_id INTEGER NOT NULL, "timestamp" TIMESTAMPTZ NOT NULL, temperature DOUBLE PRECISION NOT NULL,
  humidity DOUBLE PRECISION NOT NULL, pressure DOUBLE PRECISION NOT NULL, battery_level DOUBLE PRECISION NOT NULL, PRIMARY KEY (sensor_id, "timestamp"));
INSERT INTO sensor_readings VALUES
  (123, '2024-01-15 00:10:00+00', 20, 40, 1010, 90),
  (123, '2024-01-15 00:20:00+00', 22, 50, 1015, 89),
  (456, '2024-01-15 00:40:00+00', 35, 70, 995, 70),
  (123, '2024-01-15 01:05:00+00', 24, 45, 1013, 88),
  (123, '2024-01-16 09:00:00+00', 31, 85, 1005, 80);
CREATE VIEW hourly_sensor_stats AS
  SELECT sensor_id, date_trunc('hour', "timestamp") AS hour, avg(temperature) AS avg_temperature, CAST(count(*) AS INTEGER) AS reading_count
  FROM sensor_readings GROUP BY 1, 2;
CREATE TABLE sales_metrics (id BIGINT PRIMARY KEY, "timestamp" TIMESTAMPTZ NOT NULL, product_id INTEGER NOT NULL, region VARCHAR NOT NULL,
  channel VARCHAR NOT NULL, revenue DOUBLE PRECISION NOT NULL, units_sold INTEGER NOT NULL, customers INTEGER NOT NULL);
INSERT INTO sales_metrics VALUES
  (1, '2024-01-15 11:02:00+00', 1, 'North', 'web', 100, 2, 1),
  (2, '2024-01-15 11:04:00+00', 2, 'North', 'web', 50, 1, 1),
  (3, '2024-01-15 11:12:00+00', 1, 'North', 'store', 30, 1, 1),
  (4, '2024-01-15 12:30:00+00', 1, 'South', 'web', 70, 3, 2);
`;

const KEY = { 'x-svc-secret-key': 'compat-cube' };

let t: TestApp;
let pgDb: TestDatabase;
let files: string;
beforeAll(async () => {
  files = tempDir();
  const dir = join(tempDir(), 'catalogs');
  pgDb = await createTestDatabase('svc_compat_cube');
  await pgDb.exec(SEED);
  writeSource(dir, 'olap', { 'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n', 'seed.sql': SEED, 'schema.graphql': SCHEMA });
  writeSource(dir, 'pg', { 'source.yaml': `type: postgres\npath: "${pgDb.url}"\nprefix: pg\nas_module: true\n`, 'schema.graphql': SCHEMA });
  t = await startApp({ CATALOGS_DIR: dir, SECRET_KEY: 'compat-cube', CATALOG_ALLOWED_PATHS: files });
}, 90_000);
afterAll(async () => {
  await t?.close();
  await pgDb?.drop();
});

/** The same request on DuckDB (at the root) and on PostgreSQL (module `pg`): both answers. */
async function both(selection: string, variables?: Record<string, unknown>): Promise<[any, any]> {
  const vars = variables ? `(${Object.keys(variables).map((k) => `$${k}: ${typeof variables[k] === 'number' ? 'Int!' : 'String!'}`).join(', ')})` : '';
  const duck = await data(t, `query${vars} { ${selection} }`, variables);
  const pg = await data(t, `query${vars} { pg { ${selection} } }`, variables);
  return [duck, pg.pg];
}

const byKeys = (rows: any[], ...keys: string[]) => [...rows].sort((a, b) => keys.map((k) => String(a[k]).localeCompare(String(b[k]))).find((x) => x !== 0) ?? 0);

describe('docs/5-graphql/1-queries/13-cube-hypertable.md', () => {
  it('a cube query groups by the selected dimensions (a month bucket, region) and aggregates measurements by measurement_func', async () => {
    for (const d of await both(`sales(order_by: [{field: "sale_date"}, {field: "region"}]) {
      sale_date(bucket: month)
      region
      total_revenue: total_amount(measurement_func: SUM)
      total_quantity: quantity(measurement_func: SUM)
      avg_price: unit_price(measurement_func: AVG)
      max_discount: discount(measurement_func: MAX)
    }`)) {
      expect(d.sales).toEqual([
        { sale_date: '2024-01-01', region: 'North', total_revenue: 80, total_quantity: 5, avg_price: 15, max_discount: 5 },
        { sale_date: '2024-01-01', region: 'South', total_revenue: 10, total_quantity: 1, avg_price: 10, max_discount: 0 },
        { sale_date: '2024-02-01', region: 'North', total_revenue: 80, total_quantity: 4, avg_price: 20, max_discount: 2 },
        { sale_date: '2024-04-01', region: 'South', total_revenue: 50, total_quantity: 5, avg_price: 10, max_discount: 3 },
      ]);
    }
  });

  it('numeric measurement functions SUM, AVG, MIN, MAX and ANY per region', async () => {
    for (const d of await both(`sales(order_by: [{field: "region"}]) {
      region
      total: total_amount(measurement_func: SUM)
      average: total_amount(measurement_func: AVG)
      min_sale: total_amount(measurement_func: MIN)
      max_sale: total_amount(measurement_func: MAX)
      sample: total_amount(measurement_func: ANY)
    }`)) {
      const [north, south] = d.sales;
      expect(north).toMatchObject({ region: 'North', total: 160, min_sale: 20, max_sale: 80 });
      expect(north.average).toBeCloseTo(160 / 3, 9);
      expect([20, 60, 80]).toContain(north.sample);
      expect(south).toMatchObject({ region: 'South', total: 60, average: 30, min_sale: 10, max_sale: 50 });
      expect([10, 50]).toContain(south.sample);
    }
  });

  it('Boolean measurements: OR, AND and ANY; Date measurements: MIN, MAX and ANY', async () => {
    for (const d of await both(`events(order_by: [{field: "category"}]) {
        category
        any_successful: is_successful(measurement_func: OR)
        all_successful: is_successful(measurement_func: AND)
        sample_success: is_successful(measurement_func: ANY)
      }
      orders(order_by: [{field: "customer_id"}]) {
        customer_id
        first_purchase: first_order_date(measurement_func: MIN)
        last_purchase: last_order_date(measurement_func: MAX)
        sample_date: first_order_date(measurement_func: ANY)
      }`)) {
      expect(d.events.map(({ sample_success: _, ...r }: any) => r)).toEqual([
        { category: 'A', any_successful: true, all_successful: false },
        { category: 'B', any_successful: true, all_successful: true },
        { category: 'C', any_successful: false, all_successful: false },
      ]);
      expect(d.events[1].sample_success).toBe(true);
      expect(d.events[2].sample_success).toBe(false);
      expect(d.orders.map(({ sample_date: _, ...r }: any) => r)).toEqual([
        { customer_id: 1, first_purchase: '2024-01-15', last_purchase: '2024-03-09' },
        { customer_id: 2, first_purchase: '2024-05-05', last_purchase: '2024-05-06' },
      ]);
      expect(['2024-03-01', '2024-01-15']).toContain(d.orders[0].sample_date);
    }
  });

  it('dimensions group automatically: a quarter bucket and region', async () => {
    for (const d of await both(`sales(order_by: [{field: "sale_date"}, {field: "region"}]) {
      sale_date(bucket: quarter)
      region
      total_amount(measurement_func: SUM)
      quantity(measurement_func: SUM)
    }`)) {
      expect(d.sales).toEqual([
        { sale_date: '2024-01-01', region: 'North', total_amount: 160, quantity: 9 },
        { sale_date: '2024-01-01', region: 'South', total_amount: 10, quantity: 1 },
        { sale_date: '2024-04-01', region: 'South', total_amount: 50, quantity: 5 },
      ]);
    }
  });

  it('related objects add their foreign keys to the grouping (customer, product and its category)', async () => {
    for (const d of await both(`sales {
      customer { id name country }
      product { id name category { name } }
      total_revenue: total_amount(measurement_func: SUM)
      avg_quantity: quantity(measurement_func: AVG)
    }`)) {
      const rows = d.sales.map((r: any) => ({ c: r.customer.id, p: r.product.id, rev: r.total_revenue, q: r.avg_quantity }));
      expect(byKeys(rows, 'c', 'p')).toEqual([
        { c: 1, p: 1, rev: 30, q: 2 }, // quantities 2 and 1: an Int measurement's average is an Int
        { c: 1, p: 2, rev: 80, q: 4 },
        { c: 2, p: 1, rev: 50, q: 5 },
        { c: 2, p: 2, rev: 60, q: 3 },
      ]);
      expect(d.sales.find((r: any) => r.customer.id === 2 && r.product.id === 2)).toMatchObject({ customer: { name: 'Ben', country: 'FR' }, product: { name: 'Kite', category: { name: 'Toys' } } });
    }
    // The other way: a customer's sales grouped per region (the cube read through a list relation).
    for (const d of await both('customers(order_by: [{field: "id"}]) { id sales(order_by: [{field: "region"}]) { region total_amount(measurement_func: SUM) n: _rows_count } }')) {
      expect(d.customers).toEqual([
        { id: 1, sales: [{ region: 'North', total_amount: 100, n: 2 }, { region: 'South', total_amount: 10, n: 1 }] },
        { id: 2, sales: [{ region: 'North', total_amount: 60, n: 1 }, { region: 'South', total_amount: 50, n: 1 }] },
      ]);
    }
  });

  it('filters apply to the rows before aggregation (a measurement filtered by its raw value)', async () => {
    for (const d of await both(`sales(
      filter: { sale_date: { gte: "2024-01-01", lt: "2024-04-01" }, region: { eq: "North" }, total_amount: { gte: 50 } }
      order_by: [{field: "sale_date"}]
    ) {
      sale_date(bucket: month)
      region
      total_amount(measurement_func: SUM)
      quantity(measurement_func: SUM)
    }`)) {
      expect(d.sales).toEqual([
        { sale_date: '2024-01-01', region: 'North', total_amount: 60, quantity: 3 },
        { sale_date: '2024-02-01', region: 'North', total_amount: 80, quantity: 4 },
      ]);
    }
  });

  it('sorts by a dimension and by an aggregated measurement; limit and offset page the groups', async () => {
    for (const d of await both(`sorted: sales(order_by: [{ field: "sale_date", direction: DESC }, { field: "total_amount", direction: DESC }]) {
        sale_date(bucket: month)
        region
        total_amount(measurement_func: SUM)
      }
      page: sales(limit: 1, offset: $page, order_by: [{ field: "total_amount", direction: DESC }]) {
        region
        total_amount(measurement_func: SUM)
        quantity(measurement_func: SUM)
      }`, { page: 1 })) {
      expect(d.sorted).toEqual([
        { sale_date: '2024-04-01', region: 'South', total_amount: 50 },
        { sale_date: '2024-02-01', region: 'North', total_amount: 80 },
        { sale_date: '2024-01-01', region: 'North', total_amount: 80 },
        { sale_date: '2024-01-01', region: 'South', total_amount: 10 },
      ]);
      expect(d.page).toEqual([{ region: 'South', total_amount: 60, quantity: 6 }]);
    }
  });

  it('a measurement without measurement_func is a dimension (distinct unit prices group)', async () => {
    for (const d of await both(`sales(order_by: [{field: "sale_date"}, {field: "region"}, {field: "unit_price"}]) {
      sale_date(bucket: month)
      region
      unit_price
      total_revenue: total_amount(measurement_func: SUM)
      total_quantity: quantity(measurement_func: SUM)
    }`)) {
      expect(d.sales).toEqual([
        { sale_date: '2024-01-01', region: 'North', unit_price: 10, total_revenue: 20, total_quantity: 2 },
        { sale_date: '2024-01-01', region: 'North', unit_price: 20, total_revenue: 60, total_quantity: 3 },
        { sale_date: '2024-01-01', region: 'South', unit_price: 10, total_revenue: 10, total_quantity: 1 },
        { sale_date: '2024-02-01', region: 'North', unit_price: 20, total_revenue: 80, total_quantity: 4 },
        { sale_date: '2024-04-01', region: 'South', unit_price: 10, total_revenue: 50, total_quantity: 5 },
      ]);
    }
  });

  it('without measurement_func a cube answers its rows; only measurements, no dimensions: one row', async () => {
    const [d] = await both('rows: sales(order_by: [{field: "id"}], limit: 2) { id region total_amount } all: sales { total_amount(measurement_func: SUM) n: _rows_count }');
    expect(d.rows).toEqual([{ id: 1, region: 'North', total_amount: 20 }, { id: 2, region: 'North', total_amount: 60 }]);
    expect(d.all).toEqual([{ total_amount: 220, n: 5 }]);
  });

  it('cube aggregations and bucket aggregations are the standard ones', async () => {
    for (const d of await both(`sales_aggregation(filter: { sale_date: { gte: "2024-01-01" } }) {
        _rows_count
        total_amount { sum avg min max }
        quantity { sum avg }
      }
      sales_bucket_aggregation(order_by: [{field: "key.quarter"}, {field: "key.region"}, {field: "key.product.category.name"}]) {
        key { quarter: sale_date(bucket: quarter) region product { category { name } } }
        aggregations { _rows_count total_amount { sum avg } quantity { sum } }
      }`)) {
      expect(d.sales_aggregation).toEqual({ _rows_count: 5, total_amount: { sum: 220, avg: 44, min: 10, max: 80 }, quantity: { sum: 15, avg: 3 } });
      expect(d.sales_bucket_aggregation).toEqual([
        { key: { quarter: '2024-01-01', region: 'North', product: { category: { name: 'Tools' } } }, aggregations: { _rows_count: 1, total_amount: { sum: 20, avg: 20 }, quantity: { sum: 2 } } },
        { key: { quarter: '2024-01-01', region: 'North', product: { category: { name: 'Toys' } } }, aggregations: { _rows_count: 2, total_amount: { sum: 140, avg: 70 }, quantity: { sum: 7 } } },
        { key: { quarter: '2024-01-01', region: 'South', product: { category: { name: 'Tools' } } }, aggregations: { _rows_count: 1, total_amount: { sum: 10, avg: 10 }, quantity: { sum: 1 } } },
        { key: { quarter: '2024-04-01', region: 'South', product: { category: { name: 'Tools' } } }, aggregations: { _rows_count: 1, total_amount: { sum: 50, avg: 50 }, quantity: { sum: 5 } } },
      ]);
    }
  });

  it('hypertables: time-range filters, order and limit on the @timescale_key field', async () => {
    for (const d of await both(`sensor_readings(
      filter: { timestamp: { gte: "2024-01-01T00:00:00Z", lt: "2024-01-16T00:00:00Z" }, sensor_id: { eq: 123 } }
      order_by: [{ field: "timestamp", direction: ASC }]
      limit: 100
    ) { sensor_id timestamp temperature humidity pressure }`)) {
      expect(d.sensor_readings).toEqual([
        { sensor_id: 123, timestamp: '2024-01-15T00:10:00Z', temperature: 20, humidity: 40, pressure: 1010 },
        { sensor_id: 123, timestamp: '2024-01-15T00:20:00Z', temperature: 22, humidity: 50, pressure: 1015 },
        { sensor_id: 123, timestamp: '2024-01-15T01:05:00Z', temperature: 24, humidity: 45, pressure: 1013 },
      ]);
    }
  });

  it('hypertables: hour buckets and 15-minute bucket_interval windows as bucket keys', async () => {
    for (const d of await both(`hourly: sensor_readings_bucket_aggregation(order_by: [{field: "key.hour"}, {field: "key.sensor_id"}]) {
        key { hour: timestamp(bucket: hour) sensor_id }
        aggregations { _rows_count temperature { avg min max } humidity { avg } pressure { avg } }
      }
      windows: sensor_readings_bucket_aggregation(filter: {sensor_id: {eq: 123}}, order_by: [{field: "key.time_window"}]) {
        key { time_window: timestamp(bucket_interval: "15 minutes") sensor_id }
        aggregations { temperature { avg min max } }
      }`)) {
      expect(d.hourly).toEqual([
        { key: { hour: '2024-01-15T00:00:00Z', sensor_id: 123 }, aggregations: { _rows_count: 2, temperature: { avg: 21, min: 20, max: 22 }, humidity: { avg: 45 }, pressure: { avg: 1012.5 } } },
        { key: { hour: '2024-01-15T00:00:00Z', sensor_id: 456 }, aggregations: { _rows_count: 1, temperature: { avg: 35, min: 35, max: 35 }, humidity: { avg: 70 }, pressure: { avg: 995 } } },
        { key: { hour: '2024-01-15T01:00:00Z', sensor_id: 123 }, aggregations: { _rows_count: 1, temperature: { avg: 24, min: 24, max: 24 }, humidity: { avg: 45 }, pressure: { avg: 1013 } } },
        { key: { hour: '2024-01-16T09:00:00Z', sensor_id: 123 }, aggregations: { _rows_count: 1, temperature: { avg: 31, min: 31, max: 31 }, humidity: { avg: 85 }, pressure: { avg: 1005 } } },
      ]);
      expect(d.windows.map((w: any) => [w.key.time_window, w.aggregations.temperature.max])).toEqual([
        ['2024-01-15T00:00:00Z', 20], ['2024-01-15T00:15:00Z', 22], ['2024-01-15T01:00:00Z', 24], ['2024-01-16T09:00:00Z', 31],
      ]);
    }
  });

  it('hypertables: daily downsampling with list and last, epoch parts, latest values per sensor, threshold filters with _or', async () => {
    for (const d of await both(`daily: sensor_readings_bucket_aggregation(
        filter: { timestamp: { gte: "2024-01-15T00:00:00Z", lt: "2024-01-16T00:00:00Z" } }, order_by: [{field: "key.sensor_id"}]
      ) {
        key { day: timestamp(bucket: day) sensor_id }
        aggregations { _rows_count temperature { avg min max list } battery_level { min last } }
      }
      gaps: sensor_readings(filter: { sensor_id: { eq: 123 }, timestamp: { gte: "2024-01-15T00:00:00Z", lt: "2024-01-16T00:00:00Z" } }, order_by: [{ field: "timestamp", direction: ASC }]) {
        timestamp temperature _timestamp_part(extract: epoch)
      }
      latest: sensor_readings_bucket_aggregation(order_by: [{field: "key.sensor_id"}]) {
        key { sensor_id }
        aggregations { timestamp { max } temperature { last } }
      }
      hot: sensor_readings(
        filter: { timestamp: { gte: "2024-01-01T00:00:00Z" }, temperature: { gt: 30.0 }, _or: [{ humidity: { gt: 80.0 } }, { pressure: { lt: 1000.0 } }] }
        order_by: [{ field: "timestamp", direction: DESC }]
        limit: 100
      ) { sensor_id timestamp temperature }`)) {
      expect(d.daily).toEqual([
        { key: { day: '2024-01-15T00:00:00Z', sensor_id: 123 }, aggregations: { _rows_count: 3, temperature: { avg: 22, min: 20, max: 24, list: expect.arrayContaining([20, 22, 24]) }, battery_level: { min: 88, last: 88 } } },
        { key: { day: '2024-01-15T00:00:00Z', sensor_id: 456 }, aggregations: { _rows_count: 1, temperature: { avg: 35, min: 35, max: 35, list: [35] }, battery_level: { min: 70, last: 70 } } },
      ]);
      expect(d.gaps.map((r: any) => r._timestamp_part)).toEqual([Date.UTC(2024, 0, 15, 0, 10) / 1000, Date.UTC(2024, 0, 15, 0, 20) / 1000, Date.UTC(2024, 0, 15, 1, 5) / 1000]);
      expect(d.latest).toEqual([
        { key: { sensor_id: 123 }, aggregations: { timestamp: { max: '2024-01-16T09:00:00Z' }, temperature: { last: 31 } } },
        { key: { sensor_id: 456 }, aggregations: { timestamp: { max: '2024-01-15T00:40:00Z' }, temperature: { last: 35 } } },
      ]);
      expect(d.hot).toEqual([{ sensor_id: 123, timestamp: '2024-01-16T09:00:00Z', temperature: 31 }, { sensor_id: 456, timestamp: '2024-01-15T00:40:00Z', temperature: 35 }]);
    }
  });

  it('a continuous aggregate: a @view @hypertable over the database view', async () => {
    for (const d of await both(`hourly_sensor_stats(filter: { hour: { gte: "2024-01-01T00:00:00Z", lt: "2024-02-01T00:00:00Z" } }, order_by: [{ field: "hour", direction: ASC }, {field: "sensor_id"}]) {
      hour sensor_id avg_temperature reading_count
    }`)) {
      expect(d.hourly_sensor_stats).toEqual([
        { hour: '2024-01-15T00:00:00Z', sensor_id: 123, avg_temperature: 21, reading_count: 2 },
        { hour: '2024-01-15T00:00:00Z', sensor_id: 456, avg_temperature: 35, reading_count: 1 },
        { hour: '2024-01-15T01:00:00Z', sensor_id: 123, avg_temperature: 24, reading_count: 1 },
        { hour: '2024-01-16T09:00:00Z', sensor_id: 123, avg_temperature: 31, reading_count: 1 },
      ]);
    }
  });

  it('cube + hypertable: hour buckets and 5-minute windows grouped with measurements; the day\'s totals', async () => {
    for (const d of await both(`hourly: sales_metrics(order_by: [{field: "hour"}, {field: "channel"}]) {
        hour: timestamp(bucket: hour)
        region
        channel
        total_revenue: revenue(measurement_func: SUM)
        total_units: units_sold(measurement_func: SUM)
        unique_customers: customers(measurement_func: SUM)
      }
      recent: sales_metrics(filter: { timestamp: { gte: "2024-01-15T11:00:00Z" } }, order_by: [{field: "timestamp"}, {field: "region"}]) {
        timestamp(bucket_interval: "5 minutes")
        region
        revenue(measurement_func: SUM)
        units_sold(measurement_func: SUM)
      }
      totals: sales_metrics_aggregation(filter: { timestamp: { gte: "2024-01-15T00:00:00Z" } }) { _rows_count revenue { sum avg } customers { sum } }`)) {
      expect(d.hourly).toEqual([
        { hour: '2024-01-15T11:00:00Z', region: 'North', channel: 'store', total_revenue: 30, total_units: 1, unique_customers: 1 },
        { hour: '2024-01-15T11:00:00Z', region: 'North', channel: 'web', total_revenue: 150, total_units: 3, unique_customers: 2 },
        { hour: '2024-01-15T12:00:00Z', region: 'South', channel: 'web', total_revenue: 70, total_units: 3, unique_customers: 2 },
      ]);
      expect(d.recent).toEqual([
        { timestamp: '2024-01-15T11:00:00Z', region: 'North', revenue: 150, units_sold: 3 },
        { timestamp: '2024-01-15T11:10:00Z', region: 'North', revenue: 30, units_sold: 1 },
        { timestamp: '2024-01-15T12:30:00Z', region: 'South', revenue: 70, units_sold: 3 },
      ]);
      expect(d.totals).toEqual({ _rows_count: 4, revenue: { sum: 250, avg: 62.5 }, customers: { sum: 5 } });
    }
  });

  it('an invalid timestamp in a filter is refused with a code, on both engines (the page\'s execution error)', async () => {
    for (const q of ['{ sensor_readings(filter: { timestamp: { gte: "invalid-timestamp" } }) { timestamp } }', '{ pg { sensor_readings(filter: { timestamp: { gte: "invalid-timestamp" } }) { timestamp } } }']) {
      const r = await t.gql(q);
      expect(r.body.errors?.[0]?.extensions, r.text).toMatchObject({ code: 'QUERY_FAILED', reason: 'invalid_value' });
      expect(r.body.errors[0].path.at(-1)).toBe('sensor_readings');
    }
  });

  it('an unknown measurement_func is a validation error naming it; the schema offers each scalar its functions', async () => {
    const r = await t.gql('{ sales { region total: total_amount(measurement_func: INVALID) } }');
    expect(r.body.data ?? null).toBeNull();
    expect(r.body.errors[0].message).toContain('INVALID');
    expect(r.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const d = await data(t, `{ f: __type(name: "FloatMeasurementAggregation") { enumValues { name } } b: __type(name: "BooleanMeasurementAggregation") { enumValues { name } }
      dt: __type(name: "DateMeasurementAggregation") { enumValues { name } } }`);
    expect(d.f.enumValues.map((v: any) => v.name)).toEqual(['SUM', 'AVG', 'MIN', 'MAX', 'ANY']);
    expect(d.b.enumValues.map((v: any) => v.name)).toEqual(['ANY', 'OR', 'AND']);
    expect(d.dt.enumValues.map((v: any) => v.name)).toEqual(['MIN', 'MAX', 'ANY']);
  });
});

describe('docs/4-engine-configuration/3-schema-definition/3-data-objects/10-special-types.md', () => {
  it('a cube query through relations: a month bucket, the customer\'s country and the product\'s category', async () => {
    for (const d of await both(`sales {
      sale_date(bucket: month)
      customer { country }
      product { category { name } }
      quantity(measurement_func: SUM)
      total_amount(measurement_func: SUM)
      unit_price(measurement_func: AVG)
      discount(measurement_func: AVG)
    }`)) {
      const rows = d.sales.map((r: any) => `${r.sale_date} ${r.customer.country} ${r.product.category.name} ${r.quantity} ${r.total_amount} ${r.unit_price} ${r.discount}`).sort();
      // Grouped by month and by the foreign keys the relations read (customer_id, product_id).
      expect(rows).toEqual([
        '2024-01-01 DE Tools 3 30 10 0.5',
        '2024-01-01 FR Toys 3 60 20 5',
        '2024-02-01 DE Toys 4 80 20 2',
        '2024-04-01 FR Tools 5 50 10 3',
      ]);
    }
  });

  it('mixed: a quarter bucket, store, a summed measurement, a measurement as dimension and _rows_count', async () => {
    for (const d of await both(`sales(order_by: [{field: "store_id"}, {field: "unit_price"}]) {
      sale_date(bucket: quarter)
      store_id
      total_revenue: total_amount(measurement_func: SUM)
      unit_price
      _rows_count
    }`)) {
      expect(byKeys(d.sales, 'store_id', 'sale_date', 'unit_price')).toEqual([
        { sale_date: '2024-01-01', store_id: 1, total_revenue: 20, unit_price: 10, _rows_count: 1 },
        { sale_date: '2024-01-01', store_id: 1, total_revenue: 140, unit_price: 20, _rows_count: 2 },
        { sale_date: '2024-01-01', store_id: 2, total_revenue: 10, unit_price: 10, _rows_count: 1 },
        { sale_date: '2024-04-01', store_id: 2, total_revenue: 50, unit_price: 10, _rows_count: 1 },
      ]);
    }
  });

  it('permissions apply to a cube as to any table: a row filter narrows the groups, a denied measurement is forbidden', async () => {
    await data(t, `mutation { core {
      insert_roles(data: {name: "north_analyst", description: "north only"}) { name }
      a: insert_role_permissions(data: {role: "north_analyst", type_name: "sales", field_name: "*", filter: {region: {eq: "North"}}}) { role }
      b: insert_role_permissions(data: {role: "north_analyst", type_name: "sales", field_name: "discount", disabled: true}) { role }
    } }`, undefined, KEY);
    const as = { ...KEY, 'x-svc-role': 'north_analyst', 'x-svc-user-id': '7' };
    const d = await data(t, '{ sales { region total_amount(measurement_func: SUM) n: _rows_count } }', undefined, as);
    expect(d.sales).toEqual([{ region: 'North', total_amount: 160, n: 3 }]);
    const denied = await t.gql('{ sales { region discount(measurement_func: MAX) } }', undefined, as);
    expect(denied.body.errors?.[0]?.extensions?.code, denied.text).toBe('FORBIDDEN');
  });

  it('a hypertable\'s hour buckets with @timescale_key (plain PostgreSQL and DuckDB: no TimescaleDB needed)', async () => {
    for (const d of await both(`sensor_readings_bucket_aggregation(filter: {sensor_id: {eq: 123}}, order_by: [{field: "key.timestamp"}]) {
      key { timestamp(bucket: hour) sensor_id }
      aggregations { temperature { avg min max } humidity { avg } }
    }`)) {
      expect(d.sensor_readings_bucket_aggregation.map((b: any) => [b.key.timestamp, b.aggregations.temperature.avg, b.aggregations.humidity.avg])).toEqual([
        ['2024-01-15T00:00:00Z', 21, 45], ['2024-01-15T01:00:00Z', 24, 45], ['2024-01-16T09:00:00Z', 31, 85],
      ]);
    }
  });

  it('a @cube or @hypertable type without @table or @view is refused by name and line, its source only', async () => {
    const path = join(files, 'bad_cube.graphql');
    writeFileSync(path, 'type stats @cube {\n  n: Int @measurement\n}\n');
    const r = await data(t, `mutation($d: core_data_sources_mut_input_data!) { core { insert_data_sources(data: $d) { name } } }`, {
      d: { name: 'bad_cube', type: 'duckdb', path: ':memory:', prefix: 'bad', catalogs: [{ name: 'bad_cube_cat', type: 'uriFile', path }] },
    }, KEY);
    expect(r.core.insert_data_sources.name).toBe('bad_cube');
    const load = await data(t, 'mutation { function { core { load_data_source(name: "bad_cube") { success message } } } }', undefined, KEY);
    expect(load.function.core.load_data_source.success).toBe(false);
    expect(load.function.core.load_data_source.message).toContain('@cube on "stats" needs @table or @view');
    expect((await data(t, '{ sales { region } }')).sales).toHaveLength(5);
  });
});
