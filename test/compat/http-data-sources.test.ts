// hugr compatibility (issue 32): the page "HTTP RESTful API" of hugr's documentation
// (hugr-lab.github.io, docs/4-engine-configuration/1-data-sources/4-http.md), one group per section:
// our own fixtures in the syntax the page shows (x-hugr-* written x-svc-*), the requests it shows and
// the answers it promises, against a REST service on loopback. Differences are listed in the README
// ("Compatibility with hugr") and docs/http-sources.md.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { data } from '../pg/support.js';

const KEY = 'compat-key-1';
const seen: { method: string; url: URL; body: string }[] = [];
const issued = new Set<string>();
let rest: Server;
let base: string;
let t: TestApp;
let root: string;

const WEATHER = { base: 'stations', clouds: { all: 75 }, cod: 200, dt: 1749483960, id: 1850144, name: 'Tokyo', visibility: 10000,
  main: { temp: 20, temp_max: 20.36, temp_min: 18.77, humidity: 85 }, rain: { '1h': 4.34 },
  sys: { country: 'JP', sunrise: 1749497104, sunset: 1749549384 }, weather: [{ id: 502, main: 'Rain', icon: '10n', description: 'heavy intensity rain' }], wind: { deg: 110, speed: 2.57 } };
const DEVICES = { items: [
  { id: 'd1', name: 'pump', number: '001', address: 'North', isManaged: true, coordinates: '{"type":"Point","coordinates":[10,50]}' },
  { id: 'd2', name: 'valve', number: '002', address: 'South', isManaged: false, coordinates: '{"type":"Point","coordinates":[11,51]}' },
] };

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push({ method: req.method ?? '', url, body });
  const json = (status: number, v: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(v));
  };
  if (url.pathname === '/custom_login') {
    const b = JSON.parse(body || '{}');
    if (b.login !== 'alice' || b.password !== 'secret-pw') return json(401, {});
    const tok = `t${issued.size + 1}`;
    issued.add(tok);
    return json(200, { accessToken: tok, refreshToken: `r-${tok}` });
  }
  const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (url.pathname.startsWith('/secured')) {
    if (!issued.has(bearer)) return json(401, {});
    return json(200, { ok: true });
  }
  if (url.pathname === '/data/2.5/weather') {
    if (url.searchParams.get('appid') !== KEY) return json(401, { cod: 401 });
    return json(200, { ...WEATHER, coord: { lat: Number(url.searchParams.get('lat')), lon: Number(url.searchParams.get('lon')) } });
  }
  if (url.pathname === '/devices' && req.method === 'POST') return json(200, DEVICES);
  if (url.pathname === '/dict') return json(200, { name: `n-${url.searchParams.get('id')}`, value: Number(url.searchParams.get('id')) * 10 });
  json(404, {});
}

const OWM_SPEC = `openapi: 3.1.0
info: { title: OpenWeatherMap, version: 0.0.1 }
components:
  securitySchemes:
    owm: { type: apiKey, in: query, name: appid }
  schemas:
    current_weather:
      type: object
      properties:
        name: { type: string }
        dt: { type: integer, x-svc-field-type: { type: Timestamp, transform: FromUnixTime } }
        rain: { $ref: "#/components/schemas/perc_info" }
        sys:
          type: object
          x-svc-field-name: common
          properties:
            country: { type: string }
            sunrise: { type: integer, x-svc-field-type: { type: Timestamp, transform: FromUnixTime } }
    perc_info:
      type: object
      properties:
        1h: { type: number, x-svc-field-name: current }
paths:
  /data/2.5/weather:
    get:
      operationId: current
      parameters:
        - { name: lat, in: query, required: true, schema: { type: number } }
        - { name: lon, in: query, required: true, schema: { type: number } }
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema: { $ref: "#/components/schemas/current_weather" }
`;

const OAUTH_SPEC = `openapi: 3.1.0
info: { title: Test Server, version: 1.0.0 }
components:
  securitySchemes:
    oauth2_custom:
      type: oauth2
      description: Custom OAuth 2.0 flow
      flows:
        password:
          tokenUrl: /custom_login
          x-svc-token-transform:
            method: POST
            request_body: "{login: $username, password: $password}"
            response_body: "{access_token: .accessToken, refresh_token: .refreshToken, token_type: \\"bearer\\", expires_in: 3600}"
          refreshUrl: /custom_refresh
          x-svc-refresh-transform:
            method: POST
            request_body: "{refreshToken: .refresh_token}"
            response_body: "{access_token: .accessToken, refresh_token: .refreshToken, token_type: \\"bearer\\", expires_in: 3600}"
          scopes: { read: Read access, write: Write access }
    oauth2:
      type: oauth2
      flows:
        password: { tokenUrl: /token_with_refresh, scopes: { read: Read access } }
        clientCredentials: { tokenUrl: /token_with_refresh, scopes: { read: Read access } }
paths: {}
`;

const IOT = `
type devices_view @view(name: "devices_view",
        sql: """
            SELECT data.*
            FROM (
                (SELECT UNNEST(json_transform(http_data_source_request_scalar(
                    '[$catalog]', '/devices', 'POST', '{}'::JSON, '{}'::JSON, '{}'::JSON,
                    '.items[] | {id: .id, name: .name, number: .number, address: .address, is_managed: .isManaged, coordinates: .coordinates}'
                )::JSON, '[{"address": "VARCHAR", "coordinates": "VARCHAR", "id":"VARCHAR", "is_managed": "BOOLEAN", "name": "VARCHAR", "number": "VARCHAR"}]')) AS data)
            )
        """
    )
    @module(name: "iot") {
    id: String
    name: String
    number: String
    address: String
    is_managed: Boolean
    status: status_types_view @join(references_name: "status_types_view", source_fields: ["number"], references_fields: ["code"])
}

type status_types_view @view(name: "status_types_view",
        sql: """
            FROM (VALUES
                (1, '001', 'Managed'),
                (2, '002', 'Monitoring'),
            ) as data(id, code, name)
        """
    )
    @module(name: "iot") {
    id: Int! @pk
    code: String
    name: String
}
`;

const TELEMETRY = `
type devices_telemetry_view @view(name: "devices_telemetry_view"
    sql: """
        WITH devices AS (
            SELECT LIST(data.id) AS ids
            FROM (SELECT UNNEST(json_transform(http_data_source_request_scalar('[$catalog]', '/devices', 'POST', '{}'::JSON, '{}'::JSON, '{}'::JSON, '. | .items[] | {id: .id}')::JSON, '[{"id":"VARCHAR"}]')) AS data)
        ), telemetry_response AS (
            SELECT http_data_source_request_scalar('[$catalog]', '/devices/telemetry', 'POST', '{}'::JSON, '{}'::JSON, {deviceIds: devices.ids}::JSON, '.devicesTelemetry[]')::JSON AS response
            FROM devices
        )
        SELECT * FROM telemetry_response
    """
) { response: JSON }
`;

function source(name: string, path: string, extra: string, sdl?: string, placed = `prefix: ${name}\nas_module: true\n`): void {
  const dir = join(root, 'catalogs', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'source.yaml'), `type: http\npath: '${path}'\n${placed}${extra}`);
  if (sdl !== undefined) writeFileSync(join(dir, 'schema.graphql'), sdl);
}

beforeAll(async () => {
  rest = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((r) => rest.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(rest.address() as AddressInfo).port}`;
  root = tempDir();
  writeFileSync(join(root, 'owm-spec.yaml'), OWM_SPEC);
  writeFileSync(join(root, 'oauth-spec.yaml'), OAUTH_SPEC);
  // The page's OpenWeatherMap source: the key in x-svc-security (written in the path, as the page does).
  source('owm', `${base}?x-svc-security="{"schema_name":"owm","type":"apiKey","in":"query","api_key":"${KEY}","name":"appid"}"`, 'read_only: true\n',
    `extend type Function {\n  current_weather_raw(lat: Float!, lon: Float!): JSON @function(name: "get_current_weather", sql: "http_data_source_request_scalar([$catalog], '/data/2.5/weather', 'GET', '{}'::JSON, {lat: [lat], lon: [lon]}::JSON, '{}'::JSON, '')", json_cast: true)\n}\n`);
  // Self-describing: the OpenAPI file with x-svc-field-name / x-svc-field-type, the scheme named by schema_name.
  source('owm_spec', `${base}?x-svc-spec-path="${join(root, 'owm-spec.yaml')}"&x-svc-security="{"schema_name":"owm","api_key":"${KEY}"}"`, 'self_defined: true\nread_only: true\n', '# self-defined\n');
  // The page's older version (5-http.md) names the extensions x-svc-type / x-svc-name and gives the security a timeout.
  writeFileSync(join(root, 'owm-spec-old.yaml'), OWM_SPEC.replaceAll('x-svc-field-type', 'x-svc-type').replaceAll('x-svc-field-name', 'x-svc-name'));
  source('owm_old', `${base}?x-svc-spec-path="${join(root, 'owm-spec-old.yaml')}"&x-svc-security="{"schema_name":"owm","api_key":"${KEY}","timeout":"5s"}"`, 'self_defined: true\nread_only: true\n', '# self-defined\n');
  source('custom', `${base}/secured?x-svc-spec-path=${join(root, 'oauth-spec.yaml')}&x-svc-security={"schema_name":"oauth2_custom","flow_name":"password","username":"alice","password":"secret-pw"}`, '',
    `extend type Function {\n  ping: JSON @function(name: "ping", sql: "http_data_source_request_scalar([$catalog], '/ping', 'GET', '{}'::JSON, '{}'::JSON, '{}'::JSON, '')")\n}\n`);
  source('iot', base, '', IOT, '');
  source('telemetry', base, '', TELEMETRY);
  source('dicts', base, '', `extend type Function {\n  test_get(id: Int!): dict_entry @function(name: "test_get", sql: "http_data_source_request_scalar([$catalog], '/dict', 'GET', '{}'::JSON, {id: [id]}::JSON, '{}'::JSON, '')", json_cast: true)\n}\ntype dict_entry { name: String value: Float }\n`);
  t = await startApp({ CATALOGS_DIR: join(root, 'catalogs'), LOG_LEVEL: 'silent' });
}, 90_000);

afterAll(async () => {
  await t?.close();
  rest?.closeAllConnections();
  await new Promise<void>((r) => rest.close(() => r()));
});

/** `data` of a query that must succeed (test/pg/support.ts). */
const ok = (query: string, variables?: Record<string, unknown>) => data(t, query, variables);

describe('hugr docs: HTTP RESTful API (4-engine-configuration/1-data-sources/4-http.md)', () => {
  it('Set up HTTP RESTful API Data Source: insert_data_sources with the page\'s variables, then load it', async () => {
    const data = { name: 'http_api', type: 'http', path: base, prefix: 'api', description: 'My HTTP RESTful API data source', read_only: false, self_defined: false, as_module: true, disabled: false };
    const d = await ok('mutation addHttpDataSource($data: core_data_sources_mut_input_data! = {}) { core { insert_data_sources(data: $data) { name description as_module disabled path prefix read_only self_defined type } } }', { data });
    expect(d.core.insert_data_sources).toEqual(data);
    const r = await ok('mutation { function { core { load_data_source(name: "http_api") { success message } } } }');
    expect(r.function.core.load_data_source, JSON.stringify(r)).toMatchObject({ success: true });
  });

  it('Perform HTTP Requests: function { core { http_data_source_request_scalar } } answers the JSON text', async () => {
    const d = await ok(`query getCurrentWeather { function { core { http_data_source_request_scalar(source: "owm", path: "/data/2.5/weather", method: "GET", headers: {}, parameters: { lat: 35.6895, lon: 139.6917 }, body: {}, jq: "") } } }`);
    const answer = JSON.parse(d.function.core.http_data_source_request_scalar);
    expect(answer).toMatchObject({ base: 'stations', name: 'Tokyo', coord: { lat: 35.6895, lon: 139.6917 } });
    expect(seen.at(-1)!.url.searchParams.get('appid')).toBe(KEY);
  });

  it('Path and Parameters / Security Settings: x-svc-security apiKey in the query string; a catalog function in hugr\'s form', async () => {
    const d = await ok('{ function { owm { current_weather_raw(lat: 35.6895, lon: 139.6917) } } }');
    expect(d.function.owm.current_weather_raw).toMatchObject({ name: 'Tokyo', rain: { '1h': 4.34 } });
    const r = await ok('{ core { data_sources(filter: {name: {eq: "owm"}}) { path } } }');
    expect(r.core.data_sources[0].path).not.toContain(KEY);
  });

  it('OAuth2 Customization: the page\'s password flow with x-svc-token-transform, the scheme read from the OpenAPI file', async () => {
    const d = await ok('{ function { custom { ping } } }');
    expect(d.function.custom.ping).toEqual({ ok: true });
    const login = seen.filter((s) => s.url.pathname === '/custom_login').at(-1)!;
    expect(JSON.parse(login.body)).toEqual({ login: 'alice', password: 'secret-pw' });
  });

  it('Self-Describing APIs: functions and types from the OpenAPI file, x-svc-field-name and x-svc-field-type applied', async () => {
    const d = await ok('{ function { owm_spec { current(lat: 35.6895, lon: 139.6917) { name dt rain { current } common { country sunrise } } } } }');
    expect(d.function.owm_spec.current).toEqual({ name: 'Tokyo', dt: '2025-06-09T15:46:00.000Z', rain: { current: 4.34 }, common: { country: 'JP', sunrise: '2025-06-09T19:25:04.000Z' } });
  });

  it('Add Function Views: a view over UNNEST(json_transform(http_data_source_request_scalar(...))) with a join to a VALUES view', async () => {
    const d = await ok('{ iot { devices_view(filter: {is_managed: {eq: true}}) { id name number is_managed status { name } } devices_view_aggregation { _rows_count } } }');
    expect(d.iot.devices_view).toEqual([{ id: 'd1', name: 'pump', number: '001', is_managed: true, status: { name: 'Managed' } }]);
    expect(d.iot.devices_view_aggregation._rows_count).toBe(2);
  });

  it('Add Function Views (difference): a request reading the query\'s own rows (devices_telemetry_view) is refused at load with its file and line', async () => {
    const d = await ok('{ function { core { data_source_status(name: "telemetry") } } }');
    expect(d.function.core.data_source_status).toMatch(/view "devices_telemetry_view" \(.*schema\.graphql:2, line \d+ of its sql\): "devices" is not read in an http request/);
  });

  it('Extend Data Objects with Function Calls: the http function a row calls answers each argument set (batched row calls: test/http/http-source.test.ts)', async () => {
    const d = await ok('{ function { dicts { a: test_get(id: 1) { name value } b: test_get(id: 2) { name value } } } }');
    expect(d.function.dicts).toEqual({ a: { name: 'n-1', value: 10 }, b: { name: 'n-2', value: 20 } });
  });
});

describe('hugr docs: HTTP RESTful API, older version (4-engine-configuration/1-data-sources/5-http.md)', () => {
  it('Self-Describing APIs with the older extension names x-svc-type / x-svc-name and a security timeout', async () => {
    const d = await ok('{ function { owm_old { current(lat: 35.6895, lon: 139.6917) { name dt rain { current } common { country sunrise } } } } }');
    expect(d.function.owm_old.current).toEqual({ name: 'Tokyo', dt: '2025-06-09T15:46:00.000Z', rain: { current: 4.34 }, common: { country: 'JP', sunrise: '2025-06-09T19:25:04.000Z' } });
  });
});
