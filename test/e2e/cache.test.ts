// The result cache over HTTP (SPEC §9): hit and miss, TTL, isolation per role and user, tag
// invalidation by mutation and by the invalidate function across two processes sharing Redis,
// single flight, and a Redis outage.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

const REDIS = process.env.SVC_TEST_REDIS ?? '127.0.0.1:6379';
const prefix = `svc-test-${randomBytes(4).toString('hex')}:`;
const env = { SECRET_KEY: 'k', CACHE_L1_ENABLED: 'true', CACHE_L2_ENABLED: 'true', CACHE_L2_ADDRESSES: REDIS, CACHE_L2_PREFIX: prefix, CACHE_TTL: '60' };

let a: TestApp;
let b: TestApp;
const count = (app: TestApp) => {
  const seen: string[] = [];
  const stop = app.runtime.executor.observe((_s, sql) => seen.push(sql));
  return { seen, stop };
};
const as = (role: string, user: string) => ({ 'x-svc-secret-key': 'k', 'x-svc-role': role, 'x-svc-user-id': user });

beforeAll(async () => {
  // Two "processes" of one deployment: the same catalogs, the same Redis, each its own core and L1.
  a = await startApp(env);
  b = await startApp({ ...env, SVC_TEST_DIR: a.dir, CORE_DB_PATH: `${a.dir}/core-b.duckdb` });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('@cache', () => {
  it('answers a repeated query from the cache without a statement', async () => {
    const q = '{ shop_tags(order_by: [{field: "id"}]) @cache(ttl: 60) { id name } }';
    const c = count(a);
    const first = await a.gql(q);
    const second = await a.gql(q);
    c.stop();
    expect(second.body).toEqual(first.body);
    expect(c.seen).toHaveLength(1);
  });

  it('expires entries after their TTL', async () => {
    const q = '{ shop_products_by_pk(id: 1) @cache(ttl: 1) { sku } }';
    const c = count(a);
    await a.gql(q);
    await a.gql(q);
    await new Promise((r) => setTimeout(r, 1200));
    await a.gql(q);
    c.stop();
    expect(c.seen).toHaveLength(2);
  });

  it('takes durations as well as seconds: "1s" expires, "5m" stays', async () => {
    const short = '{ shop_products_by_pk(id: 2) @cache(ttl: "1s") { sku } }';
    const long = '{ shop_products_by_pk(id: 3) @cache(ttl: "5m") { sku } }';
    const c = count(a);
    for (const q of [short, long]) expect((await a.gql(q)).body.errors).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1200));
    await a.gql(short);
    await a.gql(long);
    c.stop();
    expect(c.seen).toHaveLength(3);
  });

  it('refuses a ttl that is no duration, before anything runs, naming where it is', async () => {
    const r = await a.gql('{ shop_tags @cache(ttl: "soon") { id } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: null, extensions: {}, errors: [{
      message: 'invalid cache ttl "soon": use seconds (300) or a duration ("30s", "5m", "1h", "24h")',
      locations: [{ line: 1, column: 25 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    }] });
  });

  it('never shares entries between roles or users, even with an explicit key', async () => {
    await a.gql(`mutation { core { insert_roles(data: {name: "own", description: "own orders", permissions: [
      {type_name: "data-object:query", field_name: "shop_orders", filter: {customer_id: {eq: "[$auth.user_id_int]"}}}]}) { name } } }`, undefined, as('admin', 'x'));
    const q = '{ shop_orders(order_by: [{field: "id"}]) @cache(ttl: 60, key: "orders") { id } }';
    const u1 = await a.gql(q, undefined, as('own', '1'));
    const u2 = await a.gql(q, undefined, as('own', '2'));
    const admin = await a.gql(q, undefined, as('admin', '1'));
    expect(u1.body.data.shop_orders).toEqual([{ id: 1 }, { id: 2 }]);
    expect(u2.body.data.shop_orders).toEqual([{ id: 3 }]);
    expect(admin.body.data.shop_orders).toHaveLength(4);
  });

  it('a mutation on one process drops the entries of the objects it writes, on the other too', async () => {
    const q = '{ shop_tags(order_by: [{field: "id"}]) @cache(ttl: 60) { id name } }';
    await b.gql(q);
    const c = count(b);
    await b.gql(q);
    expect(c.seen).toHaveLength(0);
    // The write goes through a; b learns of it only through the shared cache's invalidation.
    await a.gql('mutation { update_shop_tags(filter: {id: {eq: 1}}, data: {name: "classic"}) { affected_rows } }');
    await new Promise((r) => setTimeout(r, 200));
    await b.gql(q);
    c.stop();
    expect(c.seen).toHaveLength(1);
  });

  it('the invalidate function drops tagged entries everywhere', async () => {
    const q = '{ shop_customers(order_by: [{field: "id"}]) @cache(ttl: 60, tags: ["people"]) { id } }';
    await b.gql(q);
    const r = await a.gql('mutation { function { core { cache { invalidate(tags: ["people"]) { success affected_rows } } } } }');
    expect(r.body.data.function.core.cache.invalidate.success).toBe(true);
    await new Promise((r2) => setTimeout(r2, 200));
    const c = count(b);
    await b.gql(q);
    c.stop();
    expect(c.seen).toHaveLength(1);
  });

  it('runs the query once for concurrent misses of one key', async () => {
    const q = '{ shop_order_items_aggregation @cache(ttl: 60, key: "concurrent") { _rows_count } }';
    const c = count(a);
    const results = await Promise.all(Array.from({ length: 20 }, () => a.gql(q)));
    c.stop();
    for (const r of results) expect(r.body.data.shop_order_items_aggregation._rows_count).toBe(6);
    expect(c.seen).toHaveLength(1);
  });

  it('@no_cache and @invalidate_cache', async () => {
    const c = count(a);
    await a.gql('{ shop_categories @cache(ttl: 60) { id } }');
    await a.gql('{ shop_categories @invalidate_cache { id } }');
    await a.gql('{ shop_categories @no_cache { id } }');
    c.stop();
    expect(c.seen).toHaveLength(3);
  });

  it('serves /metrics with cache counters', async () => {
    const r = await a.request({ method: 'GET', url: '/metrics' });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/svc_cache_hits_total\{level="l1"\} [1-9]/);
    expect(r.text).toMatch(/svc_statements_total/);
  });
});

describe('Redis outage', () => {
  it('degrades to L1 only and keeps answering', async () => {
    const down = await startApp({ ...env, CACHE_L2_ADDRESSES: '127.0.0.1:1', SVC_TEST_DIR: a.dir, CORE_DB_PATH: `${a.dir}/core-c.duckdb` });
    try {
      const q = '{ shop_tags(order_by: [{field: "id"}]) @cache(ttl: 60) { id } }';
      const c = count(down);
      expect((await down.gql(q)).body.data.shop_tags).toHaveLength(3);
      expect((await down.gql(q)).body.data.shop_tags).toHaveLength(3);
      c.stop();
      expect(c.seen).toHaveLength(1);
    } finally {
      await down.close();
    }
  });
});

describe('/jq-query cache headers', () => {
  it('stores the transformed body under the key and role, and re-runs on X-Svc-Cache-Invalidate', async () => {
    const payload = JSON.stringify({ jq: '[.data.shop_tags[].name]', query: { query: '{ shop_tags(order_by: [{field: "id"}]) { id name } }' } });
    const post = (headers: Record<string, string>) => a.request({ method: 'POST', url: '/jq-query', payload, headers: { 'content-type': 'application/json', ...headers } });
    const c = count(a);
    const first = await post({ 'x-svc-cache': '60s', 'x-svc-cache-key': 'tag-names' });
    const second = await post({ 'x-svc-cache': '60s', 'x-svc-cache-key': 'tag-names' });
    expect(first.status, first.text).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(c.seen).toHaveLength(1);
    await post({ 'x-svc-cache': '60s', 'x-svc-cache-key': 'tag-names', 'x-svc-cache-invalidate': 'true' });
    c.stop();
    expect(c.seen).toHaveLength(2);
    const bad = await post({ 'x-svc-cache': 'soon' });
    expect(bad.status).toBe(400);
  });
});

describe('@stats and the cache tags of other caches', () => {
  it('reports time and cache hits per field in extensions.<field>.stats', async () => {
    const q = '{ shop_products(order_by: [{field: "id"}]) @stats @cache(ttl: 60, key: "stats-demo") { id } plain: shop_tags @stats { id } }';
    await a.gql(q);
    const r = await a.gql(q);
    expect(r.body.extensions.shop_products.stats).toMatchObject({ cached: true, name: 'shop_products', planning_time: '0s', compile_time: '0s' });
    expect(r.body.extensions.plain.stats).toMatchObject({ cached: false, name: 'plain' });
    expect(r.body.extensions.plain.stats.node_time).toMatch(/^\d+(\.\d+)?(ns|µs|ms|s)$/);
  });

  it('invalidating $role_permissions applies permission changes made behind svc', async () => {
    await a.gql('mutation { core { insert_roles(data: {name: "late", description: "x"}) { name } } }');
    const h = as('late', '1');
    expect((await a.gql('{ shop_tags(limit: 1) { id } }', undefined, h)).body.errors).toBeUndefined();
    await a.runtime.core.runtime.exec(`INSERT INTO role_permissions (role, type_name, field_name, disabled) VALUES ('late', 'shop_tags', '*', TRUE)`);
    expect((await a.gql('{ shop_tags(limit: 1) { id } }', undefined, h)).body.errors).toBeUndefined();
    await a.gql('mutation { function { core { cache { invalidate(tags: ["$role_permissions"]) { success } } } } }');
    expect((await a.gql('{ shop_tags(limit: 1) { id } }', undefined, h)).body.errors[0].message).toBe('forbidden');
  });
});

describe('cached functions', () => {
  it('a catalog @cache on a function caches its result until a write to its source', async () => {
    const q = '{ function { shop_order_total(order_id: 1) } }';
    const c = count(a);
    expect((await a.gql(q)).body.data.function.shop_order_total).toBe(87.5);
    await a.gql(q);
    expect(c.seen).toHaveLength(1);
    await a.gql('mutation { update_shop_order_items(filter: {order_id: {eq: 1}, line: {eq: 1}}, data: {quantity: 2}) { affected_rows } }');
    await new Promise((r) => setTimeout(r, 100));
    expect((await a.gql(q)).body.data.function.shop_order_total).toBe(137);
    await a.gql('mutation { update_shop_order_items(filter: {order_id: {eq: 1}, line: {eq: 1}}, data: {quantity: 1}) { affected_rows } }');
    c.stop();
  });
});
