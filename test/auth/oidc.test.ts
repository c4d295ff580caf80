// OIDC (SPEC §6): discovery, JWKS verification of ID and access tokens from Bearer or the session
// cookie, roles from a claim or a scope, user name and email; a JWT of another issuer goes on to the
// JWT provider; an unreachable issuer is a server-side failure, not the caller's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityService } from '../../src/auth/identity.service.js';
import { authVariables } from '../../src/auth/variables.js';
import { loadConfig } from '../../src/config/load.js';
import { startApp, type TestApp } from '../support/app.js';
import { ME, meOf, writeConfig } from './helpers/config.js';
import { TestIdp } from './helpers/idp.js';

const CLIENT = 'svc-web';
const JWT_SECRET = 'jwt-provider-secret-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let idp: TestIdp;
let t: TestApp;

beforeAll(async () => {
  idp = await TestIdp.start();
  const file = writeConfig({
    auth: {
      oidc: { issuer: idp.issuer, client_id: CLIENT, role_claim: 'realm_access.roles', role_scope_prefix: 'svc:' },
      jwt: { algorithm: 'HS256', secret: JWT_SECRET, issuer: 'https://internal.example', role_claim: 'role' },
    },
  });
  t = await startApp({ CONFIG_FILE: file, ALLOWED_ANONYMOUS: 'false' });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

describe('OIDC tokens', () => {
  it('accepts an ID token as Bearer and shows the issuer as auth_provider', async () => {
    const token = await idp.rs256({ sub: 'o1', aud: CLIENT, name: 'Ada L.', email: 'ada@example.com', realm_access: { roles: ['readonly'] } });
    const r = await t.gql(ME, undefined, bearer(token));
    expect(r.status).toBe(200);
    expect(meOf(r)).toMatchObject({ user_id: 'o1', user_name: 'Ada L.', role: 'readonly', auth_type: 'oidc', auth_provider: idp.issuer });
  });

  it('exposes email as a variable and falls back to preferred_username', async () => {
    const token = await idp.es256({ sub: 'o2', aud: [CLIENT, 'other'], preferred_username: 'grace', email: 'g@example.com', scope: 'openid svc:readonly' });
    const id = await t.app.get(IdentityService).identify(bearer(token));
    expect(id).toMatchObject({ userId: 'o2', userName: 'grace', role: 'readonly', authType: 'oidc', provider: idp.issuer });
    expect(authVariables(id)).toMatchObject({ email: 'g@example.com', provider: idp.issuer, user_name: 'grace' });
  });

  it('accepts an access token that names the client in azp', async () => {
    const token = await idp.rs256({ sub: 'o3', aud: 'some-api', azp: CLIENT, scope: 'svc:readonly' });
    expect(meOf(await t.gql(ME, undefined, bearer(token)))).toMatchObject({ user_id: 'o3', role: 'readonly', user_name: 'o3' });
  });

  it('reads the token from the svc_session cookie', async () => {
    const token = await idp.rs256({ sub: 'o4', aud: CLIENT, realm_access: { roles: ['readonly'] } });
    expect(meOf(await t.gql(ME, undefined, { cookie: `svc_session=${token}` }))).toMatchObject({ user_id: 'o4', auth_type: 'oidc' });
  });

  it('gives role public when neither claim nor scope names one', async () => {
    const id = await t.app.get(IdentityService).identify(bearer(await idp.rs256({ sub: 'o5', aud: CLIENT })));
    expect(id.role).toBe('public');
  });

  it('fetched the discovery document once for all these requests', () => {
    expect(idp.discoveryHits).toBe(1);
  });
});

describe('OIDC refusals', () => {
  const base = { sub: 'x', aud: CLIENT, realm_access: { roles: ['readonly'] } };
  const now = () => Math.floor(Date.now() / 1000);
  it.each([
    ['expired', () => idp.rs256({ ...base, exp: now() - 3600 }), /expired/],
    ['for another client', () => idp.rs256({ ...base, aud: 'not-us' }), /audience/],
    ['signed by a key the issuer does not publish', () => idp.rs256(base, 'rogue', idp.stranger.privateKey), /no key/],
    ['HS256 with the issuer public key as secret', () => idp.confused(base), /algorithm/],
    ['alg none', async () => idp.none(base), /algorithm/],
    ['tampered', () => idp.tampered(base), /signature/],
  ])('%s: 401 without the token in the body', async (_name, make, message) => {
    const token = await make();
    const r = await t.gql(ME, undefined, bearer(token));
    expect(r.status).toBe(401);
    expect(r.body.errors[0].message).toMatch(message);
    expect(r.text).not.toContain(token);
  });
});

describe('order of providers', () => {
  it('passes a JWT of another issuer on to the JWT provider', async () => {
    const token = await idp.hs256({ iss: 'https://internal.example', sub: 'svc-bot', role: 'readonly' }, JWT_SECRET);
    expect(meOf(await t.gql(ME, undefined, bearer(token)))).toMatchObject({ user_id: 'svc-bot', auth_type: 'jwt', auth_provider: 'https://internal.example' });
  });

  it('refuses an opaque token that no provider recognises, even with anonymous disabled', async () => {
    const r = await t.gql(ME, undefined, bearer('not-a-jwt'));
    expect(r.status).toBe(401);
    expect(r.body.errors[0].message).toBe('invalid credentials');
  });

  it('refuses a JWT whose signature fails for the JWT provider', async () => {
    const token = await idp.hs256({ iss: 'https://internal.example', sub: 'svc-bot' }, 'a-different-secret-0123456789abcdef');
    const r = await t.gql(ME, undefined, bearer(token));
    expect(r.status).toBe(401);
    expect(r.body.errors[0].message).toMatch(/signature/);
  });
});

describe('issuer unavailable', () => {
  let down: TestIdp;
  beforeAll(async () => {
    down = await TestIdp.start();
  });
  afterAll(() => down?.close());

  it('answers 503 while discovery fails, without the token in the body', async () => {
    down.down = true;
    const app = await startApp({ OIDC_ISSUER: down.issuer, OIDC_CLIENT_ID: CLIENT });
    try {
      const token = await down.rs256({ sub: 'd1', aud: CLIENT });
      const r = await app.gql(ME, undefined, bearer(token));
      expect(r.status).toBe(503);
      expect(r.body.errors[0].extensions.code).toBe('SOURCE_UNAVAILABLE');
      expect(r.text).not.toContain(token);
    } finally {
      await app.close();
    }
  });

  it('retries discovery after a pause, not on every request, and recovers', async () => {
    down.down = true;
    const config = loadConfig({ env: { OIDC_ISSUER: down.issuer, OIDC_CLIENT_ID: CLIENT }, argv: [], cwd: t.dir });
    const service = new IdentityService(config, undefined, { oidcRetryMs: 300 });
    const token = await down.rs256({ sub: 'd2', aud: CLIENT });
    await expect(service.identify(bearer(token))).rejects.toMatchObject({ status: 503 });
    down.down = false;
    const hits = down.discoveryHits;
    await expect(service.identify(bearer(token))).rejects.toMatchObject({ status: 503 });
    expect(down.discoveryHits).toBe(hits);
    await new Promise((res) => setTimeout(res, 350));
    expect(await service.identify(bearer(token))).toMatchObject({ userId: 'd2', authType: 'oidc', role: 'public', provider: down.issuer });
  });
});
