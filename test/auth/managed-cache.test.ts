// The managed-key cache on the real core store (no HTTP wiring needed): a remembered key still
// expires on time, refused rows are never remembered, forgetApiKeys() drops what is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityService } from '../../src/auth/identity.service.js';
import { loadConfig } from '../../src/config/load.js';
import type { Row } from '../../src/sources/types.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
let service: IdentityService;
let lookups = 0;
const ADMIN = { 'x-svc-secret-key': 's' };

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 's' });
  const config = loadConfig({ env: { ALLOW_MANAGED_API_KEYS: 'true', ALLOWED_ANONYMOUS: 'false' }, argv: [], cwd: t.dir });
  const store = { apiKeyByKey: (k: string): Promise<Row | undefined> => (lookups++, t.runtime.core.apiKeyByKey(k)) };
  service = new IdentityService(config, store, { apiKeyCacheMs: 60_000 });
});
afterAll(() => t?.close());

const identify = (key: string) => service.identify({ 'x-svc-api-key': key });

describe('managed key cache', () => {
  it('expires a remembered temporal key on time', async () => {
    const at = new Date(Date.now() + 1200).toISOString();
    await t.gql(`mutation { core { insert_api_keys(data: {name: "soon", description: "", key: "k-soon", is_temporal: true, expires_at: "${at}"}) { name } } }`, undefined, ADMIN);
    expect((await identify('k-soon')).userName).toBe('soon');
    const before = lookups;
    expect((await identify('k-soon')).userName).toBe('soon');
    expect(lookups).toBe(before);
    await new Promise((r) => setTimeout(r, 1300));
    await expect(identify('k-soon')).rejects.toMatchObject({ status: 401, message: 'API key has expired' });
  });

  it('looks a refused key up again each time, so enabling it takes effect at once', async () => {
    await t.gql('mutation { core { insert_api_keys(data: {name: "off", description: "", key: "k-off", disabled: true}) { name } } }', undefined, ADMIN);
    await expect(identify('k-off')).rejects.toMatchObject({ status: 401 });
    await t.gql('mutation { core { update_api_keys(filter: {name: {eq: "off"}}, data: {disabled: false}) { affected_rows } } }', undefined, ADMIN);
    expect((await identify('k-off')).userName).toBe('off');
  });

  it('remembers a miss until forgetApiKeys()', async () => {
    await expect(identify('k-later')).rejects.toMatchObject({ status: 401, message: 'invalid API key' });
    await t.gql('mutation { core { insert_api_keys(data: {name: "later", description: "", key: "k-later"}) { name } } }', undefined, ADMIN);
    await expect(identify('k-later')).rejects.toMatchObject({ status: 401 });
    service.forgetApiKeys();
    expect((await identify('k-later')).userName).toBe('later');
  });

  it('refuses to start with managed keys on and no store to read them from', () => {
    const config = loadConfig({ env: { ALLOW_MANAGED_API_KEYS: 'true' }, argv: [], cwd: t.dir });
    expect(() => new IdentityService(config)).toThrow(/no core store/);
  });
});
