// core.info (seed 001): node information and version, and never a secret in them, on both kinds
// of core database.
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, tempDir, type TestApp } from '../support/app.js';
import { createTestDatabase, PG_URL, type TestDatabase } from '../support/pg.js';

const SECRETS = ['pg-pass-0ne', 'jwt-secret-7wo', 'oidc-client-secret-thr33', 'redis-pass-f0ur', 'admin-secret-key-f1ve', 'static-api-key-s1x'];
const INFO = `{ function { core {
  info { cluster_mode node_role node_name version build_date
    config { admin_ui debug allow_parallel max_parallel_queries max_depth engine { path max_open_conns max_idle_conns }
      coredb { path type read_only } auth { type issuer algorithm role } cache { ttl l1_enabled l2_enabled l2_backend } } }
  version { version build_date }
} } }`;

const apps: TestApp[] = [];
let db: TestDatabase | undefined;
afterAll(async () => {
  for (const a of apps) await a.close();
  await db?.drop();
});

/** Every secret-bearing setting filled in, through YAML and the environment. */
function configWithSecrets(dir: string): string {
  const file = join(dir, 'svc.yaml');
  writeFileSync(file, `auth:
  jwt: {secret: "${SECRETS[1]}", issuer: "https://issuer.test", algorithm: HS256}
  oidc: {issuer: "https://oidc.test", client_id: "svc", client_secret: "${SECRETS[2]}"}
  api_keys: {enabled: true, keys: [{key: "${SECRETS[5]}", role: admin}]}
cache:
  ttl: 60
  l2: {enabled: false, addresses: ["127.0.0.1:6379"], password: "${SECRETS[3]}"}
`);
  return file;
}

describe('core.info', () => {
  it('tells the node role, version and configuration, without any secret (DuckDB core database)', async () => {
    const dir = tempDir();
    const t = await startApp({ SVC_TEST_DIR: dir, CONFIG_FILE: configWithSecrets(dir), SECRET_KEY: SECRETS[4]!, MAX_DEPTH: '9', DEBUG: 'false' });
    apps.push(t);
    const r = await t.gql(INFO, undefined, { 'x-svc-secret-key': SECRETS[4]! });
    expect(r.body.errors).toBeUndefined();
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
    const info = r.body.data.function.core.info;
    expect(info).toMatchObject({ cluster_mode: false, node_role: 'standalone', node_name: hostname(), version: pkg.version });
    expect(new Date(info.build_date).toString()).not.toBe('Invalid Date');
    expect(r.body.data.function.core.version).toEqual({ version: info.version, build_date: info.build_date });
    expect(info.config).toMatchObject({ admin_ui: true, debug: false, allow_parallel: true, max_depth: 9, coredb: { path: join(dir, 'core.duckdb'), type: 'duckdb', read_only: false }, cache: { ttl: '60', l1_enabled: false, l2_enabled: false } });
    expect(info.config.auth).toEqual(expect.arrayContaining([
      { type: 'secret_key', issuer: null, algorithm: null, role: null },
      { type: 'api_key', issuer: null, algorithm: null, role: null },
      { type: 'jwt', issuer: 'https://issuer.test', algorithm: 'HS256', role: null },
      { type: 'oidc', issuer: 'https://oidc.test', algorithm: null, role: null },
    ]));
    for (const s of SECRETS) expect(r.text).not.toContain(s);
  });

  it('shows a PostgreSQL core database without its password', async () => {
    db = await createTestDatabase('svc_info');
    const u = new URL(db.url);
    u.password = SECRETS[0]!;
    u.search = `?application_name=${SECRETS[0]}`;
    const t = await startApp({ CORE_DB_PATH: u.toString() });
    apps.push(t);
    const r = await t.gql(INFO);
    expect(r.body.errors).toBeUndefined();
    const coredb = r.body.data.function.core.info.config.coredb;
    expect(coredb.type).toBe('postgres');
    expect(coredb.path).toBe(`postgres://${u.username}:***@${new URL(PG_URL).host}/${db.name}`);
    expect(r.text).not.toContain(SECRETS[0]);
  });
});
