// JWT authentication (SPEC §6): RS256 through a JWKS and through a PEM key, ES256, HS256; the
// refusals that must be 401 without echoing the token; roles, names, custom claims; no impersonation.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityService } from '../../src/auth/identity.service.js';
import { CONFIG } from '../../src/config/tokens.js';
import { authVariables } from '../../src/auth/variables.js';
import { startApp, type TestApp } from '../support/app.js';
import { ME, meOf, writeConfig } from './helpers/config.js';
import { TestIdp } from './helpers/idp.js';

const AUD = 'svc-api';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let idp: TestIdp;
let t: TestApp;

beforeAll(async () => {
  idp = await TestIdp.start();
  const file = writeConfig({
    auth: {
      jwt: {
        algorithm: 'RS256', jwks_url: `${idp.issuer}/jwks`, issuer: idp.issuer, audience: AUD,
        role_claim: 'roles', role_scope_prefix: 'svc:', role_priority: ['editor', 'viewer'], custom_claims: { org_id: 'org', tenant: 'ctx.tenant' },
      },
    },
  });
  t = await startApp({ CONFIG_FILE: file, SECRET_KEY: 'the-secret' });
  for (const name of ['editor', 'viewer']) {
    await t.gql(`mutation { core { insert_roles(data: {name: "${name}", description: "test"}) { name } } }`, undefined, { 'x-svc-secret-key': 'the-secret' });
  }
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

describe('RS256 through the JWKS', () => {
  it('answers me with the token identity', async () => {
    const r = await t.gql(ME, undefined, bearer(await idp.rs256({ sub: 'u1', name: 'Ada', aud: AUD, roles: 'viewer' })));
    expect(r.status).toBe(200);
    expect(meOf(r)).toEqual({
      user_id: 'u1', user_name: 'Ada', role: 'viewer', auth_type: 'jwt', auth_provider: idp.issuer,
      impersonated_by_user_id: null, impersonated_by_user_name: null, impersonated_by_user_role: null,
    });
  });

  it('uses sub as user_name when the token has no name', async () => {
    const r = await t.gql(ME, undefined, bearer(await idp.rs256({ sub: 'u2', aud: AUD, roles: 'viewer' })));
    expect(meOf(r)).toMatchObject({ user_id: 'u2', user_name: 'u2' });
  });

  it('reads the token from the session cookie', async () => {
    const token = await idp.rs256({ sub: 'u3', aud: AUD, roles: 'editor' });
    const r = await t.gql(ME, undefined, { cookie: `theme=dark; svc_session=${token}` });
    expect(meOf(r)).toMatchObject({ user_id: 'u3', role: 'editor', auth_type: 'jwt' });
  });

  it('ignores the impersonation headers of a JWT caller', async () => {
    const headers = { ...bearer(await idp.rs256({ sub: 'u4', aud: AUD, roles: 'viewer' })), 'x-svc-role': 'admin', 'x-svc-user-id': 'root', 'x-svc-user-name': 'root' };
    const r = await t.gql(ME, undefined, headers);
    expect(meOf(r)).toMatchObject({ user_id: 'u4', role: 'viewer', auth_type: 'jwt', impersonated_by_user_role: null });
  });

  it('refuses an opaque bearer token with 401 rather than treating the caller as anonymous', async () => {
    const r = await t.gql(ME, undefined, bearer('opaque-token-123'));
    expect(r.status).toBe(401);
    expect(r.text).not.toContain('opaque-token-123');
  });
});

describe('refusals', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const base = { sub: 'u9', aud: AUD, roles: 'viewer' };
  const cases: [string, () => Promise<string> | string, RegExp][] = [
    ['expired', () => idp.rs256({ ...base, exp: now() - 3600 }), /expired/],
    ['expired 5 seconds ago (no clock leeway by default)', () => idp.rs256({ ...base, exp: now() - 5 }), /expired/],
    ['not yet valid', () => idp.rs256({ ...base, nbf: now() + 3600 }), /not yet valid/],
    ['wrong audience', () => idp.rs256({ ...base, aud: 'someone-else' }), /audience/],
    ['wrong issuer', () => idp.rs256({ ...base, iss: 'https://evil.example' }), /issuer/],
    ['without exp', () => idp.rs256({ ...base, exp: undefined }), /exp/],
    ['alg none', () => idp.none(base), /algorithm/],
    ['HS256 signed with the RS256 public key', () => idp.confused(base), /algorithm/],
    ['ES256 when RS256 is configured', () => idp.es256(base), /algorithm/],
    ['tampered payload', () => idp.tampered(base), /signature/],
    ['unknown kid', () => idp.rs256(base, 'who-knows', idp.stranger.privateKey), /no key/],
  ];
  it.each(cases)('%s: 401, without the token in the body', async (_name, make, message) => {
    const token = await make();
    const r = await t.gql(ME, undefined, bearer(token));
    expect(r.status).toBe(401);
    expect(r.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(r.body.errors[0].message).toMatch(message);
    expect(r.text).not.toContain(token);
    expect(r.text).not.toContain(token.split('.')[2] || token.split('.')[1]);
  });

  it('accepts a token within JWT_CLOCK_LEEWAY of its expiry, and none beyond it', async () => {
    const config = t.app.get(CONFIG) as import('../../src/config/schema.js').Config;
    const lenient = new IdentityService({ ...config, JWT_CLOCK_LEEWAY: 60_000 });
    const recent = await idp.rs256({ ...base, exp: now() - 5 });
    expect(await lenient.identify(bearer(recent))).toMatchObject({ userId: 'u9', role: 'viewer' });
    await expect(lenient.identify(bearer(await idp.rs256({ ...base, exp: now() - 120 })))).rejects.toMatchObject({ status: 401 });
  });

  it('also refuses a bad token from the cookie instead of falling back to anonymous', async () => {
    const token = await idp.rs256({ ...base, exp: now() - 60 * 60 });
    const r = await t.gql(ME, undefined, { cookie: `svc_session=${token}` });
    expect(r.status).toBe(401);
  });
});

describe('role assignment and claims', () => {
  const identify = async (claims: Record<string, unknown>) => t.app.get(IdentityService).identify(bearer(await idp.rs256({ sub: 's', aud: AUD, ...claims })));
  it.each([
    ['a string claim', { roles: 'viewer' }, 'viewer'],
    ['an array claim, by role_priority', { roles: ['viewer', 'admin', 'editor'] }, 'editor'],
    ['an array claim with no prioritised role: the first', { roles: ['readonly', 'admin'] }, 'readonly'],
    ['a scope with the prefix', { scope: 'openid svc:viewer profile' }, 'viewer'],
    ['scopes, by role_priority', { scope: 'svc:viewer svc:editor' }, 'editor'],
    ['the claim before the scope', { roles: 'readonly', scope: 'svc:editor' }, 'readonly'],
    ['nothing: public', { scope: 'openid' }, 'public'],
  ])('from %s', async (_name, claims, role) => {
    expect((await identify(claims)).role).toBe(role);
  });

  it('maps custom_claims into [$auth.*] variables, nested paths included', async () => {
    const id = await identify({ roles: 'viewer', org: 42, ctx: { tenant: 't-1' }, name: 'Bo' });
    expect(id.claims).toEqual({ org_id: 42, tenant: 't-1' });
    expect(authVariables(id)).toMatchObject({ org_id: 42, tenant: 't-1', user_id: 's', user_name: 'Bo', auth_type: 'jwt', provider: idp.issuer, email: null });
  });
});

describe('other algorithms and key sources', () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));
  const start = async (jwt: Record<string, unknown>) => {
    const app = await startApp({ CONFIG_FILE: writeConfig({ auth: { jwt } }) });
    apps.push(app);
    return app;
  };

  it('RS256 with the public key in a PEM file', async () => {
    const pemFile = join(writeConfig({}), '..', 'rsa.pem');
    writeFileSync(pemFile, await idp.rsaPublicPem());
    const app = await start({ algorithm: 'RS256', public_key: pemFile, role_claim: 'role' });
    expect(meOf(await app.gql(ME, undefined, bearer(await idp.rs256({ sub: 'p1', role: 'readonly' }))))).toMatchObject({ user_id: 'p1', role: 'readonly', auth_type: 'jwt' });
    expect((await app.gql(ME, undefined, bearer(await idp.rs256({ sub: 'p1' }, 'rsa-1', idp.stranger.privateKey)))).status).toBe(401);
    expect((await app.gql(ME, undefined, bearer(await idp.confused({ sub: 'p1' })))).status).toBe(401);
  });

  it('ES256 with the public key as PEM text', async () => {
    const app = await start({ algorithm: 'ES256', public_key: await idp.ecPublicPem() });
    expect(meOf(await app.gql(ME, undefined, bearer(await idp.es256({ sub: 'e1', role: 'readonly' }))))).toMatchObject({ user_id: 'e1', role: 'readonly' });
    expect((await app.gql(ME, undefined, bearer(await idp.rs256({ sub: 'e1' })))).status).toBe(401);
  });

  it('HS256 with a shared secret', async () => {
    const app = await start({ algorithm: 'HS256', secret: 'a-long-shared-secret-of-32-bytes!', issuer: idp.issuer });
    const good = await idp.hs256({ sub: 'h1', role: 'readonly' }, 'a-long-shared-secret-of-32-bytes!');
    expect(meOf(await app.gql(ME, undefined, bearer(good)))).toMatchObject({ user_id: 'h1', role: 'readonly', auth_provider: idp.issuer });
    const wrong = await idp.hs256({ sub: 'h1' }, 'another-secret-another-secret-xx');
    const r = await app.gql(ME, undefined, bearer(wrong));
    expect(r.status).toBe(401);
    expect(r.body.errors[0].message).toMatch(/signature/);
    expect((await app.gql(ME, undefined, bearer(idp.none({ sub: 'h1' })))).status).toBe(401);
  });

  it('refuses to start with a key that does not fit the algorithm', async () => {
    await expect(start({ algorithm: 'ES256', public_key: await idp.rsaPublicPem() })).rejects.toThrow(/not an EC key/);
    await expect(start({ algorithm: 'HS256', public_key: await idp.rsaPublicPem() })).rejects.toThrow(/HS256 needs "secret"/);
  });
});
