// /subscribe (SPEC §13): graphql-ws subscriptions that re-run a query every interval, with the
// connection authenticated by the providers of HTTP.
import { buildClientSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
let ws: string;
const SECRET = 'subscribe-test-secret';
const clients: Client[] = [];

function connect(connectionParams: Record<string, unknown> = {}): Client {
  const c = createClient({ url: ws, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
  clients.push(c);
  return c;
}

/** Collects the results of one subscription until it completes or fails. */
function results(c: Client, query: string, variables?: Record<string, unknown>): Promise<{ results: ExecutionResult[]; error?: unknown }> {
  const results: ExecutionResult[] = [];
  return new Promise((done) => {
    c.subscribe({ query, ...(variables ? { variables } : {}) }, {
      next: (r) => results.push(r as ExecutionResult),
      error: (error) => done({ results, error }),
      complete: () => done({ results }),
    });
  });
}

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: SECRET, ALLOWED_ANONYMOUS: 'false', ALLOW_MANAGED_API_KEYS: 'true' });
  await t.app.listen(0, '127.0.0.1');
  ws = (await t.app.getUrl()).replace('[::1]', '127.0.0.1').replace(/^http/, 'ws') + '/subscribe';
  await t.gql('mutation { core { insert_roles(data: {name: "viewer", description: "v"}) { name } } }', undefined, { 'x-svc-secret-key': SECRET });
  await t.gql('mutation { core { insert_api_keys(data: {name: "k1", description: "", key: "viewer-key", default_role: "viewer"}) { name } } }', undefined, { 'x-svc-secret-key': SECRET });
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t?.close();
});

describe('/subscribe', () => {
  it('re-runs the query every interval, count times, with the results of /query', async () => {
    const admin = connect({ 'x-svc-secret-key': SECRET });
    const started = Date.now();
    const { results: rs, error } = await results(admin, 'subscription { query(interval: "1s", count: 3) { shop_customers(order_by: [{field: "id"}], limit: 2) { id name } } }');
    expect(JSON.stringify(error)).toBeUndefined();
    expect(rs).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    const json = (await t.gql('{ shop_customers(order_by: [{field: "id"}], limit: 2) { id name } }', undefined, { 'x-svc-secret-key': SECRET })).body.data;
    for (const r of rs) expect(r.data).toEqual({ query: json });
  });

  it('passes variables to the inner query and keeps the alias of the query field', async () => {
    const c = connect({ 'x-svc-secret-key': SECRET });
    const { results: rs } = await results(c, 'subscription ($n: Int!, $every: String) { dash: query(interval: $every, count: 1) { shop_customers(limit: $n) { id } } }', { n: 1, every: '5s' });
    expect(rs).toEqual([{ data: { dash: { shop_customers: [{ id: 1 }] } } }]);
  });

  it('refuses a connection without valid credentials, and identity override without the secret key', async () => {
    const none = await results(connect(), 'subscription { query(count: 1) { shop_customers { id } } }');
    expect(none.results).toEqual([]);
    expect((none.error as { code?: number }).code).toBe(4403);
    const wrong = await results(connect({ Authorization: 'Bearer wrong' }), 'subscription { query(count: 1) { shop_customers { id } } }');
    expect((wrong.error as { code?: number }).code).toBe(4403);
    // A valid API key works; the same key with an identity override is refused (seed 000), not ignored.
    const key = await results(connect({ 'x-svc-api-key': 'viewer-key' }), 'subscription { query(count: 1) { function { core { auth { me { role } } } } } }');
    expect(key.results).toEqual([{ data: { query: { function: { core: { auth: { me: { role: 'viewer' } } } } } } }]);
    const override = await results(connect({ 'x-svc-api-key': 'viewer-key', 'x-svc-role': 'admin' }), 'subscription { query(count: 1) { shop_customers { id } } }');
    expect((override.error as { code?: number }).code).toBe(4403);
    // The secret key may impersonate; the role's rules then apply to each result.
    const viewer = connect({ 'x-svc-secret-key': SECRET, 'x-svc-role': 'viewer' });
    const { results: rs } = await results(viewer, 'subscription { query(count: 1) { function { core { auth { me { role auth_type } } } } } }');
    expect(rs[0]!.data).toEqual({ query: { function: { core: { auth: { me: { role: 'viewer', auth_type: 'impersonation' } } } } } });
  });

  it('sends the error of an invalid inner query once and completes, instead of at every interval', async () => {
    const c = connect({ 'x-svc-secret-key': SECRET });
    const { results: rs, error } = await results(c, 'subscription { query(interval: "1s", count: 0) { shop_orders_aggregation { _rows_count no_such_field { sum } } } }');
    expect(error).toBeUndefined();
    expect(rs).toHaveLength(1);
    expect(rs[0]!.data).toBeNull();
    expect(JSON.stringify(rs[0]!.errors)).toContain('no_such_field');
  });

  it('refuses documents that are not a periodic query', async () => {
    const c = connect({ 'x-svc-secret-key': SECRET });
    const q = await results(c, '{ shop_customers { id } }');
    expect(String((q.error as { message?: string }[])[0]?.message)).toMatch(/send querys to \/query|runs subscriptions/);
    const fast = await results(c, 'subscription { query(interval: "10ms") { shop_customers { id } } }');
    expect(String((fast.error as { message?: string }[])[0]?.message)).toMatch(/interval must be at least 1s/);
  });

  it('stops when the role is disabled', async () => {
    const viewer = connect({ 'x-svc-secret-key': SECRET, 'x-svc-role': 'viewer' });
    const running = results(viewer, 'subscription { query(interval: "1s", count: 0) { shop_customers(limit: 1) { id } } }');
    await new Promise((r) => setTimeout(r, 1500));
    await t.gql('mutation { core { update_roles(filter: {name: {eq: "viewer"}}, data: {disabled: true}) { affected_rows } } }', undefined, { 'x-svc-secret-key': SECRET });
    const { results: rs } = await running;
    expect(rs.length).toBeGreaterThanOrEqual(2);
    expect(rs.at(-1)!.errors?.[0]?.message).toMatch(/^subscription ended: .*viewer/);
  });

  it('is declared in the served schema, so tools validate it, and /query refuses it naming /subscribe', async () => {
    const intro = await t.gql('{ __schema { subscriptionType { name fields { name args { name defaultValue type { name } } type { name } } } } }', undefined, { 'x-svc-secret-key': SECRET });
    expect(intro.body.data.__schema.subscriptionType).toEqual({
      name: 'Subscription',
      fields: [{ name: 'query', type: { name: 'Query' }, args: [{ name: 'interval', defaultValue: null, type: { name: 'Interval' } }, { name: 'count', defaultValue: '0', type: { name: 'Int' } }] }],
    });
    // What a client tool does with the schema: the documented subscription validates; a typo does not.
    const full = await t.gql(getIntrospectionQuery(), undefined, { 'x-svc-secret-key': SECRET });
    const schema = buildClientSchema(full.body.data);
    expect(validate(schema, parse('subscription { query(interval: "10s", count: 2) { shop_customers { id name } } }'))).toEqual([]);
    expect(validate(schema, parse('subscription { query(interval: "10s") { shop_customers { id nope } } }')).map((e) => e.message)).toEqual([
      'Cannot query field "nope" on type "shop_customers". Did you mean "name"?',
    ]);
    const viaQuery = await t.gql('subscription { query(count: 1) { shop_customers { id } } }', undefined, { 'x-svc-secret-key': SECRET });
    expect(viaQuery.body.data ?? null).toBeNull();
    expect(viaQuery.body.errors.map((e: { message: string; extensions: { code: string } }) => [e.extensions.code, e.message])).toEqual([
      ['GRAPHQL_VALIDATION_FAILED', 'subscriptions are served over WebSocket on /subscribe (graphql-ws); send queries and mutations here'],
    ]);
  });
});

