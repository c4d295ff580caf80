// The secret key, the cluster secret and anonymous access (SPEC §6, seed 000 "Secret key",
// "Anonymous"); the order in which methods are tried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { ME, meOf } from './helpers/config.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'the-secret', CLUSTER_SECRET: 'the-cluster-secret', ALLOWED_ANONYMOUS: 'true', ANONYMOUS_ROLE: 'public' });
});
afterAll(() => t?.close());

describe('secret key', () => {
  it('authenticates as admin with auth_type apiKey and user api', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-secret-key': 'the-secret' });
    expect(meOf(r)).toEqual({
      user_id: 'api', user_name: 'api', role: 'admin', auth_type: 'apiKey', auth_provider: null,
      impersonated_by_user_id: null, impersonated_by_user_name: null, impersonated_by_user_role: null,
    });
  });

  it('impersonates with the override headers and shows who impersonates', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-secret-key': 'the-secret', 'x-svc-role': 'readonly', 'x-svc-user-id': '42', 'x-svc-user-name': 'Grace' });
    expect(meOf(r)).toEqual({
      user_id: '42', user_name: 'Grace', role: 'readonly', auth_type: 'impersonation', auth_provider: null,
      impersonated_by_user_id: 'api', impersonated_by_user_name: 'api', impersonated_by_user_role: 'admin',
    });
  });

  it('keeps role admin when only the user is overridden', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-secret-key': 'the-secret', 'x-svc-user-id': '7' });
    expect(meOf(r)).toMatchObject({ user_id: '7', user_name: '7', role: 'admin', auth_type: 'impersonation' });
  });

  it('refuses a wrong secret key with 401 and does not echo it', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-secret-key': 'guess-guess-guess', 'x-svc-role': 'admin' });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(r.text).not.toContain('guess-guess-guess');
    expect(r.text).not.toContain('the-secret');
  });

  it('wins over a Bearer token presented alongside', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-secret-key': 'the-secret', authorization: 'Bearer whatever' });
    expect(meOf(r)).toMatchObject({ role: 'admin', auth_type: 'apiKey' });
  });
});

describe('cluster secret', () => {
  it('authenticates internal calls as admin with auth_type cluster', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-cluster-secret': 'the-cluster-secret', 'x-svc-role': 'public' });
    expect(meOf(r)).toMatchObject({ user_id: 'cluster', role: 'admin', auth_type: 'cluster', impersonated_by_user_role: null });
  });

  it('refuses a wrong cluster secret', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-cluster-secret': 'nope-nope' });
    expect(r.status).toBe(401);
    expect(r.text).not.toContain('nope-nope');
  });
});

describe('anonymous', () => {
  it('gives the configured role and user_name anonymous; override headers are ignored', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-role': 'admin', 'x-svc-user-id': 'root' });
    // As the established servers answer (issue 18 item 10).
    expect(meOf(r)).toMatchObject({ user_id: 'anonymous', user_name: 'anonymous', role: 'public', auth_type: 'anonymous', auth_provider: 'anonymous' });
  });

  it('is not where a presented credential ends up', async () => {
    expect((await t.gql(ME, undefined, { authorization: 'Bearer not-a-known-thing' })).status).toBe(401);
    expect((await t.gql(ME, undefined, { 'x-svc-api-key': 'not-a-known-key' })).status).toBe(401);
    expect((await t.gql(ME, undefined, { authorization: 'Basic dXNlcjpwYXNz' })).status).toBe(401);
  });

  it('is refused with 401 when disabled', async () => {
    const closed = await startApp({ ALLOWED_ANONYMOUS: 'false', SECRET_KEY: 's' });
    try {
      const r = await closed.gql(ME);
      expect(r.status).toBe(401);
      expect(r.body.errors[0].message).toBe('authentication required');
      expect(meOf(await closed.gql(ME, undefined, { 'x-svc-secret-key': 's' }))).toMatchObject({ role: 'admin' });
    } finally {
      await closed.close();
    }
  });
});
