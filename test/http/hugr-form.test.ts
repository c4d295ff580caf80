// HTTP sources written as hugr writes them (issue 32 item 2): functions and views whose sql calls
// http_data_source_request_scalar(...), struct parameters, || paths, jq, @field_source on result
// types, and function { core { http_data_source_request_scalar } }; against a REST service on
// loopback. Shapes svc cannot send are refused at load with the file and line.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { data } from '../pg/support.js';

interface Seen { method: string; url: string; headers: Record<string, unknown>; body: string }
const seen: Seen[] = [];
let rest: Server;
let app: TestApp;

const WEATHER = { base: 'stations', cod: 200, visibility: 8000, main: { temp: 20, temp_max: 20.36, temp_min: 18.77 }, rain: { '1h': 4.34 }, sys: { country: 'JP', sunrise: 1749497104, sunset: 1749549384 }, weather: [{ id: 502, main: 'Rain', icon: '10n', description: 'heavy rain' }] };
const DEVICES = { items: [
  { id: 'd1', name: 'pump', number: '001', address: 'North', isManaged: true, coordinates: '{"type":"Point","coordinates":[10,50]}' },
  { id: 'd2', name: 'valve', number: '002', address: 'South', isManaged: false, coordinates: '{"type":"Point","coordinates":[11,51]}' },
  { id: 'd3', name: 'meter', number: '003', address: 'North', isManaged: true, coordinates: null },
] };

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
  const json = (status: number, v: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(v));
  };
  const p = url.pathname.replace(/^\/v1/, '');
  if (p === '/data/2.5/weather') return json(200, { ...WEATHER, coord: { lat: Number(url.searchParams.get('lat')), lon: Number(url.searchParams.get('lon')) }, units: url.searchParams.get('units') });
  if (p === '/devices' && req.method === 'POST') return json(200, DEVICES);
  const m = /^\/users\/([^/]+)$/.exec(p);
  if (m) return json(200, { id: decodeURIComponent(m[1]!), trace: req.headers['x-trace'] ?? null });
  if (p === '/orders' && req.method === 'POST') return json(201, { id: 7, ...JSON.parse(body) });
  if (p === '/fail') return json(500, {});
  json(404, {});
}

const CALL = (path: string, method: string, headers: string, params: string, body: string, jq = '') =>
  `http_data_source_request_scalar([$catalog], ${path}, '${method}', ${headers}, ${params}, ${body}, '${jq}')`;

const OWM = `
extend type Function {
  "Raw answer"
  current_weather_raw(lat: Float!, lon: Float!): JSON @function(
    name: "get_current_weather_raw",
    sql: "${CALL("'/data/2.5/weather'", 'GET', "'{}'::JSON", "{lat: [lat], lon: [lon], units: 'metric'}::JSON", "'{}'::JSON")}",
    json_cast: true)
  current_weather(lat: Float!, lon: Float!): current_weather_response @function(
    name: "get_current_weather",
    sql: "${CALL("'/data/2.5/weather'", 'GET', "'{}'::JSON", "{lat: [lat], lon: [lon], units: 'metric'}::JSON", "'{}'::JSON")}",
    json_cast: true)
  user(id: String!, trace: String): user_info @function(name: "get_user",
    sql: """
      http_data_source_request_scalar(
        [$catalog],
        '/users/'||[id],
        'GET',
        {"x-trace": [trace]}::JSON,
        '{}'::JSON,
        '{}'::JSON,
        ''
      )
    """, json_cast: true)
  device_names: [String] @function(name: "device_names", sql: "${CALL("'/devices'", 'POST', "'{}'::JSON", "'{}'::JSON", "'{}'::JSON", '[.items[] | .name]')}")
  managed: [device_row] @function(name: "managed", is_table: true, sql: "${CALL("'/devices'", 'POST', "'{}'::JSON", "'{}'::JSON", "'{}'::JSON", '.items[] | select(.isManaged) | {id, name}')}")
  fail: JSON @function(name: "fail", sql: "${CALL("'/fail'", 'GET', "'{}'::JSON", "'{}'::JSON", "'{}'::JSON")}")
}
extend type MutationFunction {
  create_order(item: String!, qty: Int!): order_ack @function(name: "create_order",
    sql: "${CALL("'/orders'", 'POST', "'{}'::JSON", "'{}'::JSON", '{item: [item], qty: [qty]}::JSON')}", json_cast: true)
}
type current_weather_response {
  base: String
  visibility: Int
  main: main_info
  rain: perc_info
  common: sys_info @field_source(field: "sys")
  weather: [conditions]
  coord: coords
}
type coords { lat: Float lon: Float }
type main_info { temp: Float temp_max: Float temp_min: Float }
type perc_info { current: Float @field_source(field: "1h") }
type sys_info { sunrise: BigInt sunset: BigInt country: String }
type conditions { id: Int name: String @field_source(field: "main") }
type user_info { id: String trace: String }
type device_row { id: String name: String }
type order_ack { id: Int item: String qty: Int }

type devices_view @view(name: "devices_view", sql: """
  SELECT data.*
  FROM (
    (SELECT UNNEST(json_transform(http_data_source_request_scalar(
      '[$catalog]', '/devices', 'POST', '{}'::JSON, '{}'::JSON, '{}'::JSON,
      '.items[] | {id: .id, name: .name, number: .number, address: .address, is_managed: .isManaged, coordinates: .coordinates}'
    )::JSON, '[{"address": "VARCHAR", "coordinates": "VARCHAR", "id":"VARCHAR", "is_managed": "BOOLEAN", "name": "VARCHAR", "number": "VARCHAR"}]')) AS data)
  )
""") {
  id: String @pk
  name: String
  number: String
  address: String
  is_managed: Boolean
  coords: String @field_source(field: "coordinates")
}
`;

function source(dir: string, name: string, yaml: string, sdl: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'source.yaml'), yaml);
  writeFileSync(join(dir, name, 'schema.graphql'), sdl);
}

beforeAll(async () => {
  rest = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((r) => rest.listen(0, '127.0.0.1', r));
  process.env.SVC_TEST_HUGR_BASE = `http://127.0.0.1:${(rest.address() as AddressInfo).port}`;
  const dir = join(tempDir(), 'catalogs');
  source(dir, 'owm', 'type: http\npath: "[$SVC_TEST_HUGR_BASE]/v1?x-svc-timeout=2s&x-svc-retries=0"\nprefix: owm\nas_module: true\n', OWM);
  // Shapes svc cannot send from the server: refused at load, naming the file and line.
  source(dir, 'wrapped', 'type: http\npath: "[$SVC_TEST_HUGR_BASE]/v1"\nprefix: wrapped\n',
    `extend type Function {\n  up: String @function(name: "up", sql: "SELECT upper(${CALL("'/x'", 'GET', "'{}'::JSON", "'{}'::JSON", "'{}'::JSON")})")\n}\n`);
  source(dir, 'rowdep', 'type: http\npath: "[$SVC_TEST_HUGR_BASE]/v1"\nprefix: rowdep\n',
    `type t @view(name: "t", sql: """\n  WITH d AS (SELECT 1 AS ids)\n  SELECT * FROM (SELECT ${CALL("'/t'", 'POST', "'{}'::JSON", "'{}'::JSON", '{ids: d.ids}::JSON')} AS r FROM d)\n""") { r: JSON }\n`);
  source(dir, 'other', 'type: http\npath: "[$SVC_TEST_HUGR_BASE]/v1"\nprefix: other\n',
    `extend type Function {\n  x(a: Int): JSON @function(name: "x", sql: "${CALL("'/x/'||[b]", 'GET', "'{}'::JSON", "'{}'::JSON", "'{}'::JSON")}")\n}\n`);
  app = await startApp({ CATALOGS_DIR: dir, LOG_LEVEL: 'silent', SECRET_KEY: 'hugr-form-key' });
}, 60_000);

afterAll(async () => {
  await app?.close();
  rest?.closeAllConnections();
  await new Promise<void>((r) => rest.close(() => r()));
});

/** `data` of a query that must succeed (test/pg/support.ts). */
const ok = (query: string, variables?: Record<string, unknown>) => data(app, query, variables);

describe("functions in hugr's form", () => {
  it('sends the struct parameters as the query string and answers the raw JSON', async () => {
    const d = await ok('{ function { owm { current_weather_raw(lat: 35.6895, lon: 139.6917) } } }');
    expect(d.function.owm.current_weather_raw).toMatchObject({ base: 'stations', coord: { lat: 35.6895, lon: 139.6917 }, units: 'metric', rain: { '1h': 4.34 } });
    const last = seen.at(-1)!;
    expect(last.method).toBe('GET');
    expect(new URL(last.url, 'http://x').pathname).toBe('/v1/data/2.5/weather');
    expect(Object.fromEntries(new URL(last.url, 'http://x').searchParams)).toEqual({ lat: '35.6895', lon: '139.6917', units: 'metric' });
  });

  it('casts the answer to the declared type, reading renamed keys through @field_source', async () => {
    const d = await ok('{ function { owm { current_weather(lat: 35.6895, lon: 139.6917) { visibility main { temp temp_max } rain { current } common { sunrise sunset } weather { id name } } } } }');
    expect(d.function.owm.current_weather).toEqual({
      visibility: 8000, main: { temp: 20, temp_max: 20.36 }, rain: { current: 4.34 }, common: { sunrise: 1749497104, sunset: 1749549384 }, weather: [{ id: 502, name: 'Rain' }],
    });
  });

  it("builds the path with || and sends headers from a struct; a null header is left out", async () => {
    expect((await ok('{ function { owm { user(id: "a b", trace: "t-1") { id trace } } } }')).function.owm.user).toEqual({ id: 'a b', trace: 't-1' });
    expect(seen.at(-1)!.url).toBe('/v1/users/a%20b');
    expect((await ok('{ function { owm { user(id: "x") { id trace } } } }')).function.owm.user).toEqual({ id: 'x', trace: null });
    expect(seen.at(-1)!.headers['x-trace']).toBeUndefined();
  });

  it('applies the jq program to the answer (one output, or a table function of several)', async () => {
    expect((await ok('{ function { owm { device_names } } }')).function.owm.device_names).toEqual(['pump', 'valve', 'meter']);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{}' });
    expect((await ok('{ function { owm { managed { id name } } } }')).function.owm.managed).toEqual([{ id: 'd1', name: 'pump' }, { id: 'd3', name: 'meter' }]);
  });

  it('sends a struct body on a mutation function', async () => {
    const r = await app.gql('mutation { function { owm { create_order(item: "tea", qty: 2) { id item qty } } } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.function.owm.create_order).toEqual({ id: 7, item: 'tea', qty: 2 });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ item: 'tea', qty: 2 });
  });

  it('a remote failure names the endpoint template, not the values', async () => {
    const r = await app.gql('{ function { owm { fail } } }');
    expect(r.body.errors?.[0]).toMatchObject({ message: 'http source "owm": GET /fail answered 500 (Internal Server Error)', extensions: { code: 'QUERY_FAILED' } });
  });
});

describe("views in hugr's form", () => {
  it('UNNEST(json_transform(request)) rows are filtered, ordered and aggregated by DuckDB', async () => {
    const d = await ok('{ owm { devices_view(filter: { is_managed: { eq: true } }, order_by: [{ field: "name", direction: ASC }]) { id name address coords } devices_view_aggregation { _rows_count } } }');
    expect(d.owm.devices_view).toEqual([
      { id: 'd3', name: 'meter', address: 'North', coords: null },
      { id: 'd1', name: 'pump', address: 'North', coords: '{"type":"Point","coordinates":[10,50]}' },
    ]);
    expect(d.owm.devices_view_aggregation._rows_count).toBe(3);
  });
});

describe('core.http_data_source_request_scalar', () => {
  it("answers the remote JSON as text (hugr's answer), parameters in the query string", async () => {
    const d = await ok(`{ function { core { http_data_source_request_scalar(source: "owm", path: "/data/2.5/weather", method: "GET", headers: {}, parameters: { lat: 35.6895, lon: 139.6917 }, body: {}, jq: "") } } }`);
    const text = d.function.core.http_data_source_request_scalar;
    expect(typeof text).toBe('string');
    expect(JSON.parse(text)).toMatchObject({ base: 'stations', coord: { lat: 35.6895, lon: 139.6917 } });
  });

  it('is refused to a role other than admin that is not granted it', async () => {
    const q = '{ function { core { http_data_source_request_scalar(source: "owm", path: "/devices", method: "POST") } } }';
    const before = seen.length;
    const r = await app.gql(q, undefined, { 'x-svc-secret-key': 'hugr-form-key', 'x-svc-role': 'viewer', 'x-svc-user-id': 'u1' });
    expect(r.body.data?.function?.core?.http_data_source_request_scalar ?? null).toBeNull();
    expect(r.body.errors?.length).toBeGreaterThan(0);
    expect(seen.length).toBe(before);
  });

  it('applies jq, and refuses a URL in place of a path', async () => {
    const d = await ok(`{ function { core { http_data_source_request_scalar(source: "owm", path: "/devices", method: "POST", jq: "[.items[].id]") } } }`);
    expect(JSON.parse(d.function.core.http_data_source_request_scalar)).toEqual(['d1', 'd2', 'd3']);
    const r = await app.gql(`{ function { core { http_data_source_request_scalar(source: "owm", path: "http://169.254.169.254/x") } } }`);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('shapes svc does not send, refused at load with the file and line', () => {
  it.each([
    ['wrapped', /function "up" \(.*schema\.graphql:2\): "upper" is not read in an http request|the sql of a function on an http source is one/],
    ['rowdep', /view "t" \(.*schema\.graphql:1, line 2 of its sql\): "d" is not read in an http request: svc sends the request from the server before any SQL runs/],
    ['other', /function "x" \(.*schema\.graphql:2\): \[b\] is not an argument of the function/],
  ])('%s', async (name, message) => {
    const d = await ok(`{ function { core { data_source_status(name: "${name}") } } }`);
    expect(d.function.core.data_source_status).toMatch(message);
    // The other sources still answer.
    await ok('{ function { owm { device_names } } }');
  });
});
