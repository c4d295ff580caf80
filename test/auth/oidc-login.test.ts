// The OIDC browser login (issue 32 item 5): /auth/login -> the issuer's authorize endpoint with a
// PKCE challenge, state and nonce; /auth/callback exchanges the code with the client secret and the
// verifier and sets the session cookie (OIDC_COOKIE_NAME), which then authenticates GraphQL calls;
// /auth/logout clears it. Against a loopback OpenID provider (test/support/oidc-login-idp.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { LoginIdp } from '../support/oidc-login-idp.js';

const SECRET = 'web-client-secret-77';
let idp: LoginIdp;
let t: TestApp;

beforeAll(async () => {
  idp = await LoginIdp.start({ 'svc-web': SECRET });
  t = await startApp({
    OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: 'svc-web', OIDC_CLIENT_SECRET: SECRET, OIDC_REDIRECT_URL: 'http://svc.test/auth/callback',
    OIDC_SCOPES: 'profile,email', OIDC_COOKIE_NAME: 'svc_web_session', OIDC_ROLE_CLAIM: 'roles', ALLOWED_ANONYMOUS: 'false',
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const cookies = (setCookie: unknown): Record<string, string> =>
  Object.fromEntries(([] as string[]).concat((setCookie as string[] | string | undefined) ?? []).map((c) => {
    const [pair] = c.split(';');
    const i = pair!.indexOf('=');
    return [pair!.slice(0, i), decodeURIComponent(pair!.slice(i + 1))];
  }));

/** The browser: /auth/login, the issuer's redirect, /auth/callback. */
async function login(returnTo?: string): Promise<{ session: string; location: string; setCookie: string[] }> {
  const start = await t.request({ method: 'GET', url: `/auth/login${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}` });
  expect(start.status).toBe(302);
  const loginCookie = cookies(start.headers['set-cookie']).svc_oidc_login!;
  const atIdp = await fetch(String(start.headers.location), { redirect: 'manual' });
  expect(atIdp.status).toBe(302);
  const callback = new URL(atIdp.headers.get('location')!);
  const done = await t.request({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie: `svc_oidc_login=${loginCookie}` } });
  expect(done.status, done.text).toBe(302);
  const setCookie = ([] as string[]).concat(done.headers['set-cookie'] as string[]);
  return { session: cookies(setCookie).svc_web_session!, location: String(done.headers.location), setCookie };
}

const ME = '{ function { core { auth { me { user_id user_name role auth_type } } } } }';

describe('OIDC browser login', () => {
  it('sends the browser to the issuer with PKCE (S256), state, nonce and the configured scopes', async () => {
    const r = await t.request({ method: 'GET', url: '/auth/login' });
    expect(r.status).toBe(302);
    const to = new URL(String(r.headers.location));
    expect(`${to.origin}${to.pathname}`).toBe(`${idp.issuer}/authorize`);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ client_id: 'svc-web', response_type: 'code', redirect_uri: 'http://svc.test/auth/callback', scope: 'openid profile email', code_challenge_method: 'S256' });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p)).toBeTruthy();
    expect(String(r.headers['set-cookie'])).toMatch(/^svc_oidc_login=.*HttpOnly; SameSite=Lax/);
  });

  it('the callback exchanges the code with the secret and the verifier and sets the session cookie that authenticates calls', async () => {
    const { session, location, setCookie } = await login('/reports?x=1');
    expect(location).toBe('/reports?x=1');
    expect(idp.exchanges.at(-1)).toEqual({ pkce: true, clientAuth: true });
    expect(setCookie.find((c) => c.startsWith('svc_web_session='))).toMatch(/HttpOnly; SameSite=Lax/);
    const me = await t.gql(ME, undefined, { cookie: `svc_web_session=${session}` });
    expect(me.body.errors, me.text).toBeUndefined();
    expect(me.body.data.function.core.auth.me).toEqual({ user_id: 'u-alice', user_name: 'Alice', role: 'admin', auth_type: 'oidc' });
    // Without the cookie (and without anonymous access) the same call is refused.
    expect((await t.gql(ME)).status).toBe(401);
  });

  it('refuses a callback whose state is not the login it started, and an open redirect', async () => {
    const start = await t.request({ method: 'GET', url: '/auth/login?return_to=//evil.example/x' });
    const loginCookie = cookies(start.headers['set-cookie']).svc_oidc_login!;
    const atIdp = await fetch(String(start.headers.location), { redirect: 'manual' });
    const callback = new URL(atIdp.headers.get('location')!);
    callback.searchParams.set('state', 'forged');
    const forged = await t.request({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { cookie: `svc_oidc_login=${loginCookie}` } });
    expect(forged.status).toBe(401);
    expect(forged.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const noState = await t.request({ method: 'GET', url: `${callback.pathname}${callback.search}` });
    expect(noState.status).toBe(401);
    const { location } = await login('//evil.example/x');
    expect(location).toBe('/');
  });

  it('logout clears the session cookie and sends the browser to the issuer\'s end-session page', async () => {
    const { session } = await login();
    const r = await t.request({ method: 'GET', url: '/auth/logout', headers: { cookie: `svc_web_session=${session}` } });
    expect(r.status).toBe(302);
    expect(String(r.headers['set-cookie'])).toMatch(/^svc_web_session=; Path=\/; Max-Age=0/);
    const to = new URL(String(r.headers.location));
    expect(`${to.origin}${to.pathname}`).toBe(`${idp.issuer}/logout`);
    expect(to.searchParams.get('post_logout_redirect_uri')).toBe('http://svc.test/');
    expect(to.searchParams.get('id_token_hint')).toBe(session);
  });
});
