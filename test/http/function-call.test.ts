// `@function_call` / `@table_function_call_join` from rows of a database into an http source (issue 19):
// DuckDB orders (`shop`), a REST service on loopback (`fx`), and an extension source (`links`) adding
// fields computed by its endpoints. A cross-source level calls each distinct argument set once; a
// remote error or timeout fails that field at its paths only, naming the source and the status.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSources, type Sources } from '../support/sources.js';

const seen: string[] = [];
let rest: Server;

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push(`${req.method} ${url.pathname}${url.search}`);
  const json = (status: number, v: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(v));
  };
  let m: RegExpExecArray | null;
  if (url.pathname === '/rates') return json(200, ({ EUR: 1, GBP: 1.17, USD: 0.92 } as Record<string, number>)[url.searchParams.get('currency') ?? ''] ?? null);
  // The remote fails for one currency only: the other rows still answer.
  if ((m = /^\/fees\/(\w+)$/.exec(url.pathname))) return m[1] === 'USD' ? json(500, { error: 'fee table is down' }) : json(200, m[1] === 'GBP' ? 2 : 1);
  if (url.pathname === '/slow') {
    setTimeout(() => json(200, 1), 2000).unref();
    return;
  }
  if ((m = /^\/stock\/(\w+)$/.exec(url.pathname))) {
    const sku = m[1]!;
    // Rows of a table function: the sku asked, and one of another sku that the join leaves out.
    return json(200, [{ sku, warehouse: 'north', count: sku.length }, { sku, warehouse: 'south', count: 1 }, { sku: 'OTHER', warehouse: 'x', count: 0 }]);
  }
  json(404, {});
}

const SHOP = {
  name: 'shop',
  yaml: 'type: duckdb\npath: ":memory:"\nprefix: shop\nseed: seed.sql\n',
  schema: 'type orders @table(name: "orders") {\n  id: Int! @pk\n  currency: String\n  amount: Float\n  sku: String\n}\n',
  seed: "CREATE TABLE orders (id INTEGER PRIMARY KEY, currency VARCHAR, amount DOUBLE, sku VARCHAR);\n" +
    "INSERT INTO orders VALUES (1, 'GBP', 10, 'BK1'), (2, 'EUR', 20, 'BK1'), (3, 'GBP', 30, 'HW22'), (4, 'USD', 40, 'BK1'), (5, 'GBP', 50, NULL), (6, 'EUR', 60, 'HW22');\n",
};
const FX = (base: string) => ({
  name: 'fx',
  yaml: `type: http\npath: "${base}?x-svc-timeout=300ms&x-svc-retries=0"\nprefix: fx\n`,
  schema: `type stock_row { sku: String warehouse: String count: Int }
extend type Function {
  rate(currency: String!): Float @function(name: "GET /rates")
  fee(currency: String!): Int @function(name: "GET /fees/{currency}")
  slow(id: Int): Int @function(name: "GET /slow")
  stock(sku: String!): [stock_row] @function(name: "GET /stock/{sku}", is_table: true, json_cast: true)
}
`,
});
const LINKS = {
  name: 'links',
  yaml: 'type: extension\n',
  schema: `extend type shop_orders {
  "The exchange rate of the order's currency, from the REST service."
  rate: Float @function_call(references_name: "rate", module: "fx", args: {currency: "currency"})
  fee: Int @function_call(references_name: "fee", args: {currency: "currency"})
  slow: Int @function_call(references_name: "slow", args: {id: "id"})
  stock: [fx_stock_row] @table_function_call_join(references_name: "stock", args: {sku: "sku"}, source_fields: ["sku"], references_fields: ["sku"])
}
`,
};

const ADMIN = { 'x-svc-secret-key': 'k' };
let s: Sources;

beforeAll(async () => {
  rest = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((r) => rest.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(rest.address() as AddressInfo).port}`;
  s = await startSources({ name: 'svc_http_calls', pgSql: 'SELECT 1', sources: [SHOP, FX(base), LINKS], env: { SECRET_KEY: 'k', CACHE_L1_ENABLED: 'true', CACHE_TTL: '60' } });
  const r = await s.app.gql(`mutation { core { insert_roles(data: {name: "no_fx", description: "may not call the rates endpoint", permissions: [
    {type_name: "Function", field_name: "fx_rate", disabled: true}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors, r.text).toBeUndefined();
}, 60_000);

afterAll(async () => {
  await s?.close();
  rest?.closeAllConnections();
  await new Promise<void>((r) => rest.close(() => r()));
});

async function gql(query: string, headers: Record<string, string> = ADMIN) {
  s.statements.length = 0;
  seen.length = 0;
  const r = await s.app.gql(query, undefined, headers);
  return { ...r, statements: [...s.statements], requests: [...seen] };
}

const perSource = (st: { source: string }[]) => st.reduce<Record<string, number>>((m, x) => ({ ...m, [x.source]: (m[x.source] ?? 0) + 1 }), {});

describe('@function_call into an http source', () => {
  it('calls each distinct argument set once: 6 rows, 3 currencies -> 3 requests', async () => {
    const r = await gql('{ shop_orders(order_by: [{field: "id"}]) { id currency rate } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.shop_orders.map((o: { rate: number }) => o.rate)).toEqual([1.17, 1, 1.17, 0.92, 1.17, 1]);
    expect(r.requests.sort()).toEqual(['GET /rates?currency=EUR', 'GET /rates?currency=GBP', 'GET /rates?currency=USD']);
    // Each request is a statement of the http source (counted, timed and traced as any other).
    expect(perSource(r.statements)).toEqual({ shop: 1, fx: 3 });
  });

  it('@table_function_call_join: the rows of the answer matching the parent, one request per sku', async () => {
    const r = await gql('{ shop_orders(filter: {id: {in: [1, 3, 4, 5]}}, order_by: [{field: "id"}]) { id stock { warehouse count } } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.shop_orders).toEqual([
      { id: 1, stock: [{ warehouse: 'north', count: 3 }, { warehouse: 'south', count: 1 }] },
      { id: 3, stock: [{ warehouse: 'north', count: 4 }, { warehouse: 'south', count: 1 }] },
      { id: 4, stock: [{ warehouse: 'north', count: 3 }, { warehouse: 'south', count: 1 }] },
      // A null sku matches nothing (as a SQL join would), though the endpoint was asked.
      { id: 5, stock: null },
    ]);
    expect(r.requests.filter((x) => x.startsWith('GET /stock/')).sort()).toEqual(['GET /stock/BK1', 'GET /stock/HW22']);
  });

  it('a remote 500 for one key fails that field at those rows only, naming the source and the status', async () => {
    const r = await gql('{ shop_orders(order_by: [{field: "id"}]) { id fee } }');
    expect(r.status).toBe(200);
    expect(r.body.data.shop_orders).toEqual([
      { id: 1, fee: 2 }, { id: 2, fee: 1 }, { id: 3, fee: 2 }, { id: 4, fee: null }, { id: 5, fee: 2 }, { id: 6, fee: 1 },
    ]);
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0]).toMatchObject({ message: 'http source "fx": GET /fees/{currency} answered 500 (Internal Server Error)', path: ['shop_orders', 3, 'fee'], extensions: { code: 'QUERY_FAILED' } });
    expect(r.text).not.toContain('fee table is down');
  });

  it('a timeout inside a nested field: the other fields and root fields still answer', async () => {
    const started = Date.now();
    const r = await gql('{ shop_orders(filter: {id: {lte: 2}}, order_by: [{field: "id"}]) { id rate slow } n: shop_orders_aggregation { _rows_count } }');
    expect(Date.now() - started).toBeLessThan(1900); // one 300 ms attempt, well before the remote's 2 s
    expect(r.body.data).toEqual({ shop_orders: [{ id: 1, rate: 1.17, slow: null }, { id: 2, rate: 1, slow: null }], n: { _rows_count: 6 } });
    expect(r.body.errors.map((e: { path: unknown[] }) => e.path)).toEqual([['shop_orders', 0, 'slow'], ['shop_orders', 1, 'slow']]);
    for (const e of r.body.errors) expect(e).toMatchObject({ message: 'http source "fx": GET /slow did not answer within 300ms (1 attempt)', extensions: { code: 'QUERY_TIMEOUT' } });
  });

  it('a partial answer is not cached; a whole one is, tagged with the http source', async () => {
    const failing = '{ shop_orders(filter: {id: {eq: 4}}) @cache(ttl: 60) { id fee } }';
    expect((await gql(failing)).body.errors).toHaveLength(1);
    const again = await gql(failing);
    expect(again.body.errors).toHaveLength(1);
    expect(again.requests).toEqual(['GET /fees/USD']);
    const q = '{ shop_orders(filter: {id: {eq: 1}}) @cache(ttl: 60) { id rate } }';
    expect((await gql(q)).requests).toEqual(['GET /rates?currency=GBP']);
    const cached = await gql(q);
    expect(cached.body.data.shop_orders).toEqual([{ id: 1, rate: 1.17 }]);
    expect(cached.requests).toEqual([]);
    expect(cached.statements).toEqual([]);
    // The answer names both sources' reads: a write to the orders drops it.
    expect((await gql('mutation { update_shop_orders(filter: {id: {eq: 1}}, data: {amount: 11}) { affected_rows } }')).body.errors).toBeUndefined();
    expect((await gql(q)).requests).toEqual(['GET /rates?currency=GBP']);
  });
});

describe('permissions on the function', () => {
  it('a role denied the function is denied the field computed by it, at its path; the rest answers', async () => {
    const r = await gql('{ shop_orders(filter: {id: {lte: 2}}, order_by: [{field: "id"}]) { id currency rate fee } }', { ...ADMIN, 'x-svc-role': 'no_fx' });
    expect(r.body.data.shop_orders).toEqual([{ id: 1, currency: 'GBP', rate: null, fee: 2 }, { id: 2, currency: 'EUR', rate: null, fee: 1 }]);
    expect(r.body.errors.map((e: { path: unknown[]; extensions: { code: string } }) => [e.path.join('.'), e.extensions.code])).toEqual([
      ['shop_orders.0.rate', 'FORBIDDEN'], ['shop_orders.1.rate', 'FORBIDDEN'],
    ]);
    // Nothing was asked of the endpoint the role may not call.
    expect(r.requests.some((x) => x.startsWith('GET /rates'))).toBe(false);
    const fn = await gql('{ function { fx_rate(currency: "GBP") } }', { ...ADMIN, 'x-svc-role': 'no_fx' });
    expect(fn.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('ordering by a field computed in another source is refused with a code, not answered wrongly', async () => {
    const r = await gql('{ shop_orders(order_by: [{field: "rate"}]) { id rate } }');
    expect(r.body.errors[0].message).toBe('order_by field "rate" of "shop_orders" is in another source: across sources rows are ordered within each source only');
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(r.body.errors[0].path).toEqual(['shop_orders']);
    expect(r.requests).toEqual([]);
  });
});
