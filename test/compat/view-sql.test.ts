// hugr's views page (docs/4-engine-configuration/3-schema-definition/3-data-objects/3-views.md) with
// its catalog as the page writes it: view SQL and function SQL naming their tables bare (`FROM
// customers`), not through `[$catalog]` as svc's own fixtures do. A DuckDB source is one attached
// database of svc's engine, so bare names are qualified with the source's database when it loads
// (src/sources/duckdb/macros.ts); before, every such view answered CATALOG_INVALID ("Table with
// name customers does not exist").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { data, writeSource } from './support.js';

let t: TestApp;
let pgDb: TestDatabase;
beforeAll(async () => {
  const dir = join(tempDir(), 'catalogs');
  pgDb = await createTestDatabase('svc_compat_view_sql');
  await pgDb.exec(`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category_id INTEGER);
    INSERT INTO products VALUES (1, 'Laptop Pro', 2), (2, 'Wireless Mouse', 3), (5, 'Gaming Desktop', 2);`);
  // hugr's e2e view (query-engine views/auth_placeholder_argless): [$auth.user_id_int] against an integer column.
  writeSource(dir, 'pg_store', {
    'source.yaml': `type: postgres\npath: ${pgDb.url}\nprefix: pg_store\nas_module: true\n`,
    'schema.graphql': `type products_for_current_user @view(
    name: "products_for_current_user"
    sql: "SELECT id, name, category_id FROM products WHERE category_id = [$auth.user_id_int]"
) {
    id: Int! @pk
    name: String!
    category_id: Int
}
`,
  });
  writeSource(dir, 'other', {
    'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n',
    'seed.sql': "CREATE TABLE notes (id INTEGER PRIMARY KEY, customer_id INTEGER, text VARCHAR); INSERT INTO notes VALUES (1, 1, 'vip');",
    'schema.graphql': 'type notes @table(name: "notes") {\n  id: Int! @pk\n  customer_id: Int\n  text: String\n}\n',
  });
  writeSource(dir, 'shop', {
    'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n',
    'seed.sql': [
      'CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, email VARCHAR NOT NULL, deleted_at TIMESTAMPTZ, last_order_date TIMESTAMPTZ);',
      "INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com', NULL, now() - INTERVAL '3 days'),",
      "  (2, 'Ben', 'ben@example.com', NULL, now() - INTERVAL '200 days'), (3, 'Cid', 'cid@example.com', now(), now() - INTERVAL '1 day');",
      'CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount DOUBLE, status VARCHAR, order_date TIMESTAMPTZ, shipped_date TIMESTAMPTZ);',
      "INSERT INTO orders VALUES (10, 1, 100, 'completed', '2023-03-01 00:00:00+00', '2023-03-02 00:00:00+00'),",
      "  (11, 1, 50, 'completed', '2023-12-20 00:00:00+00', NULL), (12, 2, 70, 'completed', '2023-06-01 00:00:00+00', '2023-06-03 00:00:00+00'),",
      "  (13, 2, 500, 'cancelled', '2023-06-01 00:00:00+00', NULL), (14, 3, 30, 'completed', '2022-01-01 00:00:00+00', NULL);",
      // A table function with a named parameter that has a default (the page's "Views as SQL Functions").
      "CREATE MACRO get_weather_for_location(location_id, date_from, date_to, with_forecast := false) AS TABLE SELECT 'station ' || location_id AS location, 20.5 AS temperature, 0.4 AS humidity, date_from AS recorded_at, with_forecast AS forecast;",
      "CREATE SCHEMA archive; CREATE TABLE archive.orders (id INTEGER PRIMARY KEY, amount DOUBLE); INSERT INTO archive.orders VALUES (1, 5), (2, 7);",
      'CREATE VIEW v_customer_summary AS SELECT customer_id, count(*)::INTEGER AS total_orders, sum(amount) AS total_spent FROM orders GROUP BY customer_id;',
    ].join('\n'),
    'schema.graphql': `type customers @table(name: "customers") {
  id: Int! @pk
  name: String!
  email: String!
  deleted_at: Timestamp
  last_order_date: Timestamp
}

type active_customers @view(
  name: "active_customers"
  sql: """
    SELECT * FROM customers
    WHERE deleted_at IS NULL
    AND last_order_date > NOW() - INTERVAL '90 days'
  """
) {
  id: Int! @pk
  name: String!
  email: String!
  last_order_date: Timestamp
}

type customer_summary @view(name: "v_customer_summary") {
  customer_id: Int! @pk
  total_orders: Int!
  total_spent: Float!
}

type shipped_orders @view(
  name: "shipped_orders"
  sql: """
    SELECT o.id, o.customer_id, c.name AS customer_name, o.amount
    FROM orders o
    INNER JOIN customers c ON o.customer_id = c.id
    WHERE o.shipped_date IS NOT NULL
  """
) {
  id: Int! @pk
  customer_id: Int!
  customer_name: String!
  amount: Float!
}

type top_customers @view(
  name: "top_customers"
  sql: """
    SELECT
      customer_id,
      SUM(amount) as total_spent
    FROM orders
    WHERE
      status = 'completed' AND
      order_date BETWEEN
        COALESCE([$from], [$requested] - INTERVAL '1 month')
        AND COALESCE([$to], [$requested])
    GROUP BY customer_id
    ORDER BY total_spent DESC
    LIMIT COALESCE([$limit], 10)
  """
) @args(name: "top_customers_input", required: true) {
  customer_id: Int! @field_references(references_name: "customers", field: "id", query: "customer")
  total_spent: Float!
}

input top_customers_input {
  requested: Timestamp!
  from: Timestamp
  to: Timestamp
  limit: Int = 10
}

"A table of another schema of the source's database, named schema.table"
type archived_big @view(name: "archived_big", sql: "SELECT id, amount FROM archive.orders WHERE amount > 6") {
  id: Int! @pk
  amount: Float
}

"A view over the catalog's own namespace and another source's table: both stay as written"
type noted_customers @view(name: "noted_customers", sql: "SELECT c.id, n.text FROM [$catalog].customers c JOIN other.notes n ON n.customer_id = c.id") {
  id: Int! @pk
  text: String
}

type weather_data @view(name: "get_weather_for_location")
  @args(name: "weather_input", required: true) {
  location: String!
  temperature: Float!
  humidity: Float!
  recorded_at: Timestamp!
  forecast: Boolean
}

"@named first: passed by name, after the positional ones"
input weather_input {
  include_forecasts: Boolean @named(name: "with_forecast")
  location_id: Int!
  date_from: Timestamp!
  date_to: Timestamp!
}

extend type Function {
  "A function whose SQL is an expression naming a table bare"
  customer_total(id: Int!): Float @function(name: "customer_total", sql: "(SELECT sum(amount) FROM orders WHERE customer_id = [id])")
  "A table function whose SQL is a statement naming tables bare, with a CTE"
  orders_of(name: String!): [shipped_orders] @function(name: "orders_of", is_table: true, sql: """
    WITH mine AS (SELECT id FROM customers WHERE name = [name])
    SELECT o.id, o.customer_id, [name] AS customer_name, o.amount FROM orders o JOIN mine ON mine.id = o.customer_id ORDER BY o.id
  """)
}
`,
  });
  t = await startApp({ CATALOGS_DIR: dir, SECRET_KEY: 'view-sql' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await pgDb?.drop();
});

describe('docs/4-engine-configuration/3-schema-definition/3-data-objects/3-views.md, SQL as the page writes it', () => {
  it('a view whose SQL names its table bare, and a database view', async () => {
    const d = await data(t, '{ active_customers(order_by: [{field: "id"}]) { id name } customer_summary(order_by: [{field: "customer_id"}]) { customer_id total_orders total_spent } }');
    expect(d.active_customers).toEqual([{ id: 1, name: 'Ann' }]);
    expect(d.customer_summary).toEqual([
      { customer_id: 1, total_orders: 2, total_spent: 150 },
      { customer_id: 2, total_orders: 2, total_spent: 570 },
      { customer_id: 3, total_orders: 1, total_spent: 30 },
    ]);
  });

  it('a view joining bare tables with aliases, filtered and aggregated', async () => {
    const d = await data(t, '{ shipped_orders(filter: {amount: {gt: 80}}) { id customer_name } shipped_orders_aggregation { _rows_count amount { sum } } }');
    expect(d.shipped_orders).toEqual([{ id: 10, customer_name: 'Ann' }]);
    expect(d.shipped_orders_aggregation).toEqual({ _rows_count: 2, amount: { sum: 170 } });
  });

  it('the parameterized view of the page: [$arg] placeholders, COALESCE defaults, LIMIT from an argument, a relation from its rows', async () => {
    const d = await data(t, `{ top_customers(args: {requested: "2024-01-01T00:00:00Z", from: "2023-01-01T00:00:00Z", to: "2023-12-31T23:59:59Z", limit: 20}) {
      customer_id total_spent customer { name email } } }`);
    expect(d.top_customers).toEqual([
      { customer_id: 1, total_spent: 150, customer: { name: 'Ann', email: 'ann@example.com' } },
      { customer_id: 2, total_spent: 70, customer: { name: 'Ben', email: 'ben@example.com' } },
    ]);
    // Without from: the month before `requested`; limit 1 keeps the first.
    const w = await data(t, '{ top_customers(args: {requested: "2023-12-31T00:00:00Z"}) { customer_id total_spent } a: top_customers(args: {requested: "2024-01-01T00:00:00Z", from: "2022-01-01T00:00:00Z", limit: 1}) { customer_id } }');
    expect(w.top_customers).toEqual([{ customer_id: 1, total_spent: 50 }]);
    expect(w.a).toEqual([{ customer_id: 1 }]);
  });

  it('a view over a table function: the input\'s @named field goes by that parameter name', async () => {
    const d = await data(t, `{ weather_data(args: {location_id: 3, date_from: "2025-01-01T00:00:00Z", date_to: "2025-01-02T00:00:00Z", include_forecasts: true}) {
      location temperature humidity recorded_at forecast } }`);
    expect(d.weather_data).toEqual([{ location: 'station 3', temperature: 20.5, humidity: 0.4, recorded_at: '2025-01-01T00:00:00Z', forecast: true }]);
  });

  it('[$auth.user_id_int] in view SQL is a number: PostgreSQL compares it with an integer column (was "operator does not exist: integer = text")', async () => {
    const d = await data(t, '{ pg_store { products_for_current_user(order_by: [{field: "id", direction: ASC}]) { id name category_id } } }', undefined,
      { 'x-svc-secret-key': 'view-sql', 'x-svc-role': 'admin', 'x-svc-user-id': '2' });
    expect(d.pg_store.products_for_current_user).toEqual([{ id: 1, name: 'Laptop Pro', category_id: 2 }, { id: 5, name: 'Gaming Desktop', category_id: 2 }]);
  });

  it('a table of another schema of the source (archive.orders) is the source\'s too', async () => {
    expect((await data(t, '{ archived_big { id amount } }')).archived_big).toEqual([{ id: 2, amount: 7 }]);
  });

  it('[$catalog].table and another source\'s database.table stay as written', async () => {
    expect((await data(t, '{ noted_customers { id text } }')).noted_customers).toEqual([{ id: 1, text: 'vip' }]);
  });

  it('function SQL naming tables bare: an expression and a table function with a CTE', async () => {
    const d = await data(t, '{ function { customer_total(id: 1) orders_of(name: "Ben") { id customer_name amount } } }');
    expect(d.function.customer_total).toBe(150);
    expect(d.function.orders_of).toEqual([{ id: 12, customer_name: 'Ben', amount: 70 }, { id: 13, customer_name: 'Ben', amount: 500 }]);
  });
});
