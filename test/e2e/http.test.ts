// The HTTP surface of SPEC §1: shapes and status codes, GET and POST, bad bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'the-secret', MAX_BODY_SIZE: '65536' });
});
afterAll(() => t.close());

describe('POST /query', () => {
  it('answers data with an empty extensions object', async () => {
    const r = await t.gql('{ shop_tags(order_by: [{field: "id"}]) { id name } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { shop_tags: [{ id: 1, name: 'classic' }, { id: 2, name: 'bestseller' }, { id: 3, name: 'gadget' }] }, extensions: {} });
  });

  it('takes variables and an operation name', async () => {
    const payload = JSON.stringify({ query: 'query A { shop_tags(limit: 1) { id } } query B($id: Int!) { shop_tags_by_pk(id: $id) { name } }', variables: { id: 2 }, operationName: 'B' });
    const r = await t.request({ method: 'POST', url: '/query', payload, headers: { 'content-type': 'application/json' } });
    expect(r.body.data).toEqual({ shop_tags_by_pk: { name: 'bestseller' } });
  });

  it('gives 400 with a code for malformed JSON', async () => {
    const r = await t.request({ method: 'POST', url: '/query', payload: '{"query": ', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeNull();
    expect(r.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(r.body.errors[0].message).toMatch(/malformed JSON/);
  });

  it('gives 400 with a location for a GraphQL syntax error', async () => {
    const r = await t.gql('{ shop_tags { id ');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(r.body.errors[0].locations[0]).toEqual({ line: 1, column: 18 });
  });

  it('gives 200, data null and the exact message for an unknown field', async () => {
    const r = await t.gql('{ shop_tags { id nope } }');
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.errors[0].message).toMatch(/^Cannot query field "nope" on type "shop_tags"\./);
    expect(r.body.errors[0].locations).toEqual([{ line: 1, column: 18 }]);
  });

  it('names a missing required argument', async () => {
    const r = await t.gql('{ shop_tags_by_pk { id } }');
    expect(r.status).toBe(200);
    expect(r.body.errors[0].message).toBe('Field "shop_tags_by_pk" argument "id" of type "Int!" is required, but it was not provided.');
  });

  it('follows GraphQL-over-HTTP status codes for application/graphql-response+json clients', async () => {
    const r = await t.gql('{ shop_tags { nope } }', undefined, { accept: 'application/graphql-response+json' });
    expect(r.status).toBe(400);
    expect(String(r.headers['content-type'])).toMatch(/application\/graphql-response\+json/);
  });

  it('refuses bodies over MAX_BODY_SIZE with 413 and keeps serving', async () => {
    const big = JSON.stringify({ query: `{ shop_tags { id } } #${'x'.repeat(70_000)}` });
    const r = await t.request({ method: 'POST', url: '/query', payload: big, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(413);
    expect(r.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await t.gql('{ shop_tags(limit: 1) { id } }')).status).toBe(200);
  });

  it('refuses non-JSON POST bodies with 415', async () => {
    const r = await t.request({ method: 'POST', url: '/query', payload: '{"query":"{ shop_tags { id } }"}', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
  });

  it('gives 401 for a wrong secret key, without echoing it', async () => {
    const r = await t.gql('{ shop_tags { id } }', undefined, { 'x-svc-secret-key': 'not-the-secret' });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(r.text).not.toContain('not-the-secret');
  });

  it('gives 401 for an unknown bearer token instead of falling back to anonymous', async () => {
    const r = await t.gql('{ shop_tags { id } }', undefined, { authorization: 'Bearer abc.def' });
    expect(r.status).toBe(401);
    expect(r.text).not.toContain('abc.def');
  });

  it('gives 403 for a disabled role', async () => {
    const admin = { 'x-svc-secret-key': 'the-secret' };
    await t.gql('mutation { core { insert_roles(data: {name: "blocked", description: "b", disabled: true}) { name } } }', undefined, admin);
    const r = await t.gql('{ shop_tags { id } }', undefined, { ...admin, 'x-svc-role': 'blocked' });
    expect(r.status).toBe(403);
    expect(r.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const unknown = await t.gql('{ shop_tags { id } }', undefined, { ...admin, 'x-svc-role': 'nobody' });
    expect(unknown.status).toBe(403);
  });

  it('rejects queries deeper than MAX_DEPTH', async () => {
    const r = await t.gql('{ shop_customers { orders { customer { orders { customer { orders { customer { name } } } } } } } }');
    expect(r.status).toBe(200);
    expect(r.body.errors[0].message).toMatch(/exceeds the maximum depth 7/);
  });
});

describe('GET /query', () => {
  it('runs a query from the URL with JSON variables', async () => {
    const q = encodeURIComponent('query($id: Int!) { shop_tags_by_pk(id: $id) { name } }');
    const v = encodeURIComponent(JSON.stringify({ id: 3 }));
    const r = await t.request({ method: 'GET', url: `/query?query=${q}&variables=${v}` });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { shop_tags_by_pk: { name: 'gadget' } }, extensions: {} });
  });

  it('refuses mutations over GET', async () => {
    const q = encodeURIComponent('mutation { delete_shop_tags(filter: {id: {eq: 1}}) { affected_rows } }');
    const r = await t.request({ method: 'GET', url: `/query?query=${q}` });
    expect(r.status).toBe(405);
    expect((await t.gql('{ shop_tags_by_pk(id: 1) { id } }')).body.data.shop_tags_by_pk).toEqual({ id: 1 });
  });
});

describe('other endpoints', () => {
  it('serves the explorer and its assets from the installed packages', async () => {
    const page = await t.request({ method: 'GET', url: '/admin' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('/admin/assets/graphiql.js');
    const js = await t.request({ method: 'GET', url: '/admin/assets/graphiql.js' });
    expect(js.status).toBe(200);
    expect(js.text.length).toBeGreaterThan(100_000);
  });

  it('reports health', async () => {
    const r = await t.request({ method: 'GET', url: '/health' });
    expect(r.body.status).toBe('ok');
    expect(r.body.sources).toMatchObject({ core: 'loaded', shop: 'loaded' });
  });

  it('answers unknown paths with 404 in the error shape', async () => {
    const r = await t.request({ method: 'GET', url: '/nowhere' });
    expect(r.status).toBe(404);
    expect(r.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('order_by', () => {
  it('is an error when the path is not selected', async () => {
    const r = await t.gql('{ shop_tags(order_by: [{field: "id"}]) { name } }');
    expect(r.body.data.shop_tags).toBeNull();
    expect(r.body.errors[0].message).toBe('order_by field "id" of "shop_tags" is not selected');
    expect(r.body.errors[0].path).toEqual(['shop_tags']);
  });
});

describe('core.auth.me', () => {
  it('tells an anonymous caller who they are', async () => {
    const r = await t.gql('{ function { core { auth { me { user_name role auth_type impersonated_by_user_id } } } } }');
    expect(r.body.data.function.core.auth.me).toEqual({ user_name: 'anonymous', role: 'admin', auth_type: 'anonymous', impersonated_by_user_id: null });
  });

  it('shows impersonation under the secret key', async () => {
    const r = await t.gql('{ function { core { auth { me { user_id role auth_type impersonated_by_user_role } } } } }', undefined, { 'x-svc-secret-key': 'the-secret', 'x-svc-role': 'public', 'x-svc-user-id': 'u7' });
    expect(r.body.data.function.core.auth.me).toEqual({ user_id: 'u7', role: 'public', auth_type: 'impersonation', impersonated_by_user_role: 'admin' });
  });
});

describe('ALLOW_PARALLEL=false and MAX_PARALLEL_QUERIES', () => {
  it('still answers every root field, one statement after another', async () => {
    const serial = await startApp({ ALLOW_PARALLEL: 'false', MAX_PARALLEL_QUERIES: '1' });
    try {
      const seen: string[] = [];
      serial.runtime.executor.observe((_s, sql) => seen.push(sql));
      const r = await serial.gql('{ a: shop_tags(order_by: [{field: "id"}]) { id } b: shop_customers_aggregation { _rows_count } c: shop_products_by_sku(sku: "HW-001") { id } }');
      expect(r.body.data).toEqual({ a: [{ id: 1 }, { id: 2 }, { id: 3 }], b: { _rows_count: 4 }, c: { id: 3 } });
      expect(seen).toHaveLength(3);
    } finally {
      await serial.close();
    }
  });
});

describe('MAX_PARALLEL_QUERIES by default', () => {
  it('is finite, sized to the pools: 4 DuckDB connections + 10 PostgreSQL ones', async () => {
    let running = 0;
    let most = 0;
    const stopStart = t.runtime.executor.observe(() => void (most = Math.max(most, ++running)));
    const stopEnd = t.runtime.executor.observeDuration(() => void running--);
    try {
      const q = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: shop_customers(filter: {id: {eq: ${i}}}) { id orders { id } }`).join(' ')} }`;
      // Signed in: anonymous callers together hold at most ANONYMOUS_SOURCE_SHARE of a pool (one of
      // DuckDB's four connections), which would hide the pool bound this test is about.
      const answers = await Promise.all(Array.from({ length: 10 }, () => t.gql(q, undefined, { 'x-svc-secret-key': 'the-secret' })));
      for (const r of answers) expect(r.body.errors, r.text).toBeUndefined();
    } finally {
      stopStart();
      stopEnd();
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(14);
  });
});

describe('introspection', () => {
  it('the standard introspection query of GraphQL tools passes MAX_DEPTH and returns the generated surface', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const r = await t.gql(getIntrospectionQuery());
    expect(r.body.errors).toBeUndefined();
    const types = r.body.data.__schema.types.map((x: { name: string }) => x.name);
    expect(types).toEqual(expect.arrayContaining(['shop_customers', 'shop_customers_filter', '_shop_customers_aggregation', 'shop_customers_mut_input_data', 'OperationResult']));
  });

  it('a deliberately deep introspection query is still refused', async () => {
    const r = await t.gql('{ __schema { types { fields { type { fields { type { fields { type { name } } } } } } } } }');
    expect(r.body.errors[0].message).toMatch(/exceeds the maximum depth 7/);
  });
});
