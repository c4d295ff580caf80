import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdp } from './helpers/idp.js';
import { AUDIENCE, configDoc, secretBody, seg, startServer, type Started } from './helpers/harness.js';
import { scanLogsAfterAll } from './helpers/leaks.js';
import { secretValue } from './helpers/sensitive.js';

let idp: TestIdp;
let srv: Started;
let admin: string;
let analyst: string;
let outsider: string;

scanLogsAfterAll();

beforeAll(async () => {
  idp = await TestIdp.start();
  srv = await startServer(configDoc([idp], { public_url: 'https://secrets.example.com/base/' }));
  admin = await idp.token({ sub: 'root', aud: AUDIENCE, realm_access: { roles: ['admin'] } });
  analyst = await idp.token({ sub: 'ann', aud: [AUDIENCE, 'other'], realm_access: { roles: ['analyst'] }, groups: ['team-a'] });
  outsider = await idp.token({ sub: 'otto', aud: AUDIENCE, realm_access: { roles: ['nobody'] } });
});
afterAll(async () => {
  await srv.close();
  await idp.close();
});

const put = (name: string, body: unknown, token = admin, headers: Record<string, string> = {}) =>
  srv.call('PUT', `/v1/secrets/${seg(name)}`, { token, body, headers });
const grantUse = (name: string, principal: string, id = 'g1') =>
  srv.call('PUT', `/v1/secrets/${seg(name)}/grants/${id}`, { token: admin, body: { principal, verbs: ['use'] } });

describe('discovery', () => {
  it('describes the protocol, with optional lists absent', async () => {
    const r = await srv.call('GET', '/.well-known/duckdb-secrets');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      protocol: 'duckdb-secrets/1',
      api: 'https://secrets.example.com/base',
      issuers: [{ issuer: idp.issuer, audience: AUDIENCE }],
      capabilities: { write: true, annotate: true, dynamic: true, delegation: false, variables: true },
    });
  });

  it('is served under the public_url path too, and so is the API', async () => {
    expect((await srv.call('GET', '/base/.well-known/duckdb-secrets')).status).toBe(200);
    expect((await srv.call('GET', '/base/v1/whoami', { token: analyst })).status).toBe(200);
    expect((await srv.call('GET', '/basement/v1/whoami', { token: analyst })).status).toBe(404);
  });

  it('answers unknown routes and methods with not_found problems', async () => {
    for (const [m, p] of [['GET', '/'], ['GET', '/v2/secrets'], ['POST', '/v1/secrets/x'], ['GET', '/v1/secrets/'], ['GET', '/v1/secrets/a/b']]) {
      const r = await srv.call(m as string, p as string, { token: admin });
      expect(r.status, `${m} ${p}`).toBe(404);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.json).toEqual({ type: 'not_found', title: 'not_found', status: 404, detail: 'no such route' });
    }
  });
});

describe('whoami', () => {
  it('names the caller with principals and create permission', async () => {
    const r = await srv.call('GET', '/v1/whoami', { token: analyst });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      issuer: idp.issuer,
      subject: `subject:${idp.issuer}|ann`,
      roles: ['role:analyst', 'group:team-a'],
      actor: null,
      permissions: { create: false },
    });
    expect(Date.parse(r.json.expires_at)).toBeGreaterThan(Date.now());
    expect((await srv.call('GET', '/v1/whoami', { token: admin })).json.permissions).toEqual({ create: true });
  });
});

describe('secrets', () => {
  it('creates with If-None-Match: *, and a role granted use reads it back', async () => {
    const value = secretValue('s3key');
    const c = await put('warehouse', secretBody({ key_id: 'AKIA', secret: value }, { redact_keys: ['secret'] }), admin, { 'If-None-Match': '*' });
    expect(c.status).toBe(201);
    expect(c.headers.etag).toBe('"1"');
    expect(c.json).toMatchObject({ name: 'warehouse', version: '1', owner: `subject:${idp.issuer}|root`, dynamic: false, comment: null });
    expect(c.json.params).toBeUndefined();
    expect((await grantUse('warehouse', 'role:analyst')).status).toBe(200);
    const r = await srv.call('GET', '/v1/secrets/warehouse', { token: analyst });
    expect(r.status).toBe(200);
    expect(r.headers.etag).toBe('"1"');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json).toMatchObject({ params: { key_id: 'AKIA', secret: value }, redact_keys: ['secret'], expires_at: null, permissions: ['use'] });
  });

  it('a second If-None-Match: * create is 412, and an outsider sees 404 exactly like a missing secret', async () => {
    expect((await put('warehouse', secretBody({}), admin, { 'If-None-Match': '*' })).status).toBe(412);
    const invisible = await srv.call('GET', '/v1/secrets/warehouse', { token: outsider });
    const missing = await srv.call('GET', '/v1/secrets/nothing-here', { token: outsider });
    expect(invisible.status).toBe(404);
    expect(invisible.text).toBe(missing.text);
    expect(invisible.headers.etag).toBeUndefined();
    for (const m of ['DELETE', 'PATCH']) {
      const a = await srv.call(m, '/v1/secrets/warehouse', { token: outsider, body: { comment: 'x' } });
      const b = await srv.call(m, '/v1/secrets/nothing-here', { token: outsider, body: { comment: 'x' } });
      expect([a.status, a.text]).toEqual([b.status, b.text]);
    }
  });

  it('an admin without a grant cannot read', async () => {
    const r = await srv.call('GET', '/v1/secrets/warehouse', { token: admin });
    expect(r.status).toBe(403);
    expect(r.json.type).toBe('no_verb');
  });

  it('lists what the caller holds a verb on, filtered by type', async () => {
    await put('other-type', secretBody({}, { type: 'gcs' }));
    const a = await srv.call('GET', '/v1/secrets', { token: analyst });
    expect(a.json.map((d: { name: string }) => d.name)).toEqual(['warehouse']);
    const all = await srv.call('GET', '/v1/secrets', { token: admin });
    expect(all.json.map((d: { name: string }) => d.name)).toEqual(['other-type', 'warehouse']);
    expect(all.json[0].permissions).toEqual(['create', 'update', 'delete', 'annotate', 'grant']);
    const typed = await srv.call('GET', '/v1/secrets?type=gcs', { token: admin });
    expect(typed.json.map((d: { name: string }) => d.name)).toEqual(['other-type']);
    expect((await srv.call('GET', '/v1/secrets', { token: outsider })).json).toEqual([]);
  });

  it('checks permission before precondition on PUT', async () => {
    // Existing but invisible: 403, never 412, with the very text of a missing name.
    const existing = await put('warehouse', secretBody({}), outsider, { 'If-None-Match': '*' });
    const missing = await put('brand-new', secretBody({}), outsider, { 'If-Match': '"1"' });
    expect(existing.status).toBe(403);
    expect(existing.text).toBe(missing.text);
    // Visible through a grant but no update verb: the same 403.
    const visible = await put('warehouse', secretBody({}), analyst, { 'If-Match': '"999"' });
    expect(visible.status).toBe(403);
    expect(visible.text).toBe(missing.text);
  });

  it('applies If-Match and If-None-Match per RFC 9110', async () => {
    await put('cond', secretBody({ a: '1' }));
    expect((await put('missing-cond', secretBody({}), admin, { 'If-Match': '*' })).status).toBe(412);
    expect((await put('missing-cond', secretBody({}), admin, { 'If-Match': '"1"' })).status).toBe(412);
    expect((await put('cond', secretBody({}), admin, { 'If-None-Match': '"1"' })).status).toBe(412);
    expect((await put('cond', secretBody({}), admin, { 'If-None-Match': 'W/"1"' })).status).toBe(412);
    expect((await put('cond', secretBody({}), admin, { 'If-Match': 'W/"1"' })).status).toBe(412);
    expect((await put('cond', secretBody({}), admin, { 'If-Match': '"7", "8"' })).status).toBe(412);
    expect((await put('cond', secretBody({}), admin, { 'If-Match': 'garbage' })).status).toBe(412);
    const ok = await put('cond', secretBody({ a: '2' }), admin, { 'If-Match': '"7", "1"' });
    expect(ok.status).toBe(200);
    expect(ok.headers.etag).toBe('"2"');
    expect(ok.json.version).toBe('2');
    expect((await put('cond', secretBody({ a: '3' }), admin, { 'If-None-Match': '"1", W/"5"' })).status).toBe(200);
    expect((await put('cond', secretBody({}), admin, { 'If-Match': '*' })).status).toBe(200);
  });

  it('annotates and deletes with the right verbs', async () => {
    await put('notes', secretBody({}));
    const p = await srv.call('PATCH', '/v1/secrets/notes', { token: admin, body: { comment: 'rotated monthly' } });
    expect(p.status).toBe(200);
    expect(p.json).toMatchObject({ comment: 'rotated monthly', version: '2' });
    expect((await srv.call('PATCH', '/v1/secrets/notes', { token: admin, body: { comment: 'x', extra: 1 } })).status).toBe(422);
    expect((await srv.call('DELETE', '/v1/secrets/notes', { token: admin, headers: { 'If-Match': '"1"' } })).status).toBe(412);
    expect((await srv.call('DELETE', '/v1/secrets/notes', { token: admin })).status).toBe(204);
    expect((await srv.call('DELETE', '/v1/secrets/notes', { token: admin })).status).toBe(404);
  });
});

describe('request bodies', () => {
  const bad = async (raw: string | Buffer, why: string) => {
    const r = await srv.call('PUT', '/v1/secrets/body-check', { token: admin, raw });
    expect(r.status, why).toBe(422);
    expect(r.json.type).toBe('invalid_secret');
  };
  it('refuses null params, trailing JSON, a second document and unknown fields', async () => {
    const ok = JSON.stringify(secretBody({ a: 'b' }));
    await bad(JSON.stringify(secretBody(null as never)), 'null params');
    await bad(JSON.stringify(secretBody({ a: null })), 'a null parameter');
    await bad(JSON.stringify(secretBody({ a: { type: 'INTEGER', value: null } })), 'a null typed value');
    await bad(`${ok} x`, 'trailing data');
    await bad(`${ok}${ok}`, 'a second document');
    await bad(`${ok}\n${ok}`, 'a second document on a new line');
    await bad(JSON.stringify({ ...secretBody({}), colour: 'red' }), 'unknown field');
    await bad(JSON.stringify(secretBody({ a: { type: 'INTEGER', value: 1, extra: true } })), 'unknown field in a typed value');
    await bad(JSON.stringify({ type: 's3', provider: 'config', params: {} }), 'missing fields');
    await bad(Buffer.from([0x7b, 0xff, 0x7d]), 'invalid UTF-8');
    await bad('[]', 'an array');
    await bad(`{"type":"s3","provider":"config","scope":[],"params":{"a":"${'x'.repeat(1024 * 1024)}"},"redact_keys":[]}`, 'over 1 MiB');
    const big = `{"type":"s3","provider":"config","scope":[],"params":{"a":"${'y'.repeat(1024 * 1024)}"},"redact_keys":[]}`;
    const chunked = await srv.call('PUT', '/v1/secrets/body-check', { token: admin, raw: big, chunked: true });
    expect([chunked.status, chunked.json.type]).toEqual([422, 'invalid_secret']);
    expect((await srv.call('PUT', '/v1/secrets/body-check', { token: admin, raw: ok, chunked: true })).status).toBe(201);
  });
  it('keeps parameters named like Object internals', async () => {
    const raw = '{"type":"s3","provider":"config","scope":[],"params":{"__proto__":"p","constructor":{"type":"INTEGER","value":1}},"redact_keys":[]}';
    expect((await srv.call('PUT', '/v1/secrets/proto', { token: admin, raw })).status).toBe(201);
    await grantUse('proto', 'role:analyst');
    const r = await srv.call('GET', '/v1/secrets/proto', { token: analyst });
    expect(Object.keys(r.json.params)).toEqual(['__proto__', 'constructor']);
    expect(r.text).toContain('"__proto__":"p"');
  });
  it('keeps typed values as given', async () => {
    await put('typed', secretBody({ port: { type: 'INTEGER', value: 5432 }, flag: { type: 'BOOLEAN', value: false } }));
    await grantUse('typed', 'group:team-a');
    const r = await srv.call('GET', '/v1/secrets/typed', { token: analyst });
    expect(r.json.params).toEqual({ port: { type: 'INTEGER', value: 5432 }, flag: { type: 'BOOLEAN', value: false } });
  });
});

describe('names', () => {
  const status = async (encoded: string) => (await srv.call('PUT', `/v1/secrets/${encoded}`, { token: admin, body: secretBody({}) })).status;
  it('refuses edge whitespace, NBSP, control characters and invalid UTF-8', async () => {
    for (const name of [' lead', 'trail ', '\u00a0nbsp', 'nbsp\u00a0', 'tab\t', 'ctl\u0001x', 'del\u007fx', 'line\nbreak', '\u3000ideo']) {
      expect(await status(seg(name)), JSON.stringify(name)).toBe(422);
    }
    expect(await status('bad%FFutf8')).toBe(422);
    expect(await status('%ED%A0%80lone-surrogate')).toBe(422);
    expect(await status('%E0%80%80overlong')).toBe(422);
  });
  it('takes 200 code points and refuses 201', async () => {
    const two = '€'.repeat(199) + '😀';
    expect([...two].length).toBe(200);
    expect(await status(seg(two))).toBe(201);
    expect(await status(seg(`${two}x`))).toBe(422);
    expect(await status(seg('inner\u00a0nbsp is fine'))).toBe(201);
  });
  it('keeps a name holding /v1/variables in the secrets namespace', async () => {
    expect((await put('a/v1/variables', secretBody({ x: '1' }))).status).toBe(201);
    const secrets = await srv.call('GET', '/v1/secrets', { token: admin });
    expect(secrets.json.map((d: { name: string }) => d.name)).toContain('a/v1/variables');
    const vars = await srv.call('GET', '/v1/variables', { token: admin });
    expect(vars.json).toEqual([]);
    expect((await srv.call('GET', '/v1/secrets/a/v1/variables', { token: admin })).status).toBe(404);
    const g = await srv.call('GET', `/v1/secrets/${seg('a/v1/variables')}/grants`, { token: admin });
    expect(g.status).toBe(200);
  });
});

describe('grants', () => {
  it('refuses grants beyond use to a role or group', async () => {
    await put('granted', secretBody({}));
    for (const body of [
      { principal: 'role:analyst', verbs: ['use', 'grant'] },
      { principal: 'role:analyst', verbs: ['update'] },
      { principal: 'role:analyst', verbs: [] },
      { principal: `subject:${idp.issuer}|ann`, verbs: ['use'] },
      { principal: 'client:etl', verbs: ['use'] },
      { principal: 'role:analyst', verbs: ['use'], extra: 1 },
    ]) {
      const r = await srv.call('PUT', '/v1/secrets/granted/grants/g', { token: admin, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
  });
  it('lists, replaces and deletes grants; only holders of grant may', async () => {
    const a = await grantUse('granted', 'role:analyst', 'one');
    expect(a.json).toEqual([{ id: 'one', principal: 'role:analyst', verbs: ['use'] }]);
    const b = await grantUse('granted', 'group:team-a', 'two');
    expect(b.json).toHaveLength(2);
    const c = await grantUse('granted', 'role:auditor', 'one');
    expect(c.json).toEqual([
      { id: 'one', principal: 'role:auditor', verbs: ['use'] },
      { id: 'two', principal: 'group:team-a', verbs: ['use'] },
    ]);
    const denied = await srv.call('GET', '/v1/secrets/granted/grants', { token: analyst });
    expect(denied.status).toBe(403);
    expect((await srv.call('GET', '/v1/secrets/granted/grants', { token: outsider })).status).toBe(404);
    expect((await srv.call('DELETE', '/v1/secrets/granted/grants/two', { token: admin })).status).toBe(204);
    expect((await srv.call('DELETE', '/v1/secrets/granted/grants/two', { token: admin })).status).toBe(404);
    expect((await srv.call('GET', '/v1/secrets/granted', { token: analyst })).status).toBe(404);
  });
});

describe('variables', () => {
  it('are a namespace of their own with the same rules', async () => {
    const r = await srv.call('PUT', '/v1/variables/region', { token: admin, body: secretBody({ value: 'eu-west-1' }), headers: { 'If-None-Match': '*' } });
    expect(r.status).toBe(201);
    await srv.call('PUT', '/v1/variables/region/grants/r', { token: admin, body: { principal: 'role:analyst', verbs: ['use'] } });
    const v = await srv.call('GET', '/v1/variables/region', { token: analyst });
    expect(v.json).toMatchObject({ name: 'region', params: { value: 'eu-west-1' }, dynamic: false });
    expect((await srv.call('GET', '/v1/secrets/region', { token: admin })).status).toBe(404);
    expect((await srv.call('GET', '/v1/variables/region', { token: outsider })).status).toBe(404);
    const gen = await srv.call('PUT', '/v1/variables/gen', { token: admin, body: secretBody({ t: 'mint+claim://email' }) });
    expect(gen.status).toBe(422);
    expect(gen.json.detail).toContain('parameter "t"');
  });
});
