// A caller's requests in flight are bounded at the HTTP entry (issue 31, MAX_REQUESTS_PER_CALLER),
// against the built server in its own process on a real socket: an anonymous address with its limit
// in flight is refused at once with a retryable 429, while another address and a signed-in caller
// are answered; a request that ends (here: its client goes away) gives its slot back.
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/app.js';
import { type ServerProcess, startServer } from '../support/server.js';

let server: ServerProcess;
const SLOW = '{ function { shop_series(start: 1, stop: 2000000000) { generate_series } } }';
const QUICK = '{ shop_tags { id } }';

/** POST /query from a given loopback address (the server keys anonymous callers by it). */
function post(query: string, opts: { from?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const url = new URL(`${server.url}/query`);
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: opts.from ?? '127.0.0.1',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...opts.headers },
      ...(opts.signal ? { signal: opts.signal } : {}),
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function metric(line: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(line));
  return found ? Number(found.slice(line.length).trim()) : 0;
}

beforeAll(async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "probe-key", role: admin, username: probe}\n');
  server = await startServer({
    CONFIG_FILE: config,
    CATALOGS_DIR: join(import.meta.dirname, '..', '..', 'catalogs'),
    MAX_REQUESTS_PER_CALLER: '2',
    QUERY_TIMEOUT: '0',
    SHUTDOWN_TIMEOUT: '1s',
  });
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
});

describe('MAX_REQUESTS_PER_CALLER', () => {
  it('refuses a caller over its limit with a retryable 429 and answers the others', async () => {
    const abort = new AbortController();
    const slow = [1, 2].map(() => post(SLOW, { signal: abort.signal }).catch(() => undefined));
    // Until both slow requests are in flight, a quick one from the same address is still answered.
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await post(QUICK);
      if (r.status === 429) refused = r;
      else await new Promise((done) => setTimeout(done, 25));
    }
    expect(refused, 'an anonymous address with 2 requests in flight was never refused').toBeDefined();
    expect(refused!.headers['retry-after']).toBe('1');
    expect(refused!.body).toEqual({
      data: null, extensions: {},
      errors: [{
        message: 'too many requests in flight from this caller (at most 2, MAX_REQUESTS_PER_CALLER); try again when one has been answered',
        extensions: { code: 'TOO_MANY_REQUESTS', retryable: true },
      }],
    });
    // Another address and a signed-in caller from the same address have limits of their own.
    const other = await post(QUICK, { from: '127.0.0.2' });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const probe = await post(QUICK, { headers: { 'x-svc-api-key': 'probe-key' } });
    expect(probe.body).toEqual({ data: { shop_tags: [{ id: 1 }, { id: 2 }, { id: 3 }] }, extensions: {} });
    expect(await metric('svc_caller_refused_total')).toBeGreaterThan(0);
    // Load shed on purpose: logged (and sampled) like a success, not one warn line per refusal.
    const shed = server.logs().filter((l) => l.status === 429);
    expect(shed.length).toBeGreaterThan(0);
    expect(shed.every((l) => l.level === 30 || l.level === 'info'), JSON.stringify(shed[0])).toBe(true);
    // The clients go away: their slots come back.
    abort.abort();
    await Promise.all(slow);
    let after = 0;
    for (let i = 0; i < 200; i++) {
      after = (await post(QUICK)).status;
      if (after === 200) break;
      await new Promise((done) => setTimeout(done, 25));
    }
    expect(after).toBe(200);
  }, 60_000);
});
