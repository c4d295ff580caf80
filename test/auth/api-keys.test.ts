// API keys (seed 000 "API keys", "Managed API key record" and its rules; SPEC §6): static keys from
// the configuration, managed keys from core.api_keys with roles from headers, claims or the default,
// disabled and expired keys, revival and rotation through GraphQL mutations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityService } from '../../src/auth/identity.service.js';
import { authVariables } from '../../src/auth/variables.js';
import { startApp, type TestApp } from '../support/app.js';
import { ME, meOf, writeConfig } from './helpers/config.js';

const ADMIN = { 'x-svc-secret-key': 'the-secret' };
let t: TestApp;

async function addKey(fields: string): Promise<void> {
  const r = await t.gql(`mutation { core { insert_api_keys(data: {${fields}}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
}
async function updateKey(name: string, data: string): Promise<void> {
  const r = await t.gql(`mutation { core { update_api_keys(filter: {name: {eq: "${name}"}}, data: {${data}}) { affected_rows } } }`, undefined, ADMIN);
  expect(r.body.data.core.update_api_keys.affected_rows).toBe(1);
}
const asKey = (key: string, headers: Record<string, string> = {}) => t.gql(ME, undefined, { authorization: `Bearer ${key}`, ...headers });

beforeAll(async () => {
  const file = writeConfig({
    auth: { api_keys: { enabled: true, managed: true, keys: [
      { key: 'static-key-1', role: 'readonly', username: 'ci', user_id: '7', headers: { user_name: 'X-API-Username', user_id: 'X-API-User-ID' } },
      { key: 'static-key-2' },
    ] } },
  });
  t = await startApp({ CONFIG_FILE: file, SECRET_KEY: 'the-secret', ALLOWED_ANONYMOUS: 'false' });
  await t.gql('mutation { core { insert_roles(data: {name: "editor", description: "test"}) { name } } }', undefined, ADMIN);
});
afterAll(() => t?.close());

describe('static keys', () => {
  it('authenticate as Bearer with the configured identity', async () => {
    expect(meOf(await asKey('static-key-1'))).toMatchObject({ user_id: '7', user_name: 'ci', role: 'readonly', auth_type: 'apikey', auth_provider: null });
  });

  it('authenticate in x-svc-api-key, with user info from X-API-Username / X-API-User-ID', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-api-key': 'static-key-1', 'x-api-username': 'deploy-bot', 'x-api-user-id': '99' });
    expect(meOf(r)).toMatchObject({ user_id: '99', user_name: 'deploy-bot', role: 'readonly' });
  });

  it('default to role public and user api', async () => {
    expect(meOf(await asKey('static-key-2'))).toMatchObject({ user_name: 'api', role: 'public' });
  });

  it('ignore identity headers unless the key names them (issue 14 item 3)', async () => {
    const r = await asKey('static-key-2', { 'x-api-username': 'someone-else', 'x-api-user-id': '1' });
    expect(meOf(r)).toMatchObject({ user_id: 'api', user_name: 'api', role: 'public' });
  });

  it('cannot impersonate', async () => {
    const r = await asKey('static-key-1', { 'x-svc-role': 'admin', 'x-svc-user-id': 'root' });
    expect(meOf(r)).toMatchObject({ user_id: '7', role: 'readonly', auth_type: 'apikey', impersonated_by_user_role: null });
  });

  it('refuse an unknown key named in x-svc-api-key, without echoing it', async () => {
    const r = await t.gql(ME, undefined, { 'x-svc-api-key': 'static-key-999' });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].message).toBe('invalid API key');
    expect(r.text).not.toContain('static-key-999');
  });
});

describe('managed keys', () => {
  beforeAll(async () => {
    await addKey('name: "m-default", description: "d", key: "mk-default", default_role: "readonly", headers: {role: "X-Key-Role", user_id: "X-Key-User"}, claims: {org: 5, region: "eu"}');
    await addKey('name: "m-claims", description: "d", key: "mk-claims", default_role: "readonly", claims: {role: "editor", user_id: "u-claims", user_name: "Claims User"}');
  });

  it('take the role from default_role, user from the key name, custom claims as variables', async () => {
    expect(meOf(await asKey('mk-default'))).toMatchObject({ user_id: 'm-default', user_name: 'm-default', role: 'readonly', auth_type: 'apikey' });
    const id = await t.app.get(IdentityService).identify({ 'x-svc-api-key': 'mk-default' });
    expect(id.claims).toEqual({ org: 5, region: 'eu' });
    expect(authVariables(id)).toMatchObject({ org: 5, region: 'eu', role: 'readonly', auth_type: 'apikey' });
  });

  it('let the header named in headers.role override default_role, and headers.user_id set the user', async () => {
    expect(meOf(await asKey('mk-default', { 'x-key-role': 'editor', 'x-key-user': '314' }))).toMatchObject({ user_id: '314', role: 'editor' });
  });

  it('take role and user from claims, which request headers cannot change', async () => {
    expect(meOf(await asKey('mk-claims', { 'x-key-role': 'admin', 'x-svc-role': 'admin' }))).toMatchObject({ user_id: 'u-claims', user_name: 'Claims User', role: 'editor' });
  });

  it('refuse a disabled key with 401', async () => {
    await addKey('name: "m-off", description: "d", key: "mk-off-value", disabled: true');
    const r = await asKey('mk-off-value');
    expect(r.status).toBe(401);
    expect(r.body.errors[0].message).toBe('API key is disabled');
    expect(r.text).not.toContain('mk-off-value');
  });

  it('refuse an expired temporal key, and accept it again once expires_at is moved', async () => {
    await addKey('name: "m-temp", description: "d", key: "mk-temp", default_role: "readonly", is_temporal: true, expires_at: "2020-01-01T00:00:00Z"');
    const r = await asKey('mk-temp');
    expect(r.status).toBe(401);
    expect(r.body.errors[0].message).toBe('API key has expired');
    await updateKey('m-temp', 'expires_at: "2099-01-01T00:00:00Z"');
    expect(meOf(await asKey('mk-temp'))).toMatchObject({ user_name: 'm-temp', role: 'readonly' });
  });

  it('ignore expires_at on a key that is not temporal', async () => {
    await addKey('name: "m-perm", description: "d", key: "mk-perm", is_temporal: false, expires_at: "2020-01-01T00:00:00Z"');
    expect(meOf(await asKey('mk-perm'))).toMatchObject({ user_name: 'm-perm', role: 'public' });
  });

  it('rotate: after the key is updated the old value is refused and the new one works', async () => {
    await addKey('name: "m-rot", description: "d", key: "mk-rot-old", default_role: "readonly"');
    expect((await asKey('mk-rot-old')).status).toBe(200);
    await updateKey('m-rot', 'key: "mk-rot-new"');
    // Writes to core.api_keys drop the cache through tag $AuthAPIKeys (SPEC §6); this is that call.
    t.app.get(IdentityService).forgetApiKeys();
    const old = await asKey('mk-rot-old');
    expect(old.status).toBe(401);
    expect(old.text).not.toContain('mk-rot-old');
    expect(meOf(await asKey('mk-rot-new'))).toMatchObject({ user_name: 'm-rot', role: 'readonly' });
  });

  it('remember a usable key briefly: a lookup is not repeated per request', async () => {
    await addKey('name: "m-cache", description: "d", key: "mk-cache", default_role: "readonly"');
    expect((await asKey('mk-cache')).status).toBe(200);
    // Changed behind svc's back (not through GraphQL): the cached row still answers.
    await t.runtime.core.runtime.exec(`UPDATE api_keys SET disabled = TRUE WHERE name = 'm-cache'`);
    expect((await asKey('mk-cache')).status).toBe(200);
    t.app.get(IdentityService).forgetApiKeys();
    expect((await asKey('mk-cache')).status).toBe(401);
  });

  it('a committed GraphQL change to api_keys drops the cache at once', async () => {
    await addKey('name: "m-now", description: "d", key: "mk-now", default_role: "readonly"');
    expect((await asKey('mk-now')).status).toBe(200);
    await updateKey('m-now', 'disabled: true');
    expect((await asKey('mk-now')).status).toBe(401);
  });
});
