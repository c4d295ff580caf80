// The fast path and the plan caches, end to end on both dialects (issue 16): a catalog read is
// answered from the database's JSON without graphql-js, a repeated request parses, validates and
// plans nothing, and what the fast path cannot prove identical is completed by graphql-js from
// the answer already fetched (one statement, the same errors).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Dialects, startDialects } from '../support/dialects.js';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

/** Counter values of /metrics, by `name{labels}`. */
async function counters(app: TestApp): Promise<Map<string, number>> {
  const r = await app.request({ method: 'GET', url: '/metrics' });
  const out = new Map<string, number>();
  for (const line of r.text.split('\n')) {
    const m = /^(svc_(?:planning|fast_path|prepared)_total\{[^}]*\}) (\d+)/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/** How much each counter grew while `fn` ran. */
async function growth(app: TestApp, fn: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await counters(app);
  await fn();
  const after = await counters(app);
  const out: Record<string, number> = {};
  for (const [k, v] of after) if (v - (before.get(k) ?? 0)) out[k] = v - (before.get(k) ?? 0);
  return out;
}

const PARSE = 'svc_planning_total{step="parse"}';
const VALIDATE = 'svc_planning_total{step="validate"}';
const PLAN = 'svc_planning_total{step="plan"}';
const SPLICED = 'svc_fast_path_total{outcome="spliced"}';
const WRITTEN = 'svc_fast_path_total{outcome="written"}';
const GENERAL = 'svc_fast_path_total{outcome="general"}';
const PREPARED = 'svc_prepared_total{outcome="answered"}';
const TO_APOLLO = 'svc_prepared_total{outcome="apollo"}';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

const Q = `query Orders($limit: Int!) {
  __typename
  first: shop_orders(order_by: [{field: "id"}], limit: $limit) { __typename id note when: ordered_at ...Who }
  one: shop_orders_by_pk(id: 2) { id status }
  none: shop_orders_by_pk(id: 999) { id }
}
fragment Who on shop_orders { customer { name email } items(nested_order_by: [{field: "line"}]) { line quantity } }`;

describe.each(['duckdb', 'postgres'] as const)('%s', (name) => {
  const app = () => dialects.all.find((d) => d.name === name)!;
  // DuckDB's JSON text is compact and goes out as it is; PostgreSQL's rows are written as text straight from the rows.
  const FAST = name === 'duckdb' ? SPLICED : WRITTEN;

  it('answers catalog reads from the database JSON, with aliases, fragments, __typename and nulls as graphql-js would', async () => {
    const d = app();
    d.statements.length = 0;
    let r: Awaited<ReturnType<TestApp['gql']>> | undefined;
    const grew = await growth(d.app, async () => (r = await d.app.gql(Q, { limit: 2 })));
    expect(r!.status).toBe(200);
    expect(r!.body.errors).toBeUndefined();
    expect(r!.body).toMatchObject({
      data: {
        __typename: 'Query',
        first: [
          { __typename: 'shop_orders', id: 1, note: null, when: '2025-03-01T12:00:00Z', customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, items: [{ line: 1, quantity: 1 }, { line: 2, quantity: 2 }] },
          { __typename: 'shop_orders', id: 2, note: 'gift wrap', when: '2025-03-15T09:00:00Z', customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, items: [{ line: 1, quantity: 1 }] },
        ],
        one: { id: 2, status: 'pending' },
        none: null,
      },
    });
    expect(d.statements).toHaveLength(3);
    expect(grew[FAST]).toBe(1);
    expect(grew[GENERAL]).toBeUndefined();
  });

  it('parses, validates and plans a repeated request once; other values of its variables are bound, not planned', async () => {
    const d = app();
    const query = `query Again($id: Int!) { shop_orders_by_pk(id: $id) { id status } again_${name}: shop_customers(limit: 1) { id } }`;
    const first = await growth(d.app, () => d.app.gql(query, { id: 1 }));
    expect(first).toMatchObject({ [PARSE]: 1, [VALIDATE]: 1, [PLAN]: 2 });
    d.statements.length = 0;
    let r: Awaited<ReturnType<TestApp['gql']>> | undefined;
    const repeated = await growth(d.app, async () => (r = await d.app.gql(query, { id: 1 })));
    expect(r!.body.data.shop_orders_by_pk).toEqual({ id: 1, status: 'shipped' });
    expect(repeated[PARSE]).toBeUndefined();
    expect(repeated[VALIDATE]).toBeUndefined();
    expect(repeated[PLAN]).toBeUndefined();
    expect(d.statements).toHaveLength(2);
    const params: unknown[][] = [];
    const stop = d.app.runtime.executor.observe((source, _sql, p) => void (source === 'shop' && params.push([...p])));
    const other = await growth(d.app, async () => (r = await d.app.gql(query, { id: 3 })));
    stop();
    expect(r!.body.data.shop_orders_by_pk).toEqual({ id: 3, status: 'shipped' });
    expect(other).toEqual({ [FAST]: 1, [PREPARED]: 1 });
    // The same statement, the new value as its parameter.
    expect(params).toContainEqual([3]);
    const missing = await growth(d.app, async () => (r = await d.app.gql(query, { id: 999 })));
    expect(r!.body.data.shop_orders_by_pk).toBeNull();
    expect(missing[PLAN]).toBeUndefined();
  });

  it('binds values inside input objects and lists; values that decide the plan keep planning', async () => {
    const d = app();
    const query = `query Filtered($f: shop_orders_filter, $n: Int!) { filtered_${name}: shop_orders(filter: $f, order_by: [{field: "id"}], limit: $n) { id status } }`;
    const ask = (f: unknown, n = 10) => d.app.gql(query, { f, n });
    let r: Awaited<ReturnType<TestApp['gql']>> | undefined;
    expect((await growth(d.app, async () => (r = await ask({ status: { in: ['shipped', 'pending'] }, id: { gte: 2 } }))))[PLAN]).toBe(1);
    const all = r!.body.data[`filtered_${name}`];
    expect(all.length).toBeGreaterThan(0);
    // Other strings and numbers in the same places: the plan is reused.
    expect((await growth(d.app, async () => (r = await ask({ status: { in: ['pending', 'nope'] }, id: { gte: 1 } }))))[PLAN]).toBeUndefined();
    expect(r!.body.data[`filtered_${name}`].every((o: { status: string }) => o.status === 'pending')).toBe(true);
    // A list of another length, a filter of another shape, another limit: planned again.
    expect((await growth(d.app, () => ask({ status: { in: ['pending'] }, id: { gte: 1 } })))[PLAN]).toBe(1);
    expect((await growth(d.app, () => ask({ status: { eq: 'pending' } })))[PLAN]).toBe(1);
    expect((await growth(d.app, async () => (r = await ask({ status: { eq: 'pending' } }, 1))))[PLAN]).toBe(1);
    expect(r!.body.data[`filtered_${name}`]).toHaveLength(1);
    // Back to the first values: every plan is still there.
    expect((await growth(d.app, async () => (r = await ask({ status: { in: ['shipped', 'pending'] }, id: { gte: 2 } }))))[PLAN]).toBeUndefined();
    expect(r!.body.data[`filtered_${name}`]).toEqual(all);
  });
  it('answers a repeated operation without Apollo, byte for byte as before; errors still take Apollo\'s path', async () => {
    const d = app();
    const query = `query Prep($limit: Int!) { prep_${name}: shop_orders(order_by: [{field: "id"}], limit: $limit) { __typename id note ...Who } }
fragment Who on shop_orders { customer { name } }`;
    const first = await d.app.gql(query, { limit: 2 });
    let again: Awaited<ReturnType<TestApp['gql']>> | undefined;
    expect(await growth(d.app, async () => (again = await d.app.gql(query, { limit: 2 })))).toEqual({ [FAST]: 1, [PREPARED]: 1 });
    expect(again!.status).toBe(200);
    expect(again!.headers['content-type']).toBe(first.headers['content-type']);
    expect(again!.text).toBe(first.text);
    // Another limit is a value that decides the plan: planned, still without Apollo.
    expect(await growth(d.app, () => d.app.gql(query, { limit: 1 }))).toMatchObject({ [PREPARED]: 1, [PLAN]: 1 });
    // A variable graphql-js refuses: Apollo answers with its own error, as for any request.
    let bad: Awaited<ReturnType<TestApp['gql']>> | undefined;
    expect(await growth(d.app, async () => (bad = await d.app.gql(query, { limit: null })))).toEqual({ [TO_APOLLO]: 1 });
    expect(bad!.body.errors[0].message).toMatch(/Variable "\$limit" of non-null type "Int!" must not be null/);
    // Another operation name is another operation.
    expect((await growth(d.app, () => d.app.gql(query.replace('Prep', 'Prep2'), { limit: 2 })))[PREPARED]).toBeUndefined();
  });

  it('takes fields computed inside the statement, and leaves resolver-backed functions to the general path', async () => {
    const d = app();
    const grew = await growth(d.app, () => d.app.gql('{ shop_orders(limit: 1) { id total } }'));
    // A @function_call field is computed inside the statement: still the fast path.
    expect(grew[FAST]).toBe(1);
    const fn = await growth(d.app, () => d.app.gql('{ function { core { data_source_status(name: "shop") } } }'));
    expect(fn[FAST]).toBeUndefined();
  });
});

describe('plans and permission changes', () => {
  let app: TestApp;
  const ADMIN = { 'x-svc-secret-key': 'k' };
  const AS = { ...ADMIN, 'x-svc-role': 'viewer', 'x-svc-user-id': '1' };
  beforeAll(async () => {
    app = await startApp({ SECRET_KEY: 'k' });
    const r = await app.gql('mutation { core { insert_roles(data: {name: "viewer", description: "reads orders"}) { name } } }', undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
  }, 60_000);
  afterAll(() => app?.close());

  it('a role rule added later applies to a plan made before it', async () => {
    const query = 'query Mine($s: String!) { shop_orders(filter: {status: {eq: $s}}, order_by: [{field: "id"}]) { id customer_id } }';
    const before = await app.gql(query, { s: 'shipped' }, AS);
    expect(new Set(before.body.data.shop_orders.map((o: { customer_id: number }) => o.customer_id)).size).toBeGreaterThan(1);
    expect((await growth(app, () => app.gql(query, { s: 'pending' }, AS)))[PLAN]).toBeUndefined();
    const rule = await app.gql(`mutation { core { insert_role_permissions(data: {role: "viewer", type_name: "data-object:query", field_name: "shop_orders",
      filter: {customer_id: {eq: 1}}}) { role } } }`, undefined, ADMIN);
    expect(rule.body.errors).toBeUndefined();
    let r: Awaited<ReturnType<TestApp['gql']>> | undefined;
    expect((await growth(app, async () => (r = await app.gql(query, { s: 'shipped' }, AS))))[PLAN]).toBe(1);
    expect(r!.body.data.shop_orders.length).toBeGreaterThan(0);
    expect(r!.body.data.shop_orders.every((o: { customer_id: number }) => o.customer_id === 1)).toBe(true);
  });

  it('a schema swapped by load_data_source starts with no plans', async () => {
    const query = 'query One($id: Int!) { shop_customers_by_pk(id: $id) { id name } }';
    await app.gql(query, { id: 1 }, ADMIN);
    expect((await growth(app, () => app.gql(query, { id: 2 }, ADMIN)))[PLAN]).toBeUndefined();
    const load = await app.gql('mutation { function { core { load_data_source(name: "shop") { success message } } } }', undefined, ADMIN);
    expect(load.body.data.function.core.load_data_source.success).toBe(true);
    let r: Awaited<ReturnType<TestApp['gql']>> | undefined;
    const after = await growth(app, async () => (r = await app.gql(query, { id: 2 }, ADMIN)));
    expect(after).toMatchObject({ [PARSE]: 1, [PLAN]: 1 });
    expect(r!.body.data.shop_customers_by_pk).toMatchObject({ id: 2 });
  });
});

describe('a value the catalog says cannot be null, but is', () => {
  let db: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    db = await createTestDatabase('svc_fast');
    await db.exec('CREATE TABLE items (id integer PRIMARY KEY, name text); INSERT INTO items VALUES (1, \'one\'), (2, NULL);');
    const catalogs = join(tempDir(), 'catalogs');
    mkdirSync(join(catalogs, 'lying'), { recursive: true });
    writeFileSync(join(catalogs, 'lying', 'source.yaml'), `type: postgres\npath: "${db.url}"\nprefix: lying\n`);
    writeFileSync(join(catalogs, 'lying', 'schema.graphql'), 'type items @table(name: "items") {\n  id: Int! @pk\n  name: String!\n}\n');
    app = await startApp({ CATALOGS_DIR: catalogs });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('is reported by graphql-js as before, from the answer already fetched (one statement)', async () => {
    let statements = 0;
    const stop = app.runtime.executor.observe((source) => void (source === 'lying' && statements++));
    let r: Awaited<ReturnType<TestApp['gql']>> | undefined;
    const grew = await growth(app, async () => (r = await app.gql('{ lying_items(order_by: [{field: "id"}]) { id name } ok: lying_items_by_pk(id: 1) { name } }')));
    stop();
    expect(r!.body.data).toEqual({ lying_items: [{ id: 1, name: 'one' }, null], ok: { name: 'one' } });
    expect(r!.body.errors).toHaveLength(1);
    expect(r!.body.errors[0]).toMatchObject({ message: 'internal server error', path: ['lying_items', 1, 'name'] });
    expect(statements).toBe(2);
    expect(grew[GENERAL]).toBe(1);
  });
});
