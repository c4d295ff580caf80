// hugr's cache page (issue 32): docs/4-engine-configuration/6-cache.md — @cache on catalog types and on
// query fields (ttl, key, tags), @no_cache, @invalidate_cache, core.cache.invalidate, writes dropping
// tagged results, the role-permission entries, @cache inside querySvc (hugr's queryHugr), and L1 + L2
// (Redis) shared by two processes. A statement counter tells a cached answer from a computed one.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { data, writeSource } from './support.js';

const REDIS = process.env.SVC_TEST_REDIS ?? '127.0.0.1:6379';
const KEY = { 'x-svc-secret-key': 'compat-cache' };
const as = (role: string, user = '1') => ({ ...KEY, 'x-svc-role': role, 'x-svc-user-id': user });
const env = {
  SECRET_KEY: 'compat-cache', CACHE_L1_ENABLED: 'true', CACHE_L2_ENABLED: 'true', CACHE_L2_BACKEND: 'redis', CACHE_L2_ADDRESSES: REDIS,
  CACHE_L2_PREFIX: `svc-compat-${randomBytes(4).toString('hex')}:`, CACHE_TTL: '5m',
};

const SCHEMA = `type products @table(name: "products") @cache(ttl: 600, tags: ["products"]) {
  id: Int! @pk
  name: String!
  price: Float!
  category: String!
  stock_quantity: Int!
}

type categories @table(name: "categories") @cache(ttl: 3600, tags: ["categories"]) {
  id: Int! @pk
  name: String!
}

type users @table(name: "users") @cache(ttl: 300) {
  id: Int! @pk
  name: String!
  email: String!
}

type orders @table(name: "orders") @cache(ttl: 300, tags: ["orders", "sales"]) {
  id: Int! @pk
  customer_id: Int!
  total: Float!
  status: String!
}

type payments @table(name: "payments") @cache(ttl: 300, tags: ["payments", "sales"]) {
  id: Int! @pk
  order_id: Int!
  amount: Float!
}

type visits @table(name: "visits") {
  id: Int! @pk
  page: String!
}
`;

const SEED = `
CREATE TABLE products (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, price DOUBLE NOT NULL, category VARCHAR NOT NULL, stock_quantity INTEGER NOT NULL);
INSERT INTO products VALUES (1, 'Laptop', 1200, 'electronics', 5), (2, 'Phone', 800, 'electronics', 9), (3, 'Novel', 15, 'books', 40), (4, 'Cable', 9, 'electronics', 100);
CREATE TABLE categories (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
INSERT INTO categories VALUES (1, 'electronics'), (2, 'books');
CREATE TABLE users (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, email VARCHAR NOT NULL);
INSERT INTO users VALUES (1, 'Ann', 'ann@example.com'), (2, 'Ben', 'ben@example.com');
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, total DOUBLE NOT NULL, status VARCHAR NOT NULL);
INSERT INTO orders VALUES (1, 1, 100, 'pending'), (2, 2, 250, 'completed'), (3, 1, 40, 'completed');
CREATE TABLE payments (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, amount DOUBLE NOT NULL);
INSERT INTO payments VALUES (1, 2, 250);
CREATE TABLE visits (id INTEGER PRIMARY KEY, page VARCHAR NOT NULL);
INSERT INTO visits VALUES (1, '/');
`;

let a: TestApp;
let b: TestApp;
/** Statements `app` runs while `run` runs. */
async function statements(app: TestApp, run: () => Promise<unknown>): Promise<number> {
  const seen: string[] = [];
  const stop = app.runtime.executor.observe((_s, sql) => seen.push(sql));
  try {
    await run();
  } finally {
    stop();
  }
  return seen.length;
}
/** Whether `app` computes `query` again within a few seconds (a cached answer runs no statement). */
async function recomputes(app: TestApp, query: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if ((await statements(app, () => data(app, query))) > 0) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
const sql = (app: TestApp, text: string) => app.runtime.registry.get('shop')!.runtime.exec(text);

beforeAll(async () => {
  const dir = join(tempDir(), 'catalogs');
  writeSource(dir, 'shop', { 'source.yaml': 'type: duckdb\npath: shop.duckdb\ncreate: true\nseed: seed.sql\n', 'seed.sql': SEED, 'schema.graphql': SCHEMA });
  a = await startApp({ ...env, CATALOGS_DIR: dir });
  // A second process of the deployment with L2 only (the page's "Option 2"): the same catalogs and Redis.
  b = await startApp({ ...env, CACHE_L1_ENABLED: 'false', CATALOGS_DIR: dir, SVC_TEST_DIR: a.dir, CORE_DB_PATH: join(a.dir, 'core-b.duckdb') });
}, 90_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('docs/4-engine-configuration/6-cache.md', () => {
  it('@cache on a catalog type caches every query of it (L1, and L2 for another process); other types run each time', async () => {
    const q = '{ products(order_by: [{field: "id"}]) { id name price } electronics: products(filter: {category: {eq: "electronics"}}, order_by: [{field: "id"}]) { id name } }';
    const first = await data(a, q);
    expect(first.electronics).toEqual([{ id: 1, name: 'Laptop' }, { id: 2, name: 'Phone' }, { id: 4, name: 'Cable' }]);
    expect(await statements(a, async () => expect(await data(a, q)).toEqual(first))).toBe(0);
    // Process b has no L1: its answer comes from Redis.
    expect(await statements(b, async () => expect(await data(b, q)).toEqual(first))).toBe(0);
    expect(await statements(a, () => data(a, '{ visits { id } }'))).toBe(1);
    expect(await statements(a, () => data(a, '{ visits { id } }'))).toBe(1);
  });

  it('@cache at query time with ttl, key and tags on two fields of one query', async () => {
    const q = `{
      topProducts: visits(filter: {page: {eq: "/"}}, limit: 10) @cache(ttl: 300, key: "top_electronics", tags: ["products"]) { id page }
      budgetProducts: products(filter: {price: {lt: 100}}, order_by: [{field: "id"}]) @cache(ttl: 600, tags: ["products", "budget"]) { id name price }
    }`;
    const first = await data(a, q);
    expect(first.budgetProducts).toEqual([{ id: 3, name: 'Novel', price: 15 }, { id: 4, name: 'Cable', price: 9 }]);
    expect(await statements(a, () => data(a, q))).toBe(0);
    // Dropping the tag "budget" drops only the entry that carries it.
    await data(a, 'mutation { function { core { cache { invalidate(tags: ["budget"]) { success } } } } }', undefined, KEY);
    expect(await statements(a, () => data(a, q))).toBe(1);
  });

  it('automatic keys: the same query with other variables is another entry, the same variables the same entry', async () => {
    const q = 'query GetUser($userId: Int!) { users(filter: { id: { eq: $userId } }) @cache(ttl: 300) { id name email } }';
    expect((await data(a, q, { userId: 1 })).users).toEqual([{ id: 1, name: 'Ann', email: 'ann@example.com' }]);
    expect(await statements(a, async () => expect((await data(a, q, { userId: 2 })).users[0].name).toBe('Ben'))).toBe(1);
    expect(await statements(a, async () => expect((await data(a, q, { userId: 1 })).users[0].name).toBe('Ann'))).toBe(0);
  });

  it('a custom key names the entry whatever the query text; entries stay per role even with a key (documented difference)', async () => {
    await data(a, `mutation { core {
      insert_roles(data: {name: "shopper", description: "pending orders only"}) { name }
      insert_role_permissions(data: {role: "shopper", type_name: "orders", field_name: "*", filter: {status: {eq: "pending"}}}) { role }
    } }`, undefined, KEY);
    const q = (alias: string) => `{ ${alias}: orders(order_by: [{field: "id"}]) @cache(ttl: 600, key: "dashboard:orders") { id } }`;
    expect((await data(a, q('all'), undefined, as('admin'))).all).toHaveLength(3);
    // Another text under the same key is the same entry for the same caller...
    expect(await statements(a, async () => expect((await data(a, q('again'), undefined, as('admin'))).again).toHaveLength(3))).toBe(0);
    // ...but another role never reads it: it would show rows the role may not see.
    expect((await data(a, q('mine'), undefined, as('shopper'))).mine).toEqual([{ id: 1 }]);
  });

  it('TTL: an entry of ttl 1 expires, one of 3600 stays', async () => {
    const short = '{ categories(filter: {id: {eq: 1}}) @cache(ttl: 1) { id name } }';
    const long = '{ categories(filter: {id: {eq: 2}}) @cache(ttl: 3600) { id name } }';
    await data(a, short);
    await data(a, long);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await statements(a, () => data(a, short))).toBe(1);
    expect(await statements(a, () => data(a, long))).toBe(0);
  });

  it('tags may come from variables; each variable combination is its own entry', async () => {
    const q = 'query FilteredProducts($category: String!, $minPrice: Float!) { products(filter: { category: {eq: $category}, price: { gte: $minPrice } }, order_by: [{field: "id"}]) @cache(ttl: 300, tags: ["products", $category]) { id name price } }';
    const electronics = { category: 'electronics', minPrice: 100 };
    const books = { category: 'books', minPrice: 10 };
    expect((await data(a, q, electronics)).products.map((p: any) => p.id)).toEqual([1, 2]);
    expect((await data(a, q, books)).products.map((p: any) => p.id)).toEqual([3]);
    await data(a, 'mutation { function { core { cache { invalidate(tags: ["books"]) { success affected_rows } } } } }', undefined, KEY);
    expect(await statements(a, () => data(a, q, electronics))).toBe(0);
    expect(await statements(a, () => data(a, q, books))).toBe(1);
  });

  it('@no_cache runs the field every time, also over a type cached by its catalog', async () => {
    const q = '{ allUsers: users { id name } currentUser: users @no_cache { id name email } }';
    await data(a, q);
    // allUsers comes from the cache, currentUser runs.
    expect(await statements(a, () => data(a, q))).toBe(1);
    await sql(a, "UPDATE users SET email = 'ann@new.example' WHERE id = 1");
    const d = await data(a, q);
    expect(d.currentUser[0].email).toBe('ann@new.example');
  });

  it('@invalidate_cache refreshes the field and, with tags, drops every entry carrying them', async () => {
    const list = '{ orders(order_by: [{field: "id"}]) @cache(ttl: 300, tags: ["orders"]) { id total status } }';
    const stats = '{ orderStats: orders_aggregation @cache(ttl: 300, tags: ["orders"]) { _rows_count total { sum } } }';
    await data(a, list);
    expect((await data(a, stats)).orderStats).toEqual({ _rows_count: 3, total: { sum: 390 } });
    // A change made behind svc: the cached answers do not know it yet.
    await sql(a, 'UPDATE orders SET total = 50 WHERE id = 3');
    expect((await data(a, stats)).orderStats.total.sum).toBe(390);
    const fresh = await data(a, '{ orders(order_by: [{field: "id"}]) @invalidate_cache @cache(ttl: 300, tags: ["orders"]) { id total status } }');
    expect(fresh.orders[2].total).toBe(50);
    // The other query tagged "orders" was dropped too.
    expect((await data(a, stats)).orderStats.total.sum).toBe(400);
    // So was the list itself under its own text; computed once more, then cached again.
    expect((await data(a, list)).orders[2].total).toBe(50);
    expect(await statements(a, () => data(a, list))).toBe(0);
  });

  it('a mutation drops the entries tagged with its object\'s catalog tags, in the other process too', async () => {
    const q = '{ payments(order_by: [{field: "id"}]) { id amount } }';
    const other = '{ products(order_by: [{field: "id"}]) { id name price } }';
    await data(b, q);
    await data(a, q);
    await data(a, other);
    expect(await statements(b, () => data(b, q))).toBe(0);
    expect(await statements(a, () => data(a, q))).toBe(0);
    // orders and payments share the tag "sales": writing orders drops the cached payments, in Redis
    // (process b computes them again; the invalidation may arrive just after the mutation's answer).
    await data(a, 'mutation { insert_orders(data: {id: 4, customer_id: 2, total: 75, status: "pending"}) { id } }', undefined, KEY);
    expect(await recomputes(b, q)).toBe(true);
    // A table without the tag keeps its entries.
    expect(await statements(a, () => data(a, other))).toBe(0);
  });

  it('core.cache.invalidate as hugr declares it (a query function) and as a mutation function: success, affected_rows, message', async () => {
    const q = '{ analytics: orders_aggregation @cache(ttl: 3600, tags: ["analytics"]) { _rows_count total { sum } } }';
    await data(a, q);
    const viaQuery = await data(a, 'query RefreshAnalyticsCache { invalidate: function { core { cache { invalidate(tags: ["analytics"]) { success affected_rows message } } } } }', undefined, KEY);
    expect(viaQuery.invalidate.core.cache.invalidate).toMatchObject({ success: true, message: 'invalidated tags analytics' });
    expect(viaQuery.invalidate.core.cache.invalidate.affected_rows).toBeGreaterThanOrEqual(1);
    expect(await statements(a, () => data(a, q))).toBe(1);
    const viaMutation = await data(a, 'mutation ClearDashboardCache { clearCache: function { core { cache { invalidate(tags: ["analytics", "reports", "stats"]) { success } } } } }', undefined, KEY);
    expect(viaMutation.clearCache.core.cache.invalidate.success).toBe(true);
    expect(await statements(a, () => data(a, q))).toBe(1);
    // As every core function, it is the admin's.
    const denied = await a.gql('{ function { core { cache { invalidate(tags: ["analytics"]) { success } } } } }', undefined, as('shopper'));
    expect(denied.body.errors?.[0]?.message, denied.text).toMatch(/^forbidden/);
  });

  it('role permissions under hugr\'s key and tag: RolePermissions:<role>, $role_permissions', async () => {
    const q = `query ($role: String!, $cacheKey: String) { core {
      info: roles_by_pk(name: $role) @cache(key: $cacheKey, tags: ["$role_permissions"], ttl: 3600) {
        name disabled permissions { type_name field_name hidden disabled filter data }
      }
    } }`;
    await data(a, `mutation { core {
      insert_roles(data: {name: "auditor", description: "payments only"}) { name }
      insert_role_permissions(data: {role: "auditor", type_name: "payments", field_name: "amount", hidden: true}) { role }
    } }`, undefined, KEY);
    const vars = { role: 'auditor', cacheKey: 'RolePermissions:auditor' };
    const first = await data(a, q, vars, KEY);
    expect(first.core.info).toEqual({ name: 'auditor', disabled: false, permissions: [{ type_name: 'payments', field_name: 'amount', hidden: true, disabled: false, filter: null, data: null }] });
    expect(await statements(a, () => data(a, q, vars, KEY))).toBe(0);
    await a.runtime.core.runtime.exec("UPDATE roles SET disabled = true WHERE name = 'auditor'");
    const r = await data(a, 'mutation { function { core { cache { invalidate(tags: ["$role_permissions"]) { success affected_rows message } } } } }', undefined, KEY);
    expect(r.function.core.cache.invalidate.success).toBe(true);
    expect((await data(a, q, vars, KEY)).core.info.disabled).toBe(true);
  });

  it('@cache inside a jq program\'s querySvc (hugr\'s queryHugr): the inner query runs once', async () => {
    const q = `{ enriched: jq(query: "querySvc(\\"{ stats: products_bucket_aggregation @cache(ttl: 600, tags: [\\\\\\"stats\\\\\\"]) { key { category } aggregations { _rows_count } } }\\").data.stats as $stats | .visits | map(. + {categories: ($stats | length)})") { visits { id } } }`;
    const run = async () => (await a.gql(q)).body;
    const first = await run();
    expect(first.errors, JSON.stringify(first)).toBeUndefined();
    expect(first.extensions.jq.enriched).toEqual([{ id: 1, categories: 2 }]);
    // The outer visits run again (not cached); the inner aggregation comes from the cache.
    expect(await statements(a, run)).toBe(1);
  });

  it('@skip / @include choose between a cached and an uncached field (the cache-aside pattern)', async () => {
    const q = `query Dashboard($useCache: Boolean!) {
      stats: visits_aggregation @cache(ttl: 300) @include(if: $useCache) { _rows_count }
      freshStats: visits_aggregation @no_cache @skip(if: $useCache) { _rows_count }
    }`;
    expect(await data(a, q, { useCache: true })).toEqual({ stats: { _rows_count: 1 } });
    expect(await statements(a, () => data(a, q, { useCache: true }))).toBe(0);
    await sql(a, "INSERT INTO visits VALUES (2, '/about')");
    expect(await data(a, q, { useCache: false })).toEqual({ freshStats: { _rows_count: 2 } });
    expect(await data(a, q, { useCache: true })).toEqual({ stats: { _rows_count: 1 } });
  });
});
