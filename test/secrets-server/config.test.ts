import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ConfigError, loadConfigFile, parseConfig } from '../../src/secrets-server/config.js';
import { TestIdp } from './helpers/idp.js';
import { AUDIENCE, call } from './helpers/harness.js';
import { scanLogsAfterAll } from './helpers/leaks.js';
import { logLines } from './helpers/sensitive.js';

scanLogsAfterAll();

const ISSUER = 'https://idp.example.com/realms/main/';
const base = () => ({ listen: '127.0.0.1:8700', issuers: [{ issuer: ISSUER, audience: AUDIENCE }] });
const refuse = (doc: unknown, message: RegExp, env: NodeJS.ProcessEnv = {}) => {
  expect(() => parseConfig(doc, env)).toThrow(ConfigError);
  expect(() => parseConfig(doc, env)).toThrow(message);
};

describe('configuration', () => {
  it('accepts a complete file and fills defaults', () => {
    const c = parseConfig({
      ...base(),
      public_url: 'https://secrets.example.com/',
      issuers: [{
        issuer: ISSUER, audience: AUDIENCE, client_id: 'cli', scopes: ['openid'], human_flows: ['device_code'],
        service_flows: ['client_credentials'], audience_parameter: true, roles_claim: 'realm_access.roles', groups_claim: 'groups',
        service: { claim: 'client_type', equals: 'service' }, exchange: { client_id: 'x', client_secret_env: 'X_SECRET' },
      }],
      policy: { admins: ['role:admin', 'client:ops'], actors: [{ principal: 'client:engine', issuer: ISSUER, verbs: ['use'] }] },
      cors_origins: ['https://app.example.com', 'http://localhost:3000'],
    }, { X_SECRET: 's' });
    expect(c.issuers[0]).toMatchObject({ client_claim: 'azp', algorithms: ['RS256', 'ES256'], exchange: { client_id: 'x', client_secret: 's' } });
    expect(c.publicUrl).toBe('https://secrets.example.com');
    expect(parseConfig(base()).publicUrl).toBe('http://127.0.0.1:8700');
  });

  it('refuses unknown keys wherever they are', () => {
    refuse({ ...base(), colour: 'red' }, /colour/);
    refuse({ ...base(), issuers: [{ issuer: ISSUER, audience: AUDIENCE, audiance: 'x' }] }, /issuers\.0/);
    refuse({ ...base(), policy: { admins: [], actors: [{ principal: 'client:a', verbs: ['use'], role: 'x' }] } }, /policy\.actors\.0/);
    refuse({ ...base(), store: { path: '/tmp/x', key_env: 'K', mode: 1 } }, /store/);
  });

  it('refuses policy.create with the way out', () => {
    refuse({ ...base(), policy: { admins: [], create: ['role:writers'] } }, /policy\.create.*policy\.admins/);
  });

  it('requires TLS off loopback', () => {
    refuse({ ...base(), listen: '0.0.0.0:8700' }, /tls: required/);
    refuse({ ...base(), listen: 'secrets.internal:8700' }, /tls: required/);
    expect(parseConfig({ ...base(), listen: '0.0.0.0:8700', tls: { cert: 'c.pem', key: 'k.pem' } }).tls).toBeDefined();
    for (const listen of ['127.0.0.1:1', 'localhost:1', '[::1]:1', '127.8.9.10:1']) expect(parseConfig({ ...base(), listen }).listen.port).toBe(1);
    refuse({ ...base(), listen: 'nonsense' }, /listen/);
  });

  it('refuses unsafe issuers, symmetric algorithms, bad principals and bad origins', () => {
    refuse({ ...base(), issuers: [{ issuer: 'http://idp.example.com', audience: AUDIENCE }] }, /https required/);
    expect(parseConfig({ ...base(), issuers: [{ issuer: 'http://127.0.0.1:9000', audience: AUDIENCE }] }).issuers).toHaveLength(1);
    for (const alg of ['HS256', 'none']) refuse({ ...base(), issuers: [{ issuer: ISSUER, audience: AUDIENCE, algorithms: [alg] }] }, /algorithms/);
    refuse({ ...base(), issuers: [base().issuers[0], base().issuers[0]] }, /listed twice/);
    refuse({ ...base(), policy: { admins: ['admin'] } }, /policy\.admins\.0/);
    refuse({ ...base(), policy: { actors: [{ principal: 'client:a', issuer: 'https://other/', verbs: [] }] } }, /not one of the issuers/);
    refuse({ ...base(), policy: { actors: [{ principal: 'client:a', verbs: ['read'] }] } }, /verbs/);
    refuse({ ...base(), cors_origins: ['*'] }, /wildcard/);
    refuse({ ...base(), cors_origins: ['https://*.example.com'] }, /wildcard/);
    refuse({ ...base(), cors_origins: ['http://app.example.com'] }, /https/);
    refuse({ ...base(), cors_origins: ['https://app.example.com/'] }, /origin form/);
    refuse({ ...base(), cors_origins: ['https://app.example.com:443'] }, /origin form/);
  });

  it('needs store.key_env with store.path and the exchange secret in the environment', () => {
    refuse({ ...base(), store: { path: '/tmp/s' } }, /key_env/);
    refuse({ ...base(), issuers: [{ issuer: ISSUER, audience: AUDIENCE, exchange: { client_id: 'x', client_secret_env: 'NOPE' } }] }, /NOPE/);
  });

  it('accepts the example of docs/secrets-server.md', () => {
    const doc = readFileSync(new URL('../../docs/secrets-server.md', import.meta.url), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(yaml).toBeDefined();
    const c = parseConfig(parse(yaml!), { SECRETS_EXCHANGE_SECRET: 'x' });
    expect(c.actors[0]?.principal).toBe('client:query-engine');
  });

  it('reads YAML from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-cfg-'));
    const p = join(dir, 'c.yaml');
    writeFileSync(p, stringify(base()));
    expect(loadConfigFile(p).issuers[0]?.issuer).toBe(ISSUER);
    writeFileSync(p, 'listen: [unclosed');
    expect(() => loadConfigFile(p)).toThrow(/not valid YAML/);
    expect(() => loadConfigFile(join(dir, 'missing.yaml'))).toThrow(/cannot read/);
    rmSync(dir, { recursive: true });
  });
});

describe('the entry point', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // Compiled next to node_modules so that the emitted imports of jose, yaml and zod resolve.
  const out = join(root, 'node_modules', '.cache', `secrets-server-test-${randomBytes(4).toString('hex')}`);
  const main = join(out, 'src', 'secrets-server', 'main.js');
  const dir = mkdtempSync(join(tmpdir(), 'secrets-main-'));
  let idp: TestIdp;

  beforeAll(async () => {
    // The build the npm script uses (src/secrets-server/tsconfig.json), into a scratch directory.
    const tsc = spawnSync(process.execPath, [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'src', 'secrets-server', 'tsconfig.json'), '--outDir', out,
    ], { encoding: 'utf8' });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    idp = await TestIdp.start();
  }, 60_000);
  afterAll(async () => {
    rmSync(out, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
    await idp.close();
  });

  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [main, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 10_000 });

  it('exits non-zero with one clear line on a bad config or no -config', () => {
    const p = join(dir, 'bad.yaml');
    writeFileSync(p, stringify({ ...base(), policy: { create: ['role:x'] } }));
    const r = run(['-config', p]);
    logLines.push(r.stderr);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('policy.create');
    const usage = run([]);
    expect(usage.status).toBe(1);
    expect(usage.stderr).toContain('-config');
  });

  it('exits non-zero on a store that does not open, leaving it untouched', () => {
    const store = join(dir, 'store.bin');
    const junk = randomBytes(64);
    writeFileSync(store, junk);
    const p = join(dir, 'store.yaml');
    writeFileSync(p, stringify({ ...base(), store: { path: store, key_env: 'K' } }));
    const r = run(['-config', p], { K: randomBytes(32).toString('base64') });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('does not open');
    expect(readFileSync(store).equals(junk)).toBe(true);
  });

  it('starts, serves discovery and stops on SIGTERM', async () => {
    const p = join(dir, 'good.yaml');
    writeFileSync(p, stringify({ listen: '127.0.0.1:0', issuers: [{ issuer: idp.issuer, audience: AUDIENCE }] }));
    const child = spawn(process.execPath, [main, '-config', p], { env: { PATH: process.env.PATH } });
    const url = await new Promise<string>((res, rej) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += String(d);
        // The child's log lines join this file's scan.
        logLines.push(...String(d).split('\n').filter(Boolean));
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
        if (m?.[1]) res(m[1]);
      });
      child.on('exit', (code) => rej(new Error(`exited ${code}`)));
    });
    const r = await call(url, 'GET', '/.well-known/duckdb-secrets');
    expect(r.json.protocol).toBe('duckdb-secrets/1');
    const code = await new Promise<number | null>((res) => {
      child.on('exit', (c) => res(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
