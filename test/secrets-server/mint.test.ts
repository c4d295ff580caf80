import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, escapeLiteral } from '../../src/secrets-server/mint.js';
import { TestIdp } from './helpers/idp.js';
import { AUDIENCE, configDoc, EXCHANGE_CLIENT, secretBody, seg, startServer, type Started } from './helpers/harness.js';
import { scanLogsAfterAll } from './helpers/leaks.js';
import { markSensitive } from './helpers/sensitive.js';

let idp: TestIdp;
let srv: Started;
let admin: string;
let ann: string;
let bob: string;

scanLogsAfterAll();

const userClaims = (sub: string) => ({
  sub, aud: AUDIENCE, realm_access: { roles: ['reader'] }, email: `${sub}@example.com`, level: 42, staff: true,
  empty: '', list: ['a'], obj: { a: 1 }, nested_token: markSensitive('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl'),
});

beforeAll(async () => {
  idp = await TestIdp.start({ clients: { [EXCHANGE_CLIENT.id]: EXCHANGE_CLIENT.secret } });
  srv = await startServer(configDoc([idp]));
  admin = await idp.token({ sub: 'root', aud: AUDIENCE, realm_access: { roles: ['admin'] } });
  ann = await idp.token(userClaims('ann'));
  bob = await idp.token(userClaims('bob'));
});
afterAll(async () => {
  await srv.close();
  await idp.close();
});

async function create(name: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const r = await srv.call('PUT', `/v1/secrets/${seg(name)}`, { token: admin, body: secretBody(params, extra) });
  expect(r.status, r.text).toBe(201);
  await srv.call('PUT', `/v1/secrets/${seg(name)}/grants/r`, { token: admin, body: { principal: 'role:reader', verbs: ['use'] } });
}
const read = (name: string, token = ann) => srv.call('GET', `/v1/secrets/${seg(name)}`, { token });

describe('the generator grammar', () => {
  it('escapes with a doubled plus, lowercase prefix only', () => {
    expect(classify('mint+claim://email')).toEqual({ generator: { kind: 'claim', claim: 'email' } });
    expect(classify('mint++claim://email')).toEqual({ literal: 'mint+claim://email' });
    expect(classify('mint+++x')).toEqual({ literal: 'mint++x' });
    expect(classify('MINT+claim://email')).toEqual({ literal: 'MINT+claim://email' });
    expect(classify('mint')).toEqual({ literal: 'mint' });
    expect(escapeLiteral('mint+claim://email')).toBe('mint++claim://email');
    expect(classify(escapeLiteral('mint++x'))).toEqual({ literal: 'mint++x' });
    expect(classify('mint+exchange://a%20b?scope=read+write%21')).toEqual({
      generator: { kind: 'exchange', audience: 'a b', scope: 'read write!' },
    });
  });
});

describe('refusals at PUT', () => {
  const cases: [string, string][] = [
    ['mint+claim://sid', 'session claim'],
    ['mint+claim://jti', 'token id claim'],
    ['mint+claim://nonce', 'nonce claim'],
    ['mint+claim://', 'no claim'],
    ['mint+login://idp/flow', 'another server kind'],
    ['mint+rule://x', 'another server kind'],
    ['mint+bogus://x', 'unknown kind'],
    [`mint+exchange://${AUDIENCE}`, 'own audience'],
    ['mint+exchange://', 'no audience'],
    ['mint+exchange://api?audience=x', 'query other than scope'],
    ['mint+exchange://api?scope=a&scope=b', 'two scopes'],
    ['mint+exchange://api?scope=', 'empty scope'],
    ['mint+exchange://%ZZapi', 'bad percent encoding'],
  ];
  for (const [value, why] of cases) {
    it(`refuses ${why}, naming the parameter and never the value`, async () => {
      const r = await srv.call('PUT', '/v1/secrets/refused', { token: admin, body: secretBody({ the_param: value }) });
      expect(r.status).toBe(422);
      expect(r.json.type).toBe('invalid_secret');
      expect(r.json.detail).toContain('parameter "the_param"');
      expect(r.text).not.toContain(value.slice(5));
    });
  }
  it('refuses the legacy alias for the own audience or without an audience', async () => {
    const own = await srv.call('PUT', '/v1/secrets/legacy-bad', { token: admin, body: secretBody({ audience: AUDIENCE }, { type: 'http', provider: 'token_exchange' }) });
    expect(own.status).toBe(422);
    const none = await srv.call('PUT', '/v1/secrets/legacy-bad', { token: admin, body: secretBody({}, { type: 'quack', provider: 'token_exchange' }) });
    expect(none.status).toBe(422);
  });
});

describe('mint+exchange://', () => {
  it('serves a token for the caller, dynamic, redacted, with expires_at, cached per user', async () => {
    await create('downstream', { token: 'mint+exchange://downstream-api?scope=read+write', host: 'api.example.com' }, { redact_keys: ['host'] });
    const before = idp.exchanges;
    const r = await read('downstream');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ dynamic: true, redact_keys: ['host', 'token'], provider: 'config' });
    const minted = decodeJwt(r.json.params.token);
    expect(minted).toMatchObject({ sub: 'ann', aud: 'downstream-api', scope: 'read write' });
    expect(Date.parse(r.json.expires_at)).toBe((minted.exp as number) * 1000);
    expect(r.json.params.host).toBe('api.example.com');
    const again = await read('downstream');
    expect(again.json.params.token).toBe(r.json.params.token);
    expect(idp.exchanges).toBe(before + 1);
    const other = await read('downstream', bob);
    expect(decodeJwt(other.json.params.token).sub).toBe('bob');
    expect(idp.exchanges).toBe(before + 2);
    const list = await srv.call('GET', '/v1/secrets', { token: ann });
    expect(list.json.find((d: { name: string }) => d.name === 'downstream').dynamic).toBe(true);
  });

  it('does not reuse a token within 30 s of its expiry', async () => {
    idp.mintedLifetime = 20;
    try {
      await create('short-lived', { token: 'mint+exchange://short-api' });
      const before = idp.exchanges;
      await read('short-lived');
      await read('short-lived');
      expect(idp.exchanges).toBe(before + 2);
    } finally {
      idp.mintedLifetime = 300;
    }
  });

  it('checks the minted token audience', async () => {
    await create('aud-check', { token: 'mint+exchange://checked-api' });
    for (const wrong of ['not-the-requested-one', AUDIENCE]) {
      idp.audienceOverride = wrong;
      const r = await read('aud-check', await idp.token(userClaims(`aud-${wrong}`)));
      expect(r.status).toBe(403);
      expect(r.json.type).toBe('mint_refused');
    }
    idp.audienceOverride = undefined;
  });

  it('answers 403 mint_refused for a lasting refusal and 503 for an outage, naming only the parameter', async () => {
    await create('refused-by-idp', { tok: 'mint+exchange://refused-audience' });
    const lasting = await read('refused-by-idp');
    expect(lasting.status).toBe(403);
    expect(lasting.json).toMatchObject({ type: 'mint_refused' });
    expect(lasting.json.detail).toContain('parameter "tok"');
    await create('outage', { tok: 'mint+exchange://outage-api' });
    idp.outage = true;
    try {
      const r = await read('outage');
      expect(r.status).toBe(503);
      expect(r.json.type).toBe('service_unavailable');
      expect(r.json.detail).toContain('parameter "tok"');
      expect(r.json.params).toBeUndefined();
    } finally {
      idp.outage = false;
    }
  });

  it('serves the legacy token_exchange provider as an exchange', async () => {
    await create('legacy-http', { audience: 'legacy-api', scope: 'read' }, { type: 'http', provider: 'token_exchange' });
    const r = await read('legacy-http');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ provider: 'token_exchange', dynamic: true, redact_keys: ['bearer_token'] });
    expect(decodeJwt(r.json.params.bearer_token)).toMatchObject({ aud: 'legacy-api', scope: 'read', sub: 'ann' });
    await create('legacy-quack', { audience: 'legacy-api' }, { type: 'quack', provider: 'token_exchange' });
    expect(decodeJwt((await read('legacy-quack')).json.params.token).aud).toBe('legacy-api');
  });

  it('refuses when the issuer has no exchange client', async () => {
    const plain = await TestIdp.start();
    const s = await startServer(configDoc([plain], {}, { exchange: undefined }));
    try {
      const a = await plain.token({ sub: 'root', aud: AUDIENCE, realm_access: { roles: ['admin'] } });
      const u = await plain.token({ sub: 'u', aud: AUDIENCE, realm_access: { roles: ['reader'] } });
      await s.call('PUT', '/v1/secrets/x', { token: a, body: secretBody({ t: 'mint+exchange://api' }) });
      await s.call('PUT', '/v1/secrets/x/grants/r', { token: a, body: { principal: 'role:reader', verbs: ['use'] } });
      const r = await s.call('GET', '/v1/secrets/x', { token: u });
      expect(r.status).toBe(403);
      expect(r.json.type).toBe('mint_refused');
    } finally {
      await s.close();
      await plain.close();
    }
  });
});

describe('mint+claim://', () => {
  it('serves strings as they are and numbers and booleans as JSON text', async () => {
    await create('claims', { email: 'mint+claim://email', level: 'mint+claim://level', staff: 'mint+claim://staff' });
    const r = await read('claims');
    expect(r.json.params).toEqual({ email: 'ann@example.com', level: '42', staff: 'true' });
    expect(r.json.redact_keys).toEqual(['email', 'level', 'staff']);
    expect(r.json.dynamic).toBe(true);
    expect(r.json.expires_at).not.toBeNull();
  });
  for (const claim of ['missing', 'empty', 'list', 'obj', 'nested_token']) {
    it(`refuses claim ${claim} at read`, async () => {
      await create(`claim-${claim}`, { v: `mint+claim://${claim}` });
      const r = await read(`claim-${claim}`);
      expect(r.status).toBe(403);
      expect(r.json.type).toBe('mint_refused');
      expect(r.text).not.toContain('eyJ');
    });
  }
});

describe('literals', () => {
  it('unescapes doubled plus, keeps typed values and ${...} forms as written', async () => {
    await create('literals', {
      a: 'mint++claim://email',
      b: 'mint+++x',
      c: 'MINT+claim://email',
      d: { type: 'VARCHAR', value: 'mint+claim://email' },
      e: '${ENV_VAR}',
      f: '$${literal}',
    });
    const r = await read('literals');
    expect(r.json.params).toEqual({
      a: 'mint+claim://email', b: 'mint++x', c: 'MINT+claim://email', d: { type: 'VARCHAR', value: 'mint+claim://email' },
      e: '${ENV_VAR}', f: '$${literal}',
    });
    expect(r.json).toMatchObject({ dynamic: false, expires_at: null, redact_keys: [] });
  });
});
