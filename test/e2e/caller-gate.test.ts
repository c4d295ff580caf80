// A caller's requests running at once are bounded at the HTTP entry (issue 31,
// MAX_REQUESTS_PER_CALLER, and one per anonymous address: ANONYMOUS_MAX_REQUESTS_PER_ADDRESS), against
// the built server in its own process on a real socket: a burst from one caller waits its turn and
// is served; with the caller's slots held by slow requests, its next request waits while other
// callers are answered, and is refused with a retryable 429 once its wait is over
// (CALLER_QUEUE_TIMEOUT); a request that ends (here: its client goes away) gives its slot back.
// An anonymous address is the socket's unless TRUST_PROXY names the proxy: then the client its
// X-Forwarded-For names.
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
function post(query: string, opts: { from?: string; headers?: Record<string, string>; signal?: AbortSignal; to?: ServerProcess } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const url = new URL(`${(opts.to ?? server).url}/query`);
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

/** The settings of both servers: the slow request holds its slot, the one waiting is refused after 3 s. */
function settings(): Record<string, string> {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "probe-key", role: admin, username: probe}\n      - {key: "busy-key", role: admin, username: busy}\n');
  return {
    CONFIG_FILE: config,
    CATALOGS_DIR: join(import.meta.dirname, '..', '..', 'catalogs'),
    MAX_REQUESTS_PER_CALLER: '2',
    // Long enough that the requests of other callers are answered while one waits, on a loaded machine.
    CALLER_QUEUE_TIMEOUT: '3s',
    QUERY_TIMEOUT: '0',
    // The slow request must hold its slot: with the default row cap (MAX_RESPONSE_ROWS, and anonymous callers'
    // ANONYMOUS_MAX_RESPONSE_ROWS) the 2,000,000,000-row series is refused at its first row over it.
    MAX_RESPONSE_ROWS: '0',
    ANONYMOUS_MAX_RESPONSE_ROWS: '0',
    SHUTDOWN_TIMEOUT: '1s',
  };
}

beforeAll(async () => {
  server = await startServer(settings());
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
});

describe('MAX_REQUESTS_PER_CALLER and ANONYMOUS_MAX_REQUESTS_PER_ADDRESS', () => {
  it('serves a burst from one caller: the requests over the limit wait their turn', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(QUICK)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  }, 60_000);

  it('runs one request per anonymous address: the next waits while another address and a signed-in caller are answered, then 429', async () => {
    const abort = new AbortController();
    const slow = post(SLOW, { signal: abort.signal }).catch(() => undefined);
    const refused = await heldWhile(() => post(QUICK), async () => {
      // Sent while the same address's request waits for its turn: answered before it. (No statement:
      // the slow one holds the anonymous callers' DuckDB connection, ANONYMOUS_SOURCE_SHARE.)
      const other = await post('{ __typename }', { from: '127.0.0.2' });
      expect(other.body, JSON.stringify(other.body)).toEqual({ data: { __typename: 'Query' }, extensions: {} });
      const probe = await post(QUICK, { headers: { 'x-svc-api-key': 'probe-key' } });
      expect(probe.body).toEqual({ data: { shop_tags: [{ id: 1 }, { id: 2 }, { id: 3 }] }, extensions: {} });
    });
    expect(refused, 'a second request from an anonymous address with one running was never held').toBeDefined();
    expect(refused!.headers['retry-after']).toBe('1');
    expect(refused!.body).toEqual({
      data: null, extensions: {},
      errors: [{
        message: 'too many requests from this address: 1 are running (ANONYMOUS_MAX_REQUESTS_PER_ADDRESS) and none of them ended within 3000 ms (CALLER_QUEUE_TIMEOUT); try again',
        extensions: { code: 'TOO_MANY_REQUESTS', retryable: true },
      }],
    });
    expect(await metric('svc_caller_refused_total{reason="wait_limit"}')).toBeGreaterThan(0);
    // Load shed on purpose: logged (and sampled) like a success, not one warn line per refusal.
    const shed = server.logs().filter((l) => l.status === 429);
    expect(shed.length).toBeGreaterThan(0);
    expect(shed.every((l) => l.level === 30 || l.level === 'info'), JSON.stringify(shed[0])).toBe(true);
    // The client goes away: its slot comes back.
    abort.abort();
    await slow;
    expect(await answeredSoon(() => post(QUICK))).toBe(200);
  }, 60_000);

  it('takes no address from X-Forwarded-For by default (TRUST_PROXY): two requests naming different clients from one socket address share its turn', async () => {
    const abort = new AbortController();
    const slow = post(SLOW, { headers: { 'x-forwarded-for': '203.0.113.1' }, signal: abort.signal }).catch(() => undefined);
    const refused = await heldWhile(() => post('{ __typename }', { headers: { 'x-forwarded-for': '203.0.113.2' } }), async () => {
      expect((await post('{ __typename }', { from: '127.0.0.2' })).status).toBe(200);
    });
    expect(refused, 'a request naming another client in X-Forwarded-For was given a turn of its own').toBeDefined();
    expect(refused!.body.errors[0].message).toMatch(/^too many requests from this address: 1 are running \(ANONYMOUS_MAX_REQUESTS_PER_ADDRESS\)/);
    abort.abort();
    await slow;
    expect(await answeredSoon(() => post(QUICK))).toBe(200);
  }, 60_000);

  it('holds a signed-in caller to MAX_REQUESTS_PER_CALLER: with its slots taken, its next request is refused after its wait', async () => {
    const busy = { 'x-svc-api-key': 'busy-key' };
    const abort = new AbortController();
    const slow = [1, 2].map(() => post(SLOW, { headers: busy, signal: abort.signal }).catch(() => undefined));
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await post(QUICK, { headers: busy });
      if (r.status === 429) refused = r;
      else await new Promise((done) => setTimeout(done, 25));
    }
    expect(refused, 'a caller with 2 requests in flight was never refused').toBeDefined();
    expect(refused!.body.errors[0].message).toBe('too many requests from this caller: 2 are running (MAX_REQUESTS_PER_CALLER) and none of them ended within 3000 ms (CALLER_QUEUE_TIMEOUT); try again');
    const probe = await post(QUICK, { headers: { 'x-svc-api-key': 'probe-key' } });
    expect(probe.status).toBe(200);
    abort.abort();
    await Promise.all(slow);
    expect(await answeredSoon(() => post(QUICK, { headers: busy }))).toBe(200);
  }, 60_000);
});

describe('TRUST_PROXY', () => {
  let proxied: ServerProcess;
  beforeAll(async () => {
    proxied = await startServer({ ...settings(), TRUST_PROXY: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await proxied?.stop('SIGKILL');
  });

  it('with the proxy trusted, each client it names in X-Forwarded-For is an address of its own: two run at once, a second from the same client waits', async () => {
    const from = (client: string) => ({ to: proxied, headers: { 'x-forwarded-for': `198.51.100.9, ${client}` } });
    const abort = new AbortController();
    const slow = post(SLOW, { ...from('203.0.113.1'), signal: abort.signal }).catch(() => undefined);
    const refused = await heldWhile(() => post('{ __typename }', from('203.0.113.1')), async () => {
      // Another client through the same proxy runs while 203.0.113.1's slow request does.
      const other = await post('{ __typename }', from('203.0.113.2'));
      expect(other.body, JSON.stringify(other.body)).toEqual({ data: { __typename: 'Query' }, extensions: {} });
    });
    expect(refused, 'a second request of the client named by the trusted proxy was never held').toBeDefined();
    expect(refused!.body.errors[0].message).toMatch(/^too many requests from this address: 1 are running/);
    abort.abort();
    await slow;
  }, 60_000);
});

/**
 * Sends `send` until it is refused after its wait (429; before the slow request runs it is
 * answered), checking each time that what `meanwhile` sends is answered while it waits.
 */
async function heldWhile(send: () => ReturnType<typeof post>, meanwhile: () => Promise<void>): Promise<Awaited<ReturnType<typeof post>> | undefined> {
  for (let i = 0; i < 200; i++) {
    let answered = false;
    const waiting = send().finally(() => (answered = true));
    await meanwhile();
    const stillWaiting = !answered;
    const r = await waiting;
    if (r.status === 429) {
      expect(stillWaiting, 'the other requests were answered only after the held request').toBe(true);
      return r;
    }
    await new Promise((done) => setTimeout(done, 25));
  }
  return undefined;
}

/** Sends until answered 200 (a slot given back is seen once the server has seen the client go). */
async function answeredSoon(send: () => Promise<{ status: number }>): Promise<number> {
  let status = 0;
  for (let i = 0; i < 200; i++) {
    status = (await send()).status;
    if (status === 200) break;
    await new Promise((done) => setTimeout(done, 25));
  }
  return status;
}
