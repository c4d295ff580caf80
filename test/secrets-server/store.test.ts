import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/secrets-server/config.js';
import { createSecretsServer } from '../../src/secrets-server/server.js';
import { seal, StoreOpenError } from '../../src/secrets-server/store-file.js';
import { TestIdp } from './helpers/idp.js';
import { AUDIENCE, configDoc, secretBody, startServer, testEnv } from './helpers/harness.js';
import { scanLogsAfterAll } from './helpers/leaks.js';
import { logLines, secretValue } from './helpers/sensitive.js';

let idp: TestIdp;
let admin: string;
let reader: string;
const dir = mkdtempSync(join(tmpdir(), 'secrets-store-'));
const keyText = randomBytes(32).toString('base64');
const key = Buffer.from(keyText, 'base64');

scanLogsAfterAll();

beforeAll(async () => {
  idp = await TestIdp.start();
  admin = await idp.token({ sub: 'root', aud: AUDIENCE, realm_access: { roles: ['admin'] } });
  reader = await idp.token({ sub: 'ann', aud: AUDIENCE, realm_access: { roles: ['reader'] } });
});
afterAll(() => idp.close());

const storeDoc = (path: string) => configDoc([idp], { store: { path, key_env: 'STORE_KEY' } });
const env = (k = keyText) => testEnv({ STORE_KEY: k });

function decrypt(file: Buffer): string {
  const d = createDecipheriv('aes-256-gcm', key, file.subarray(0, 12));
  d.setAAD(Buffer.from('svc-secrets/1'));
  d.setAuthTag(file.subarray(file.length - 16));
  return Buffer.concat([d.update(file.subarray(12, file.length - 16)), d.final()]).toString('utf8');
}

describe('the encrypted store file', () => {
  const path = join(dir, 'store.bin');
  const value = secretValue('stored');

  it('is nonce ‖ ciphertext ‖ tag with mode 0600, holding neither names nor values in clear', async () => {
    const s = await startServer(storeDoc(path), { env: env() });
    try {
      const r = await s.call('PUT', '/v1/secrets/payroll-db', { token: admin, body: secretBody({ password: value }) });
      expect(r.status).toBe(201);
      await s.call('PUT', '/v1/secrets/payroll-db/grants/g', { token: admin, body: { principal: 'role:reader', verbs: ['use'] } });
    } finally {
      await s.close();
    }
    const file = readFileSync(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = file.toString('latin1');
    for (const clear of ['payroll-db', value, 'password', 'role:reader']) expect(text).not.toContain(clear);
    const plain = decrypt(file);
    expect(plain).toContain('payroll-db');
    expect(plain).toContain(value);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('reopens with the same key, and each write uses a fresh nonce', async () => {
    const before = readFileSync(path);
    const s = await startServer(storeDoc(path), { env: env() });
    try {
      const r = await s.call('GET', '/v1/secrets/payroll-db', { token: reader });
      expect(r.status).toBe(200);
      expect(r.json.params.password).toBe(value);
      await s.call('PATCH', '/v1/secrets/payroll-db', { token: admin, body: { comment: 'c' } });
    } finally {
      await s.close();
    }
    expect(readFileSync(path).subarray(0, 12).equals(before.subarray(0, 12))).toBe(false);
  });

  const damaged: [string, (b: Buffer) => Buffer, string?][] = [
    ['a wrong key', (b) => b, randomBytes(32).toString('base64')],
    ['a truncated file', (b) => b.subarray(0, Math.floor(b.length / 2))],
    ['a truncated tag', (b) => b.subarray(0, b.length - 5)],
    ['a file shorter than nonce and tag', (b) => b.subarray(0, 20)],
    ['an empty file', () => Buffer.alloc(0)],
    ['a flipped byte in the ciphertext', (b) => flip(b, 20)],
    ['a flipped byte in the nonce', (b) => flip(b, 3)],
    ['a flipped byte in the tag', (b) => flip(b, b.length - 1)],
  ];
  for (const [what, damage, otherKey] of damaged) {
    it(`stops the start on ${what} and leaves the file untouched`, () => {
      const p = join(dir, `damaged-${what.replace(/\W+/g, '-')}.bin`);
      writeFileSync(p, damage(readFileSync(path)), { mode: 0o600 });
      const bytes = readFileSync(p);
      const mtime = statSync(p).mtimeMs;
      const config = parseConfig(storeDoc(p), env(otherKey));
      expect(() => createSecretsServer(config, { env: env(otherKey), log: (l) => logLines.push(l) })).toThrow(StoreOpenError);
      expect(readFileSync(p).equals(bytes)).toBe(true);
      expect(statSync(p).mtimeMs).toBe(mtime);
    });
  }

  it('stops the start without a usable key', () => {
    const config = parseConfig(storeDoc(path), env());
    for (const k of [undefined, 'c2hvcnQ=', `${keyText}x`, keyText.replace(/=$/, '')]) {
      const e = k === undefined ? testEnv() : env(k);
      expect(() => createSecretsServer(config, { env: e, log: () => {} }), String(k)).toThrow(/store key/);
    }
  });

  it('rolls a failed write back and answers 503', async () => {
    const sub = join(dir, 'movable');
    const p = join(sub, 'store.bin');
    mkdirSync(sub);
    const s = await startServer(storeDoc(p), { env: env() });
    try {
      expect((await s.call('PUT', '/v1/secrets/kept', { token: admin, body: secretBody({ v: '1' }) })).status).toBe(201);
      renameSync(sub, `${sub}-away`);
      const r = await s.call('PUT', '/v1/secrets/kept', { token: admin, body: secretBody({ v: '2' }) });
      expect(r.status).toBe(503);
      expect(r.json.type).toBe('service_unavailable');
      expect((await s.call('PUT', '/v1/secrets/lost', { token: admin, body: secretBody({}) })).status).toBe(503);
      renameSync(`${sub}-away`, sub);
      const list = await s.call('GET', '/v1/secrets', { token: admin });
      expect(list.json.map((d: { name: string; version: string }) => [d.name, d.version])).toEqual([['kept', '1']]);
      expect((await s.call('PUT', '/v1/secrets/kept', { token: admin, body: secretBody({ v: '3' }), headers: { 'If-Match': '"1"' } })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('lets exactly one of many concurrent If-Match writes win', async () => {
    const s = await startServer(storeDoc(join(dir, 'race.bin')), { env: env() });
    try {
      await s.call('PUT', '/v1/secrets/race', { token: admin, body: secretBody({ n: '0' }) });
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          s.call('PUT', '/v1/secrets/race', { token: admin, body: secretBody({ n: String(i) }), headers: { 'If-Match': '"1"' } }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((x) => x === 200)).toHaveLength(1);
      expect(statuses.filter((x) => x === 412)).toHaveLength(11);
    } finally {
      await s.close();
    }
  });

  it('keeps a memory-only store without store.path', async () => {
    const before = readdirSync(dir).length;
    const s = await startServer(configDoc([idp]));
    try {
      expect((await s.call('PUT', '/v1/secrets/mem', { token: admin, body: secretBody({}) })).status).toBe(201);
    } finally {
      await s.close();
    }
    expect(readdirSync(dir).length).toBe(before);
  });
});

describe('a store written by the earlier policy model', () => {
  it('logs grants that give nothing, honours none of them, and drops delegation rules', async () => {
    const p = join(dir, 'legacy.bin');
    const entry = (name: string, grants: unknown[]) => ({
      name, type: 's3', provider: 'config', scope: [], params: { k: 'v' }, redact_keys: [], comment: null,
      owner: 'subject:x|y', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z', version: 3, grants,
    });
    const doc = {
      format: 'svc-secrets/1',
      secrets: [
        entry('old-subject', [{ id: 'a', principal: `subject:${idp.issuer}|ann`, verbs: ['use'] }]),
        entry('old-verbs', [{ id: 'b', principal: 'role:reader', verbs: ['use', 'update'] }]),
        entry('fine', [{ id: 'c', principal: 'role:reader', verbs: ['use'] }]),
      ],
      variables: [],
      delegations: [{ actor: 'client:x', subject: 'subject:a|b' }],
    };
    writeFileSync(p, seal(key, Buffer.from(JSON.stringify(doc))), { mode: 0o600 });
    const s = await startServer(storeDoc(p), { env: env() });
    try {
      expect(s.lines.some((l) => l.includes('2 stored grant(s) give nothing'))).toBe(true);
      expect((await s.call('GET', '/v1/secrets/old-subject', { token: reader })).status).toBe(404);
      expect((await s.call('GET', '/v1/secrets/old-verbs', { token: reader })).status).toBe(404);
      expect((await s.call('GET', '/v1/secrets/fine', { token: reader })).status).toBe(200);
      await s.call('PATCH', '/v1/secrets/fine', { token: admin, body: { comment: 'touch' } });
    } finally {
      await s.close();
    }
    expect(decrypt(readFileSync(p))).not.toContain('delegations');
  });
});

function flip(b: Buffer, at: number): Buffer {
  const c = Buffer.from(b);
  c[at] = (c[at] ?? 0) ^ 0x01;
  return c;
}
