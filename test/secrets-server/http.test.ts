import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTraceparent } from '../../src/secrets-server/log.js';
import { TestIdp } from './helpers/idp.js';
import { AUDIENCE, configDoc, secretBody, startServer, type Started } from './helpers/harness.js';
import { scanLogsAfterAll } from './helpers/leaks.js';
import { secretValue } from './helpers/sensitive.js';

let idp: TestIdp;
let srv: Started;
let admin: string;

scanLogsAfterAll();

const ORIGIN = 'https://app.example.com';
const LOCAL = 'http://127.0.0.1:5173';

beforeAll(async () => {
  idp = await TestIdp.start();
  srv = await startServer(configDoc([idp], { cors_origins: [ORIGIN, LOCAL] }));
  admin = await idp.token({ sub: 'root', aud: AUDIENCE, realm_access: { roles: ['admin'] } });
});
afterAll(async () => {
  await srv.close();
  await idp.close();
});

const corsHeaders = (h: Record<string, unknown>) => Object.keys(h).filter((k) => k.startsWith('access-control-'));

describe('CORS', () => {
  it('marks responses for listed origins only, never with credentials', async () => {
    for (const origin of [ORIGIN, LOCAL]) {
      const r = await srv.call('GET', '/v1/whoami', { token: admin, headers: { origin } });
      expect(r.headers['access-control-allow-origin']).toBe(origin);
      expect(r.headers['access-control-allow-credentials']).toBeUndefined();
      expect(r.headers.vary).toContain('Origin');
      expect(r.headers['access-control-expose-headers']).toContain('ETag');
    }
  });

  it('gives look-alike origins and Origin: null no CORS header at all', async () => {
    for (const origin of [
      'null', 'https://app.example.com.evil.com', 'https://evilapp.example.com', 'https://app.example.com:443',
      'https://app.example.com/', 'http://app.example.com', 'https://APP.example.com', 'https://app.example.co',
      'http://127.0.0.1:5174', 'http://localhost:5173', `${ORIGIN}, https://evil.com`,
    ]) {
      const get = await srv.call('GET', '/v1/whoami', { token: admin, headers: { origin } });
      expect(corsHeaders(get.headers), origin).toEqual([]);
      const pre = await srv.call('OPTIONS', '/v1/secrets/x', { headers: { origin, 'access-control-request-method': 'PUT' } });
      expect(pre.status).toBe(204);
      expect(corsHeaders(pre.headers), origin).toEqual([]);
    }
  });

  it('answers preflights for listed origins', async () => {
    const r = await srv.call('OPTIONS', '/v1/secrets/x', {
      headers: { origin: ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, if-match' },
    });
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(r.headers['access-control-allow-methods']).toContain('PUT');
    expect(r.headers['access-control-allow-headers']).toContain('Authorization');
    expect(r.headers['access-control-allow-headers']).toContain('If-Match');
    expect((await srv.call('OPTIONS', '/nowhere', { headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } })).status).toBe(404);
  });
});

describe('the request log', () => {
  const requestLines = () => srv.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');

  it('writes one line per request with method, path, status, subject, duration and trace ids', async () => {
    const before = requestLines().length;
    const trace = '0af7651916cd43dd8448eb211c80319c';
    const span = 'b7ad6b7169203331';
    await srv.call('GET', '/v1/secrets?type=s3', { token: admin, headers: { traceparent: `00-${trace}-${span}-01` } });
    const lines = requestLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: 'GET', path: '/v1/secrets', status: 200, subject: `subject:${idp.issuer}|root`, trace_id: trace, parent_span_id: span,
    });
    expect(typeof lines[0].duration_ms).toBe('number');
  });

  it('ignores every traceparent that is not strictly valid', () => {
    const t = '0af7651916cd43dd8448eb211c80319c';
    const s = 'b7ad6b7169203331';
    expect(parseTraceparent(`00-${t}-${s}-01`)).toEqual({ trace_id: t, parent_span_id: s });
    for (const bad of [
      `01-${t}-${s}-01`, `00-${t.toUpperCase()}-${s}-01`, `00-${'0'.repeat(32)}-${s}-01`, `00-${t}-${'0'.repeat(16)}-01`,
      `00-${t}-${s}-01-extra`, `00-${t}-${s}`, `00-${t}x-${s}-01`, ` 00-${t}-${s}-01`, `00-${t}-${s}-1`, `ff-${t}-${s}-01`,
    ]) {
      expect(parseTraceparent(bad), bad).toBeUndefined();
    }
    expect(parseTraceparent([`00-${t}-${s}-01`, `00-${t}-${s}-01`])).toBeUndefined();
  });

  it('never logs headers, bodies or an invalid traceparent', async () => {
    const value = secretValue('body');
    const headerValue = secretValue('header');
    const before = srv.lines.length;
    await srv.call('PUT', '/v1/secrets/logged', {
      token: admin, body: secretBody({ password: value }), headers: { 'x-custom': headerValue, traceparent: `00-${headerValue}` },
    });
    const fresh = srv.lines.slice(before);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).not.toContain(value);
    expect(fresh[0]).not.toContain(headerValue);
    expect(JSON.parse(fresh[0]!).trace_id).toBeUndefined();
  });

  it('logs a 401 without a subject and a problem shape on every error', async () => {
    const r = await srv.call('GET', '/v1/secrets', { headers: { authorization: 'Bearer nonsense' } });
    expect(r.json).toEqual({ type: 'unauthenticated', title: 'unauthenticated', status: 401, detail: expect.any(String) });
    const last = JSON.parse(srv.lines.at(-1)!);
    expect(last).toMatchObject({ status: 401, subject: null });
  });
});

describe('TLS', () => {
  const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
  it.skipIf(!hasOpenssl)('serves https with the configured certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-tls-'));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    const gen = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert], { encoding: 'utf8' });
    expect(gen.status, gen.stderr).toBe(0);
    const s = await startServer(configDoc([idp], { tls: { cert, key } }));
    try {
      expect(s.url.startsWith('https://')).toBe(true);
      const body = await new Promise<string>((res, rej) => {
        const u = new URL(`${s.url}/.well-known/duckdb-secrets`);
        request({ host: u.hostname, port: u.port, path: u.pathname, rejectUnauthorized: false }, (r) => {
          let t = '';
          r.on('data', (c) => (t += String(c)));
          r.on('end', () => res(t));
        }).on('error', rej).end();
      });
      expect(JSON.parse(body).protocol).toBe('duckdb-secrets/1');
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops the start when the certificate cannot be read', async () => {
    await expect(startServer(configDoc([idp], { tls: { cert: '/nonexistent/cert.pem', key: '/nonexistent/key.pem' } }))).rejects.toThrow(/tls\.cert/);
  });
});
