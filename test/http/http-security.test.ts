// x-svc-security (hugr's x-hugr-security) on http sources (issue 32 item 2): basic, apiKey in a
// header or the query string, OAuth2 client credentials and password flows with refresh and with
// jq token transforms from an OpenAPI document, against a REST service and an OAuth2 token endpoint
// on loopback. Credentials never appear in answers, errors or core.data_sources reads.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

const CLIENT_SECRET = 'cs-very-secret-1';
const PASSWORD = 'pw-very-secret-2';
const API_KEY = 'key-very-secret-3';
const grants: string[] = [];
const valid = new Set<string>();
let counter = 0;
let rest: Server;
let idp: Server;
let app: TestApp;

const issue = (prefix: string) => {
  const t = `${prefix}-${++counter}`;
  valid.add(t);
  return t;
};

function send(res: ServerResponse, status: number, v: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(v));
}

function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
}

/** The OAuth2 token endpoint: RFC 6749 form posts. */
function token(req: IncomingMessage, res: ServerResponse, body: string): void {
  const f = new URLSearchParams(body);
  grants.push(f.get('grant_type') ?? '?');
  if (req.url !== '/oauth/token' || req.method !== 'POST') return send(res, 404, {});
  if (f.get('grant_type') === 'client_credentials') {
    if (f.get('client_id') !== 'svc-client' || f.get('client_secret') !== CLIENT_SECRET) return send(res, 401, { error: 'invalid_client' });
    return send(res, 200, { access_token: issue('cc'), token_type: 'bearer', expires_in: 1, refresh_token: issue('rt') });
  }
  if (f.get('grant_type') === 'refresh_token') {
    if (!valid.has(f.get('refresh_token') ?? '')) return send(res, 400, { error: 'invalid_grant' });
    return send(res, 200, { access_token: issue('cc'), token_type: 'bearer', expires_in: 3600 });
  }
  if (f.get('grant_type') === 'password') {
    if (f.get('username') !== 'alice' || f.get('password') !== PASSWORD) return send(res, 401, { error: 'invalid_grant' });
    return send(res, 200, { access_token: issue('pw'), token_type: 'Bearer', expires_in: 3600 });
  }
  send(res, 400, { error: 'unsupported_grant_type' });
}

function api(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const auth = req.headers.authorization ?? '';
  // A login endpoint that is not OAuth2 (hugr's "OAuth2 customization"): JSON in, camelCase out.
  if (url.pathname === '/custom_login') {
    const b = JSON.parse(body || '{}');
    grants.push('custom_login');
    return b.login === 'alice' && b.password === PASSWORD ? send(res, 200, { accessToken: issue('cu'), refreshToken: issue('cr') }) : send(res, 401, {});
  }
  if (url.pathname === '/custom_refresh') {
    grants.push('custom_refresh');
    return valid.has(JSON.parse(body || '{}').refreshToken) ? send(res, 200, { accessToken: issue('cu'), refreshToken: issue('cr') }) : send(res, 401, {});
  }
  if (url.pathname === '/spec.yaml') return send(res, 404, {});
  const who =
    url.pathname.startsWith('/basic') ? (auth === `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}` ? 'basic' : null)
    : url.pathname.startsWith('/hkey') ? (req.headers['x-api-key'] === API_KEY ? 'header key' : null)
    : url.pathname.startsWith('/qkey') ? (url.searchParams.get('appid') === API_KEY ? 'query key' : null)
    : valid.has(auth.replace(/^Bearer /, '')) ? auth.replace(/^Bearer /, '').split('-')[0]! : null;
  if (!who) return send(res, 401, { error: `no: ${auth}` });
  send(res, 200, { who, q: url.searchParams.get('q'), appid: url.searchParams.has('appid') });
}

const FN = `extend type Function {
  whoami(q: String): JSON @function(name: "whoami", sql: "http_data_source_request_scalar([$catalog], '/me', 'GET', '{}'::JSON, {q: [q]}::JSON, '{}'::JSON, '')")
}
`;

function source(dir: string, name: string, path: string, sdl = FN): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'source.yaml'), `type: http\npath: '${path}'\nprefix: ${name}\nas_module: true\n`);
  writeFileSync(join(dir, name, 'schema.graphql'), sdl);
}

beforeAll(async () => {
  rest = serve(api);
  idp = serve(token);
  await new Promise<void>((r) => rest.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(rest.address() as AddressInfo).port}`;
  const tokenUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}/oauth/token`;
  process.env.SVC_SEC_PASSWORD = PASSWORD;
  process.env.SVC_SEC_CLIENT_SECRET = CLIENT_SECRET;
  process.env.SVC_SEC_API_KEY = API_KEY;
  const root = tempDir();
  const dir = join(root, 'catalogs');
  source(dir, 'basic', `${base}/basic?x-svc-security={"type":"http","scheme":"basic","username":"alice","password":"[$SVC_SEC_PASSWORD]"}`);
  source(dir, 'hkey', `${base}/hkey?x-svc-security={"type":"apiKey","in":"header","name":"X-Api-Key","api_key":"[$SVC_SEC_API_KEY]"}`);
  // hugr's own spelling, the object in double quotes, the key written in the path itself.
  source(dir, 'qkey', `${base}/qkey?x-hugr-security="{"schema_name":"owm","type":"apiKey","in":"query","api_key":"${API_KEY}","name":"appid"}"`);
  source(dir, 'cc', `${base}/cc?x-svc-timeout=2s&x-svc-security={"type":"oauth2","flow_name":"clientCredentials","client_id":"svc-client","client_secret":"[$SVC_SEC_CLIENT_SECRET]","flows":{"clientCredentials":{"tokenUrl":"${tokenUrl}","scopes":{"read":"r"}}}}`);
  source(dir, 'pw', `${base}/pw?x-svc-security={"type":"oauth2","flow_name":"password","username":"alice","password":"[$SVC_SEC_PASSWORD]","client_id":"svc-client","flows":{"password":{"tokenUrl":"${tokenUrl}"}}}`);
  // svc's own parameter with the token written in the path (an earlier review read it back in clear).
  source(dir, 'tok', `${base}/basic?x-svc-token=tok-literal-secret-9&x-svc-timeout=2s`);
  source(dir, 'badcc', `${base}/cc?x-svc-retries=0&x-svc-security={"type":"oauth2","flow_name":"clientCredentials","client_id":"svc-client","client_secret":"wrong-${CLIENT_SECRET}","flows":{"clientCredentials":{"tokenUrl":"${tokenUrl}"}}}`);
  // The security scheme in an OpenAPI file (x-svc-spec-path): a login that is not OAuth2, met by jq transforms.
  const spec = join(root, 'spec.yaml');
  writeFileSync(spec, `openapi: 3.1.0
info: { title: custom, version: "1" }
components:
  securitySchemes:
    custom:
      type: oauth2
      flows:
        password:
          tokenUrl: /custom_login
          x-svc-token-transform:
            method: POST
            request_body: "{login: $username, password: $password}"
            response_body: "{access_token: .accessToken, refresh_token: .refreshToken, token_type: \\"bearer\\", expires_in: 1}"
          refreshUrl: /custom_refresh
          x-svc-refresh-transform:
            method: POST
            request_body: "{refreshToken: .refresh_token}"
            response_body: "{access_token: .accessToken, refresh_token: .refreshToken, token_type: \\"bearer\\", expires_in: 3600}"
paths: {}
`);
  source(dir, 'custom', `${base}/custom?x-svc-spec-path="${spec}"&x-svc-security={"schema_name":"custom","flow_name":"password","username":"alice","password":"[$SVC_SEC_PASSWORD]"}`);
  app = await startApp({ CATALOGS_DIR: dir, LOG_LEVEL: 'silent' });
}, 60_000);

afterAll(async () => {
  await app?.close();
  for (const s of [rest, idp]) {
    s?.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

const who = async (source: string, q = 'x') => {
  const r = await app.gql(`{ function { ${source} { whoami(q: "${q}") } } }`);
  expect(r.body.errors, r.text).toBeUndefined();
  return r.body.data.function[source].whoami;
};

describe('x-svc-security', () => {
  it('basic: the Authorization header from username and password', async () => {
    expect(await who('basic')).toMatchObject({ who: 'basic', q: 'x' });
  });

  it('apiKey in a header, and in the query string beside the request parameters', async () => {
    expect(await who('hkey')).toMatchObject({ who: 'header key' });
    expect(await who('qkey', 'y')).toEqual({ who: 'query key', q: 'y', appid: true });
  });

  it('OAuth2 client credentials: one token for many calls, refreshed with the refresh token once expired', async () => {
    grants.length = 0;
    expect(await who('cc')).toMatchObject({ who: 'cc' });
    expect(await who('cc')).toMatchObject({ who: 'cc' });
    expect(grants).toEqual(['client_credentials']);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await who('cc')).toMatchObject({ who: 'cc' });
    expect(grants).toEqual(['client_credentials', 'refresh_token']);
  });

  it('OAuth2 password flow; a token the API no longer accepts is fetched again', async () => {
    grants.length = 0;
    expect(await who('pw')).toMatchObject({ who: 'pw' });
    valid.clear();
    expect(await who('pw')).toMatchObject({ who: 'pw' });
    expect(grants).toEqual(['password', 'password']);
  });

  it("OAuth2 with hugr's token and refresh transforms, the scheme read from an OpenAPI file", async () => {
    grants.length = 0;
    expect(await who('custom')).toMatchObject({ who: 'cu' });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await who('custom')).toMatchObject({ who: 'cu' });
    expect(grants).toEqual(['custom_login', 'custom_refresh']);
  });

  it('a refused client secret fails the call without showing any credential', async () => {
    const r = await app.gql('{ function { badcc { whoami(q: "x") } } }');
    expect(r.body.errors?.[0]).toMatchObject({ message: 'http source "badcc": the OAuth2 token endpoint answered 401', extensions: { code: 'SOURCE_UNAVAILABLE' } });
    expect(r.text).not.toContain(CLIENT_SECRET);
  });

  it('core.data_sources shows the path with its credentials masked', async () => {
    const r = await app.gql('{ core { data_sources(filter: {name: {in: ["qkey", "basic", "badcc", "tok"]}}, order_by: [{field: "name"}]) { name path } } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.text).not.toContain(API_KEY);
    expect(r.text).not.toContain(CLIENT_SECRET);
    const paths = Object.fromEntries(r.body.data.core.data_sources.map((d: { name: string; path: string }) => [d.name, d.path]));
    expect(paths.qkey).toContain('"api_key":"***"');
    expect(paths.basic).toContain('"password":"[$SVC_SEC_PASSWORD]"');
    expect(paths.tok).toContain('x-svc-token=***&x-svc-timeout=2s');
    expect(r.text).not.toContain('tok-literal-secret-9');
  });
});
