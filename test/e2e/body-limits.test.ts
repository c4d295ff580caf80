// Limits checked while a JSON body streams in (issue 31): a list in the variables longer than
// MAX_LIST_VALUES is refused at the value that crosses it, before the rest of the body is read or
// any of it parsed, with 413 naming where the list is; the server keeps serving. A real server
// process on a socket, so a body can be left unfinished.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../support/server.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(() => server?.stop());

const IN_LIST = 'query($ids: [Int!]) { shop_orders(filter: {id: {in: $ids}}) { id } }';
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

async function post(path: string, body: unknown) {
  const r = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, text, body: JSON.parse(text) };
}

describe('a list longer than MAX_LIST_VALUES in a JSON body', () => {
  it('is refused with 413 naming the list; a list at the limit runs; the server keeps serving', async () => {
    const long = await post('/query', { query: IN_LIST, variables: { ids: ids(200_000) } });
    expect(long.status, long.text).toBe(413);
    expect(long.body).toEqual({
      data: null,
      extensions: {},
      errors: [{ message: 'the request body holds a list of more than 10000 values at variables.ids (MAX_LIST_VALUES); split the request', extensions: { code: 'PAYLOAD_TOO_LARGE' } }],
    });
    const atLimit = await post('/query', { query: IN_LIST, variables: { ids: ids(10_000) } });
    expect(atLimit.status, atLimit.text.slice(0, 300)).toBe(200);
    expect(atLimit.body.errors, atLimit.text.slice(0, 300)).toBeUndefined();
    expect(atLimit.body.data.shop_orders.length).toBeGreaterThan(0);
    // Strings are not lists: 20,000 commas and brackets in a string value pass.
    const text = await post('/query', { query: 'query($s: String) { shop_tags(filter: {name: {eq: $s}}) { id } }', variables: { s: '[,'.repeat(20_000) } });
    expect(text.body, text.text.slice(0, 300)).toEqual({ data: { shop_tags: [] }, extensions: {} });
  });

  it('is answered before the rest of the body has been sent', async () => {
    const body = Buffer.from(JSON.stringify({ query: IN_LIST, variables: { ids: ids(200_000) } }));
    const url = new URL(`${server.url}/query`);
    const answer = await new Promise<{ status: number; text: string; sent: number }>((done, fail) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => {
          done({ status: res.statusCode!, text, sent: req.writableLength === 0 ? written : -1 });
          req.destroy();
        });
      });
      req.on('error', fail);
      // A quarter of the body (about 300 kB, 50,000 ids), then nothing more: the server must answer without the rest.
      const written = body.length >> 2;
      req.write(body.subarray(0, written));
    });
    expect(answer.status, answer.text).toBe(413);
    expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(answer.sent).toBeLessThan(body.length);
  });

  it('is found inside /jq-query\'s request too, and its path says so', async () => {
    const r = await post('/jq-query', { jq: '.', query: { query: IN_LIST, variables: { ids: ids(20_000) } } });
    expect(r.status, r.text).toBe(413);
    // /jq-query's own error shape (SPEC §8).
    expect(r.body).toEqual({ error: 'the request body holds a list of more than 10000 values at query.variables.ids (MAX_LIST_VALUES); split the request' });
  });
});
