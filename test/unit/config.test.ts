// Configuration (SPEC §2): environment, .env and YAML; the environment wins; an unknown key or a
// bad value stops the start with one line naming it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseBind } from '../../src/config/load.js';

const dir = () => mkdtempSync(join(tmpdir(), 'svc-config-'));
const load = (env: Record<string, string>, files: Record<string, string> = {}, argv: string[] = []) => {
  const d = dir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return loadConfig({ env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('$DIR', d)])), argv: argv.map((a) => a.replace('$DIR', d)), cwd: d });
};
const failure = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

describe('loadConfig', () => {
  it('refuses a CACHE_L2_BACKEND other than redis, from the environment or YAML, naming the key', () => {
    expect(failure(() => load({ CACHE_L2_ENABLED: 'true', CACHE_L2_BACKEND: 'memcached', CACHE_L2_ADDRESSES: '127.0.0.1:6379' }))).toMatch(/cache\.l2\.backend/);
    expect(failure(() => load({ CACHE_L2_BACKEND: 'memcached' }))).toMatch(/cache\.l2\.backend/);
    expect(failure(() => load({ CONFIG_FILE: '$DIR/svc.yaml' }, { 'svc.yaml': 'cache:\n  l2:\n    backend: memcached\n' }))).toMatch(/cache\.l2\.backend/);
    expect(load({ CACHE_L2_ENABLED: 'true', CACHE_L2_BACKEND: 'redis', CACHE_L2_ADDRESSES: '127.0.0.1:6379' }).cache.l2).toMatchObject({ enabled: true, backend: 'redis' });
  });

  it('has the defaults of SPEC §2', () => {
    const c = load({});
    expect(c).toMatchObject({ BIND: ':15000', ADMIN_UI: true, MAX_DEPTH: 7, CATALOGS_DIR: './catalogs', CORE_DB_PATH: 'data/core.duckdb', ANONYMOUS_ROLE: 'admin', ALLOW_PARALLEL: true });
  });

  it('reads YAML (lower-case keys and sections), .env and the environment, the environment winning', () => {
    const c = load({ CONFIG_FILE: '$DIR/svc.yaml', MAX_DEPTH: '12' }, {
      'svc.yaml': 'max_depth: 9\nadmin_ui: false\nanonymous_role: public\nsecret_key: from-yaml\nauth:\n  api_keys:\n    enabled: true\n    keys: [{key: k1, role: admin}]\n',
      '.env': 'DB_TIMEZONE=Europe/Berlin\n',
    });
    expect(c.MAX_DEPTH).toBe(12);
    expect(c.ADMIN_UI).toBe(false);
    expect(c.ANONYMOUS_ROLE).toBe('public');
    expect(c.SECRET_KEY).toBe('from-yaml');
    expect(c.DB_TIMEZONE).toBe('Europe/Berlin');
    expect(c.auth.api_keys?.keys[0]).toMatchObject({ key: 'k1', role: 'admin' });
  });

  it('takes --config FILE', () => {
    expect(load({}, { 'a.yaml': 'max_depth: 3\n' }, ['--config', '$DIR/a.yaml']).MAX_DEPTH).toBe(3);
  });

  it('refuses unknown keys and bad values with one line naming them', () => {
    expect(failure(() => load({ CONFIG_FILE: '$DIR/b.yaml' }, { 'b.yaml': 'max_detph: 3\n' }))).toMatch(/^unknown configuration key "max_detph" in .*b\.yaml$/);
    expect(failure(() => load({ CONFIG_FILE: '$DIR/c.yaml' }, { 'c.yaml': 'auth:\n  jwt:\n    algoritm: HS256\n' }))).toMatch(/^unknown configuration key "auth\.jwt\.algoritm"/);
    expect(failure(() => load({ MAX_DEPTH: 'deep' }))).toBe('invalid configuration value for "MAX_DEPTH" in environment: expected an integer');
    expect(failure(() => load({ DB_TIMEZONE: 'Mars/Base' }))).toMatch(/"DB_TIMEZONE".*IANA/);
    expect(failure(() => load({ CONFIG_FILE: '$DIR/missing.yaml' }))).toMatch(/does not exist/);
    expect(failure(() => load({ CONFIG_FILE: '$DIR/d.yaml' }, { 'd.yaml': 'max_depth: [\n' }))).toMatch(/is not valid YAML/);
    expect(() => parseBind('nonsense:port')).toThrow(/BIND/);
    expect(failure(() => load({ QUERY_TIMEOUT: 'a while' }))).toBe('invalid configuration value for "QUERY_TIMEOUT" in environment: expected a duration such as "60s", "500ms" or "2m"');
  });

  it('reads TRUST_PROXY as Fastify\'s trustProxy: off by default, true, a hop count or addresses/CIDRs; anything else is refused', () => {
    expect(load({}).TRUST_PROXY).toBe(false);
    expect(load({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(load({ TRUST_PROXY: 'FALSE' }).TRUST_PROXY).toBe(false);
    // A number is a hop count, not a boolean: `1` trusts the one proxy in front.
    expect(load({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(load({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,fd00::/8 , loopback' }).TRUST_PROXY).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', 'loopback']);
    expect(load({ CONFIG_FILE: '$DIR/p.yaml' }, { 'p.yaml': 'trust_proxy: [10.1.2.3, "::1"]\n' }).TRUST_PROXY).toEqual(['10.1.2.3', '::1']);
    expect(load({ CONFIG_FILE: '$DIR/q.yaml' }, { 'q.yaml': 'trust_proxy: 2\n' }).TRUST_PROXY).toBe(2);
    const expected = 'expected false, true, a hop count or a comma-separated list of addresses/CIDRs (or loopback, linklocal, uniquelocal)';
    expect(failure(() => load({ TRUST_PROXY: 'nginx' }))).toBe(`invalid configuration value for "TRUST_PROXY" in environment: "nginx" is not an address or CIDR: ${expected}`);
    expect(failure(() => load({ TRUST_PROXY: '10.0.0.1,10.0.0.0/33' }))).toMatch(/"10\.0\.0\.0\/33" is not an address or CIDR/);
    expect(failure(() => load({ TRUST_PROXY: '-1' }))).toMatch(/"-1" is not an address or CIDR/);
    expect(failure(() => load({ TRUST_PROXY: ' , ' }))).toMatch(/TRUST_PROXY.*empty is not an address or CIDR/);
  });

  it('reads QUERY_TIMEOUT as a duration, 60 s by default', () => {
    expect(load({}).QUERY_TIMEOUT).toBe(60_000);
    expect(load({ QUERY_TIMEOUT: '2m' }).QUERY_TIMEOUT).toBe(120_000);
    expect(load({ CONFIG_FILE: '$DIR/t.yaml' }, { 't.yaml': 'query_timeout: 1.5\n' }).QUERY_TIMEOUT).toBe(1500);
  });
});

describe('the server start', () => {
  it('prints one line and exits non-zero on a bad configuration', () => {
    const entry = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');
    const r = spawnSync(process.execPath, [entry], { env: { ...process.env, MAX_DEPTH: 'deep', CONFIG_FILE: '' }, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['svc: invalid configuration value for "MAX_DEPTH" in environment: expected an integer']);
  });

  it('refuses to start on a TRUST_PROXY that is not an address, with one line naming it', () => {
    const entry = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');
    const r = spawnSync(process.execPath, [entry], { env: { ...process.env, TRUST_PROXY: '10.0.0.0/8,proxy.local', CONFIG_FILE: '' }, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['svc: invalid configuration value for "TRUST_PROXY" in environment: "proxy.local" is not an address or CIDR: expected false, true, a hop count or a comma-separated list of addresses/CIDRs (or loopback, linklocal, uniquelocal)']);
  });

  it('prints one line and exits 2 when the start fails after the configuration was read (issue 15)', () => {
    const entry = join(import.meta.dirname, '..', '..', 'dist', 'src', 'main.js');
    const cwd = mkdtempSync(join(tmpdir(), 'svc-start-'));
    const env = { ...process.env, CONFIG_FILE: '', CORE_DB_PATH: ':memory:', CATALOGS_DIR: cwd, CACHE_L2_ENABLED: 'true', CACHE_L2_ADDRESSES: '', BIND: '127.0.0.1:0' };
    const r = spawnSync(process.execPath, [entry], { env, cwd, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(2);
    // Only the lines of start steps that took over a second (a busy machine) come before it.
    expect(r.stdout.split('\n').filter((l) => l && !l.includes('"step":'))).toEqual([]);
    expect(r.stderr.trim().split('\n')).toEqual(['svc: failed to start: CACHE_L2_ENABLED is true but CACHE_L2_ADDRESSES is empty: give host:port of the Redis server']);
  });
});
