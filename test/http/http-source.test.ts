// HTTP sources (issue 19 item 4) against a small REST service on loopback (node:http): endpoints as
// functions, arguments in path/query/body, answers cast to the declared types, a remote 500, a
// timeout, retries, credentials from the environment and from the secrets server (never shown),
// an OpenAPI document, and batched calls for many rows.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSource } from '../../src/sources/http/source.js';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { TestIdp } from '../secrets-server/helpers/idp.js';
import { AUDIENCE, configDoc, secretBody, startServer, type Started } from '../secrets-server/helpers/harness.js';

const TOKEN = 'tok-0123456789-secret';
const SECRET_TOKEN = 'from-the-secrets-server-42';

interface Seen { method: string; url: string; auth?: string; body: string }
const seen: Seen[] = [];
let flaky = 0;
let rest: Server;
let base: string;

const OPENAPI = {
  openapi: '3.0.0',
  info: { title: 'shop api', version: '1' },
  paths: {
    '/stock/{sku}': { get: { operationId: 'getStock', parameters: [{ name: 'sku', in: 'path', required: true, schema: { type: 'string' } }, { name: 'warehouse', in: 'header', schema: { type: 'string' } }] } },
  },
};

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push({ method: req.method ?? '', url: req.url ?? '', ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body });
  const json = (status: number, v: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(v));
  };
  const p = url.pathname.replace(/^\/api/, '');
  if (p === '/openapi.json') return json(200, OPENAPI);
  const expected = url.pathname.startsWith('/api2') ? `Bearer ${SECRET_TOKEN}` : `Bearer ${TOKEN}`;
  if (req.headers.authorization !== expected) return json(401, { error: 'who are you' });
  const q = p.replace(/^2/, '');
  let m: RegExpExecArray | null;
  if ((m = /^\/weather\/([^/]+)$/.exec(q))) return json(200, { city: decodeURIComponent(m[1]!), temp: '21.5', sunny: 'true', wind: { speed: 3, dir: 'NW' }, ignored: 1 });
  if (q === '/rates') return json(200, { EUR: 1, GBP: 1.17, USD: 0.92 }[url.searchParams.get('currency') ?? ''] ?? null);
  if (q === '/big') return json(200, 9007199254740993n.toString());
  if (q === '/fail') return json(500, { error: `internal detail ${TOKEN}` });
  if (q === '/slow') {
    setTimeout(() => json(200, 1), 3000).unref();
    return;
  }
  if (q === '/flaky') return ++flaky % 2 === 1 ? json(503, {}) : json(200, 'recovered');
  if (q === '/orders' && req.method === 'POST') return json(201, { id: 77, ...JSON.parse(body) });
  if ((m = /^\/stock\/([^/]+)$/.exec(q))) return json(200, { sku: m[1], warehouse: req.headers.warehouse ?? null, count: 5 });
  json(404, {});
}

const CATALOG = `
type weather {
  city: String!
  temp: Float
  sunny: Boolean
  wind: wind
}
type wind { speed: Int dir: String }
type order_echo { id: Int! item: String qty: Int }
extend type Function {
  weather(city: String!): weather @function(name: "GET /weather/{city}", json_cast: true)
  rate(currency: String!): Float @function(name: "GET /rates")
  big: BigInt @function(name: "GET /big")
  fail: Int @function(name: "GET /fail")
  slow: Int @function(name: "GET /slow")
  flaky: String @function(name: "GET /flaky")
}
extend type MutationFunction {
  place_order(item: String!, qty: Int!): order_echo @function(name: "POST /orders", json_cast: true)
}
`;

function source(dir: string, name: string, yaml: string, sdl: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'source.yaml'), yaml);
  writeFileSync(join(dir, name, 'schema.graphql'), sdl);
}

let app: TestApp;
let idp: TestIdp;
let secrets: Started;

beforeAll(async () => {
  rest = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((r) => rest.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(rest.address() as AddressInfo).port}`;

  // The secrets server (SPEC §15) holds the second source's token; svc reads it with a service token.
  idp = await TestIdp.start();
  secrets = await startServer(configDoc([idp]));
  const admin = await idp.token({ sub: 'root', aud: AUDIENCE, realm_access: { roles: ['admin'] } });
  const service = await idp.token({ sub: 'svc', aud: AUDIENCE, realm_access: { roles: ['svc-reader'] } });
  expect((await secrets.call('PUT', '/v1/secrets/rest-api', { token: admin, body: secretBody({ bearer_token: SECRET_TOKEN }, { type: 'http', provider: 'config', scope: [base] }) })).status).toBe(201);
  expect((await secrets.call('PUT', '/v1/secrets/rest-api/grants/g1', { token: admin, body: { principal: 'role:svc-reader', verbs: ['use'] } })).status).toBe(200);

  process.env.SVC_TEST_HTTP_BASE = base;
  process.env.SVC_TEST_HTTP_TOKEN = TOKEN;
  process.env.SVC_TEST_SECRETS_URL = secrets.url;
  process.env.SVC_TEST_SECRETS_TOKEN = service;
  const dir = join(tempDir(), 'catalogs');
  source(dir, 'wx', 'type: http\npath: "[$SVC_TEST_HTTP_BASE]/api?x-svc-token=[$SVC_TEST_HTTP_TOKEN]&x-svc-timeout=400ms&x-svc-retries=1"\nprefix: wx\n', CATALOG);
  source(dir, 'wx2', 'type: http\npath: "[$SVC_TEST_HTTP_BASE]/api2?x-svc-secret=rest-api&x-svc-secrets-url=[$SVC_TEST_SECRETS_URL]&x-svc-secrets-token=[$SVC_TEST_SECRETS_TOKEN]"\nprefix: wx2\nas_module: true\n',
    'type weather { city: String! temp: Float }\nextend type Function { weather(city: String!): weather @function(name: "GET /weather/{city}", json_cast: true) }\n');
  source(dir, 'stock', 'type: http\npath: "[$SVC_TEST_HTTP_BASE]/api?x-svc-token=[$SVC_TEST_HTTP_TOKEN]&x-svc-spec-uri=openapi.json"\nprefix: stock\nas_module: true\n',
    'type stock_level { sku: String! warehouse: String count: Int }\nextend type Function { stock(sku: String!, warehouse: String): stock_level @function(name: "getStock", json_cast: true) }\n');
  source(dir, 'auto', 'type: http\npath: "[$SVC_TEST_HTTP_BASE]/api?x-svc-token=[$SVC_TEST_HTTP_TOKEN]&x-svc-spec-uri=openapi.json"\nprefix: auto\nas_module: true\nself_defined: true\n', '# derived from the OpenAPI document\n');
  app = await startApp({ CATALOGS_DIR: dir, LOG_LEVEL: 'silent' });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await secrets?.close();
  await idp?.close();
  rest?.closeAllConnections();
  await new Promise<void>((r) => rest.close(() => r()));
});

const ok = async (query: string, variables?: Record<string, unknown>) => {
  const r = await app.gql(query, variables);
  expect(r.body.errors, r.text).toBeUndefined();
  return r.body.data;
};

describe('endpoints as functions', () => {
  it('maps arguments to the path and casts the JSON answer to the declared type', async () => {
    const d = await ok('{ function { wx_weather(city: "São Paulo") { city temp sunny wind { speed dir } } } }');
    expect(d.function.wx_weather).toEqual({ city: 'São Paulo', temp: 21.5, sunny: true, wind: { speed: 3, dir: 'NW' } });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/weather/S%C3%A3o%20Paulo', auth: `Bearer ${TOKEN}` });
  });

  it('sends other arguments as the query string, and keeps big integers exact', async () => {
    const d = await ok('{ function { wx_rate(currency: "GBP") wx_big } }');
    expect(d.function.wx_rate).toBe(1.17);
    expect(seen.some((s) => s.url === '/api/rates?currency=GBP')).toBe(true);
    const r = await app.gql('{ function { wx_big } }');
    expect(r.text).toContain('9007199254740993');
  });

  it('sends a mutation function as a JSON body', async () => {
    const d = await ok('mutation { function { wx_place_order(item: "tea", qty: 2) { id item qty } } }');
    expect(d.function.wx_place_order).toEqual({ id: 77, item: 'tea', qty: 2 });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/orders', body: '{"item":"tea","qty":2}' });
  });

  it('takes operations and parameter places from an OpenAPI document', async () => {
    const d = await ok('{ function { stock { stock(sku: "BK-1", warehouse: "north") { sku warehouse count } } } }');
    expect(d.function.stock.stock).toEqual({ sku: 'BK-1', warehouse: 'north', count: 5 });
  });
});

describe('self_defined from the OpenAPI document', () => {
  it('serves each operation as a function answering JSON', async () => {
    const sdl = await ok('{ function { core { describe_data_source_schema(name: "auto", self: true) } } }');
    expect(sdl.function.core.describe_data_source_schema).toContain('getStock(sku: String!, warehouse: String): JSON @function(name: "getStock")');
    const d = await ok('{ function { auto { getStock(sku: "HW-9") } } }');
    expect(d.function.auto.getStock).toEqual({ sku: 'HW-9', warehouse: null, count: 5 });
  });
});

describe('remote failures', () => {
  it('names the source, the endpoint and the status of a remote error, and nothing secret', async () => {
    const r = await app.gql('{ function { wx_fail } }');
    expect(r.status).toBe(200);
    expect(r.body.errors[0].message).toBe('http source "wx": GET /fail answered 500 (Internal Server Error)');
    expect(r.body.errors[0].extensions.code).toBe('QUERY_FAILED');
    expect(r.text).not.toContain(TOKEN);
  });

  it('stops a slow endpoint at the time limit, with a bounded number of attempts', async () => {
    const started = Date.now();
    const r = await app.gql('{ function { wx_slow } }');
    const ms = Date.now() - started;
    expect(r.body.errors[0].message).toBe('http source "wx": GET /slow did not answer within 400ms (2 attempts)');
    expect(r.body.errors[0].extensions.code).toBe('QUERY_TIMEOUT');
    expect(ms).toBeLessThan(2900); // two attempts of 400 ms and a pause, well before the remote's 3 s
  });

  it('sends an idempotent request again after a transient 503', async () => {
    const d = await ok('{ function { wx_flaky } }');
    expect(d.function.wx_flaky).toBe('recovered');
  });
});

describe('credentials', () => {
  it('reads a bearer token from the secrets server', async () => {
    const d = await ok('{ function { wx2 { weather(city: "Oslo") { city temp } } } }');
    expect(d.function.wx2.weather).toEqual({ city: 'Oslo', temp: 21.5 });
    expect(seen.at(-1)?.auth).toBe(`Bearer ${SECRET_TOKEN}`);
  });

  it('keeps credentials out of the stored path, status and logs', async () => {
    const r = await app.gql('{ core { data_sources { name path } } function { core { s: data_source_status(name: "wx") } } }');
    expect(r.text).not.toContain(TOKEN);
    expect(r.text).not.toContain(SECRET_TOKEN);
    expect(r.text).toContain('[$SVC_TEST_HTTP_TOKEN]');
  });
});

describe('batched calls (@function_call targets)', () => {
  it('sends each distinct argument set once, however many rows ask', async () => {
    const runtime = app.runtime.registry.runtime('wx') as HttpSource;
    const fn = app.runtime.registry.get('wx')!.catalog.functions.find((f) => f.name === 'rate')!;
    const before = seen.length;
    const rows = ['GBP', 'EUR', 'GBP', 'USD', 'GBP', 'EUR'].map((currency) => ({ currency }));
    expect(await runtime.callBatch(fn, rows)).toEqual([1.17, 1, 1.17, 0.92, 1.17, 1]);
    expect(seen.length - before).toBe(3);
  });
});
