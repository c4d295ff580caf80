// ANONYMOUS_REFUSAL_HOLD for every refusal by a limit (issue 31), against the built server in its own
// process on a real socket: after a limit refused an anonymous request, before it ran (a document
// over ANONYMOUS_MAX_TOKENS, MAX_DEPTH, MAX_ROOT_FIELDS) or while it ran (the anonymous row limit on
// /query and /ipc, QUERY_TIMEOUT), the address's next request waits out the hold in its queue; with
// a hold far longer than CALLER_QUEUE_TIMEOUT it is refused with 429 once its wait is over, while a
// request from another address is answered. A request that went well holds nothing. Each case sends
// from an address of its own, so the holds do not meet. Also: ANONYMOUS_MAX_TOKENS refuses an
// anonymous document a signed-in caller may send.
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/app.js';
import { type ServerProcess, startServer } from '../support/server.js';

let server: ServerProcess;
const KEY = { 'x-svc-api-key': 'signed-in' };

interface Answer {
  status: number;
  text: string;
  body: any;
}

/** POST `path` from a given loopback address (the server keys anonymous callers by it). */
function post(path: string, query: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(`${server.url}${path}`);
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode!, text, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const WAITED = 'too many requests from this address: 1 are running (ANONYMOUS_MAX_REQUESTS_PER_ADDRESS) and none of them ended within 1000 ms (CALLER_QUEUE_TIMEOUT); try again';

/**
 * The address's next request waits out the hold (60 s): refused after its 1 s wait, while another
 * address is answered meanwhile. Without a hold it would be answered at once.
 */
async function expectHeld(from: string): Promise<void> {
  let answered = false;
  const next = post('/query', '{ __typename }', from).finally(() => (answered = true));
  const other = await post('/query', '{ __typename }', '127.0.0.99');
  expect(other.body, other.text).toEqual({ data: { __typename: 'Query' }, extensions: {} });
  expect(answered, 'the held address was answered before another address').toBe(false);
  const r = await next;
  expect(r.status, r.text).toBe(429);
  expect(r.body.errors[0].message).toBe(WAITED);
}

beforeAll(async () => {
  const dir = tempDir();
  const root = join(dir, 'catalogs');
  mkdirSync(join(root, 'duck'), { recursive: true });
  writeFileSync(join(root, 'duck', 'source.yaml'), 'type: duckdb\npath: ":memory:"\nprefix: duck\n');
  writeFileSync(join(root, 'duck', 'schema.graphql'), [
    'type rows @view(name: "rows", sql: "SELECT * FROM range(3) t(n)") { n: BigInt }',
    // A cross join of 10^11 rows: far beyond QUERY_TIMEOUT, one row of answer.
    'type slow @view(name: "slow", sql: "SELECT count(*) AS n FROM range(1000000) a, range(100000) b WHERE (a.range * b.range) % 7 = 3") { n: BigInt }',
    '',
  ].join('\n'));
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "signed-in", role: admin, username: probe}\n');
  server = await startServer({
    CONFIG_FILE: config,
    CATALOGS_DIR: root,
    // Far longer than a request waits for its turn: a held address's next request is refused (429).
    ANONYMOUS_REFUSAL_HOLD: '60s',
    CALLER_QUEUE_TIMEOUT: '1s',
    ANONYMOUS_MAX_RESPONSE_ROWS: '2',
    QUERY_TIMEOUT: '300ms',
    MAX_ROOT_FIELDS: '3',
  });
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
});

describe('ANONYMOUS_MAX_TOKENS', () => {
  it('refuses an anonymous document over it (400, naming the setting) that a signed-in caller may send', async () => {
    const query = `{ duck_rows { ${'n '.repeat(600)}} }`;
    const signedIn = await post('/query', query, '127.0.0.2', KEY);
    expect(signedIn.body, signedIn.text.slice(0, 300)).toEqual({ data: { duck_rows: [{ n: 0 }, { n: 1 }, { n: 2 }] }, extensions: {} });
    const r = await post('/query', query, '127.0.0.2');
    expect(r.status, r.text).toBe(400);
    expect(r.body.errors, r.text).toEqual([{
      message: 'the query document has more than 500 tokens, the limit of an anonymous request (ANONYMOUS_MAX_TOKENS); sign in for a larger one',
      locations: [{ line: 1, column: expect.any(Number) }],
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    }]);
    await expectHeld('127.0.0.2');
  }, 30_000);
});

describe('ANONYMOUS_REFUSAL_HOLD after every refusal by a limit', () => {
  it('a request that went well holds nothing', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await post('/query', '{ __typename }', '127.0.0.3');
      expect(r.status, r.text).toBe(200);
    }
  }, 30_000);

  it('MAX_DEPTH and MAX_ROOT_FIELDS, refused after parsing', async () => {
    const deep = await post('/query', '{ __schema { types { fields { args { type { fields { type { name } } } } } } } }', '127.0.0.4');
    expect(deep.body.errors[0].extensions.code, deep.text).toBe('MAX_DEPTH_EXCEEDED');
    await expectHeld('127.0.0.4');
    const wide = await post('/query', '{ a: duck_rows { n } b: duck_rows { n } c: duck_rows { n } d: duck_rows { n } }', '127.0.0.5');
    expect(wide.body.errors[0].message, wide.text).toMatch(/MAX_ROOT_FIELDS/);
    await expectHeld('127.0.0.5');
  }, 30_000);

  it('the anonymous row limit, met while the statement ran (/query)', async () => {
    const r = await post('/query', '{ duck_rows { n } }', '127.0.0.6');
    expect(r.body.errors[0].extensions.code, r.text).toBe('RESPONSE_TOO_LARGE');
    expect(r.body.errors[0].message).toMatch(/ANONYMOUS_MAX_RESPONSE_ROWS/);
    await expectHeld('127.0.0.6');
  }, 30_000);

  it('the anonymous row limit, met while the answer streamed (/ipc)', async () => {
    const r = await post('/ipc', '{ duck_rows { n } }', '127.0.0.7');
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/RESPONSE_TOO_LARGE/);
    await expectHeld('127.0.0.7');
  }, 30_000);

  it('QUERY_TIMEOUT', async () => {
    const r = await post('/query', '{ duck_slow { n } }', '127.0.0.8');
    expect(r.body.errors[0].extensions.code, r.text).toBe('QUERY_TIMEOUT');
    await expectHeld('127.0.0.8');
  }, 30_000);
});
