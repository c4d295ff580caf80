// ROLE_PERMISSIONS_TTL (issue 32 item 5): how long a role's permissions are kept (SPEC §7, one hour
// by default), validated; a rule written to the core database without an invalidation applies once
// the lifetime has passed (at once with 0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { PermissionService, type PermissionStore } from '../../src/permissions/service.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startApp({ ROLE_PERMISSIONS_TTL: '0' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('ROLE_PERMISSIONS_TTL', () => {
  it('is a duration, one hour by default, at most 24h', () => {
    const read = (v?: string) => loadConfig({ env: v === undefined ? {} : { ROLE_PERMISSIONS_TTL: v }, argv: [], cwd: '/tmp' }).ROLE_PERMISSIONS_TTL;
    expect(read()).toBe(3_600_000);
    expect(read('5m')).toBe(300_000);
    expect(() => read('25h')).toThrow(/ROLE_PERMISSIONS_TTL/);
    expect(() => read('soon')).toThrow(/ROLE_PERMISSIONS_TTL/);
  });

  it('bounds how long a rule written behind the server\'s back takes to apply', async () => {
    const core = t.runtime.registry.get('core')!.runtime;
    const hourly = new PermissionService(t.runtime.core as unknown as PermissionStore);
    const rule = (a: Awaited<ReturnType<PermissionService['forRole']>>) => a.row('shop_customers', 'email');
    expect(rule(await t.runtime.permissions.forRole('public'))).toBeUndefined();
    expect(rule(await hourly.forRole('public'))).toBeUndefined();
    await core.exec("INSERT INTO role_permissions (role, type_name, field_name, disabled) VALUES ('public', 'shop_customers', 'email', TRUE)");
    // The app's service (ROLE_PERMISSIONS_TTL=0) reads it at once; one keeping rules for an hour does not.
    expect(rule(await t.runtime.permissions.forRole('public'))).toMatchObject({ disabled: true });
    expect(rule(await hourly.forRole('public'))).toBeUndefined();
  });
});
