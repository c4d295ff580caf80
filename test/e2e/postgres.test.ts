// PostgreSQL as the core database (CORE_DB_PATH=postgres://...) and as a data source: the same
// catalog and the same queries give the same JSON on DuckDB and PostgreSQL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGS, FIXTURES, startApp, type TestApp } from '../support/app.js';

const CATALOGS_SHOP = join(CATALOGS, 'shop');
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let core: TestDatabase;
let data: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  core = await createTestDatabase('svc_core');
  data = await createTestDatabase('svc_shop');
  await data.exec(readFileSync(join(FIXTURES, 'pg/shop.sql'), 'utf8'));
  t = await startApp({ CORE_DB_PATH: core.url });
  const r = await t.gql(`mutation($path: String!, $catalog: String!) { core { insert_data_sources(data: {
      name: "pgshop", type: "postgres", prefix: "pg", as_module: false, path: $path,
      catalogs: [{name: "pgshop", type: "localFS", path: $catalog}]}) { name } } }`,
    { path: data.url, catalog: CATALOGS_SHOP });
  expect(r.body.errors).toBeUndefined();
  const load = await t.gql('mutation { function { core { load_data_source(name: "pgshop") { success message } } } }');
  expect(load.body.data.function.core.load_data_source).toEqual({ success: true, message: 'data source "pgshop" loaded' });
});

afterAll(async () => {
  await t?.close();
  await core?.drop();
  await data?.drop();
});

const QUERIES = [
  `{ X_customers(order_by: [{field: "name", direction: DESC}], limit: 3) { id name email created_at
       orders(nested_order_by: [{field: "id"}]) { id status ordered_at ship_date items(nested_order_by: [{field: "line"}]) { line quantity total product { name category { name parent { name } } } } } } }`,
  `{ X_products(filter: {_or: [{price: {gt: 100}}, {tags: {any_of: {name: {eq: "classic"}}}}]}, order_by: [{field: "id"}]) { id sku in_stock attributes tags { name } } }`,
  `{ X_products(filter: {attributes: {has: "pages"}}, order_by: [{field: "sku"}]) { sku } }`,
  `{ X_orders(filter: {customer: {country: {eq: "GB"}}, status: {in: ["shipped", "pending"]}}, order_by: [{field: "ordered_at"}]) { id ordered_at customer { name } } }`,
  `{ X_customers(filter: {orders: {all_of: {status: {eq: "shipped"}}}}, order_by: [{field: "id"}]) { id } }`,
  `{ X_customers(filter: {orders: {none_of: {status: {eq: "cancelled"}}}}, order_by: [{field: "id"}]) { id } }`,
  `{ X_categories(order_by: [{field: "id"}]) { id name children { name } parent { name } products(limit: 1, order_by: [{field: "id"}]) { id } } }`,
  `{ X_products_by_sku(sku: "HW-002") { name price category { name } order_items { order { id } } } X_order_items_by_pk(order_id: 1, line: 2) { total } }`,
  `{ X_customer_revenue(order_by: [{field: "revenue", direction: DESC}]) { customer { name } orders_count revenue } }`,
  `{ X_customers(filter: {name: {ilike: "%a%"}, _not: {email: {is_null: true}}}, order_by: [{field: "id"}], offset: 1, limit: 2) { id } }`,
];

describe('the same queries on DuckDB and PostgreSQL', () => {
  for (const q of QUERIES) {
    it(q.slice(2, 60), async () => {
      const duck = await t.gql(q.replaceAll('X_', 'shop_'));
      const pg = await t.gql(q.replaceAll('X_', 'pg_'));
      expect(duck.body.errors).toBeUndefined();
      expect(pg.body.errors).toBeUndefined();
      // Same values in the same order; JSON object key order may differ (jsonb sorts keys).
      expect(Object.values(pg.body.data)).toEqual(Object.values(duck.body.data));
      expect(JSON.stringify(duck.body.data).length).toBeGreaterThan(20);
    });
  }
});

describe('PostgreSQL core database', () => {
  it('keeps the core tables in PostgreSQL', async () => {
    const r = await t.gql('{ core { data_sources(order_by: [{field: "name"}]) { name type } roles(order_by: [{field: "name"}]) { name } } }');
    expect(r.body.data.core.data_sources).toEqual([{ name: 'pgshop', type: 'postgres' }, { name: 'shop', type: 'duckdb' }]);
    expect(r.body.data.core.roles.map((x: { name: string }) => x.name)).toEqual(['admin', 'public', 'readonly']);
  });

  it('writes through PostgreSQL transactions and rolls back on error', async () => {
    const ok = await t.gql('mutation { insert_pg_tags(data: {id: 50, name: "pg-new"}) { id name } }');
    expect(ok.body.data.insert_pg_tags).toEqual({ id: 50, name: 'pg-new' });
    const bad = await t.gql('mutation { a: insert_pg_tags(data: {id: 51, name: "x"}) { id } b: insert_pg_tags(data: {id: 50, name: "dup"}) { id } }');
    expect(bad.body.data).toBeNull();
    expect(bad.body.errors[0].message).toMatch(/unique constraint violated/);
    const read = await t.gql('{ pg_tags(filter: {id: {gte: 50}}, order_by: [{field: "id"}]) { id name } }');
    expect(read.body.data.pg_tags).toEqual([{ id: 50, name: 'pg-new' }]);
  });

  it('does not show the password of a source in errors', async () => {
    await t.gql(`mutation { core { insert_data_sources(data: {name: "pgdown", type: "postgres", prefix: "down", as_module: false,
      path: "postgres://someone:hunter2secret@127.0.0.1:1/none", catalogs: [{name: "pgdown", type: "localFS", path: "${join(FIXTURES, 'catalogs/inventory')}"}]}) { name } } }`);
    const load = await t.gql('mutation { function { core { load_data_source(name: "pgdown") { success message } } } }');
    expect(load.body.data.function.core.load_data_source.success).toBe(false);
    expect(load.text).not.toContain('hunter2secret');
    const status = await t.gql('{ function { core { data_source_status(name: "pgdown") } } }');
    expect(status.body.data.function.core.data_source_status).toMatch(/^failed: data source "pgdown" \(postgres:\/\/someone:\*\*\*@127.0.0.1:1\/none\) is unreachable/);
  });
});

describe('two svc processes sharing a PostgreSQL core database', () => {
  it('see each other\'s registrations, roles and permissions', async () => {
    const other = await startApp({ CORE_DB_PATH: core.url, SVC_TEST_DIR: t.dir });
    try {
      // Registered through the first process (beforeAll), loaded at start by the second.
      const r = await other.gql('{ pg_tags(order_by: [{field: "id"}], limit: 1) { id } function { core { data_source_status(name: "pgshop") } } }');
      expect(r.body.data).toEqual({ pg_tags: [{ id: 1 }], function: { core: { data_source_status: 'loaded' } } });
      await t.gql('mutation { core { insert_roles(data: {name: "shared_role", description: "made by the first process"}) { name } } }');
      const seen = await other.gql('{ core { roles_by_pk(name: "shared_role") { description } } }');
      expect(seen.body.data.core.roles_by_pk).toEqual({ description: 'made by the first process' });
    } finally {
      await other.close();
    }
  });
});
