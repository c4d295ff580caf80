// One way to run an operation (issue 27): the same request sent through every entry point gets the
// same treatment. Two disagreements the copies had, each shown here on every way in:
// - identity override from a caller other than the secret key: requests ignore it, subscription
//   connections refuse it (seed 000 "Secret key" 3), decided by the context factory for all;
// - an internal error reaching a jq program through querySvc: masked as /query masks it, whether
//   the program came as the `_jq` variable, /jq-query's `jq` or a jq() field.
// (The third, a partial commit, is test/pg/commit-order.test.ts on /query, /jq-query and in-process.)
import { Injectable, Module } from '@nestjs/common';
import { createClient, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldCall, type FieldStage, FieldStageProvider } from '../../src/pipeline/field-stage.js';
import { startApp, type TestApp } from '../support/app.js';
import { splitMultipart } from '../ipc/multipart.js';

const SECRET = 'one-op-secret';
/** A detail only the server's log may hold. */
const DETAIL = 'stage exploded: password=hunter2';

/** A team's field stage with a bug: every `shop_tags` read throws a plain Error. */
@FieldStageProvider()
@Injectable()
class BrokenStage implements FieldStage {
  intercept(call: FieldCall, next: () => Promise<unknown>): Promise<unknown> {
    if (call.info.fieldName === 'shop_tags') throw new Error(DETAIL);
    return next();
  }
}

@Module({ providers: [BrokenStage] })
class BrokenModule {}

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: SECRET, ALLOW_MANAGED_API_KEYS: 'true' }, [BrokenModule]);
  await t.app.listen(0, '127.0.0.1');
  base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  const admin = { 'x-svc-secret-key': SECRET };
  expect((await t.gql('mutation { core { insert_roles(data: {name: "viewer", description: "v"}) { name } } }', undefined, admin)).body.errors).toBeUndefined();
  expect((await t.gql('mutation { core { insert_api_keys(data: {name: "k1", description: "", key: "viewer-key", default_role: "viewer"}) { name } } }', undefined, admin)).body.errors).toBeUndefined();
}, 60_000);

afterAll(() => t?.close());

const ME = '{ function { core { auth { me { role auth_type } } } } }';
const VIEWER = { role: 'viewer', auth_type: 'apikey' };
/** A regular API key's caller asking to be admin. */
const OVERRIDE = { 'x-svc-api-key': 'viewer-key', 'x-svc-role': 'admin', 'x-svc-user-id': 'root' };

const post = async (path: string, body: unknown, headers: Record<string, string>) => {
  const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: Buffer.from(await r.arrayBuffer()) };
};

/** graphql-ws on /subscribe: the close code when the connection is refused, else the first result. */
function subscribeOnce(params: Record<string, string>): Promise<{ code?: number; result?: ExecutionResult }> {
  const client = createClient({ url: base.replace(/^http/, 'ws') + '/subscribe', webSocketImpl: WebSocket, connectionParams: params, retryAttempts: 0, lazy: true });
  return new Promise((done) => {
    client.subscribe({ query: `subscription { query(count: 1) ${ME} }` }, {
      next: (result) => done({ result: result as ExecutionResult }),
      error: (e) => done({ code: (e as { code?: number }).code }),
      complete: () => undefined,
    });
  }).finally(() => client.dispose()) as Promise<{ code?: number; result?: ExecutionResult }>;
}

/** The /ipc WebSocket: the close code when refused, else the answer's JSON object part. */
function ipcSocketOnce(params: Record<string, string>): Promise<{ code?: number; data?: unknown }> {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + '/ipc', ['svc-ipc-ws']);
  return new Promise((done, fail) => {
    ws.on('error', fail);
    ws.on('close', (code) => done({ code }));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: params })));
    ws.on('message', (raw, binary) => {
      if (binary) return;
      const m = JSON.parse(raw.toString()) as Record<string, unknown>;
      if (m.type === 'connection_ack') ws.send(JSON.stringify({ type: 'query', id: 'q1', query: ME }));
      if (m.type === 'object' || m.type === 'data') {
        done({ data: m });
        ws.close();
      }
    });
  });
}

describe('identity override from a caller other than the secret key, on every entry point', () => {
  it('requests ignore it: /query, GET /query, /jq-query and POST /ipc answer as the key\'s own role', async () => {
    const q = await post('/query', { query: ME }, OVERRIDE);
    expect(JSON.parse(q.body.toString()).data.function.core.auth.me).toEqual(VIEWER);
    const get = await fetch(`${base}/query?query=${encodeURIComponent(ME)}`, { headers: OVERRIDE });
    expect(((await get.json()) as { data: { function: { core: { auth: { me: unknown } } } } }).data.function.core.auth.me).toEqual(VIEWER);
    const jq = await post('/jq-query', { jq: '.data.function.core.auth.me', query: { query: ME } }, OVERRIDE);
    expect(JSON.parse(jq.body.toString())).toEqual(VIEWER);
    const ipc = await post('/ipc', { query: ME }, OVERRIDE);
    expect(ipc.type).toMatch(/^multipart\/mixed/);
    const parts = splitMultipart(ipc.body).map((p) => p.body.toString());
    expect(parts.some((p) => p.includes('"role":"viewer"') && p.includes('"auth_type":"apikey"'))).toBe(true);
    expect(parts.some((p) => p.includes('"role":"admin"'))).toBe(false);
  });

  it('subscription connections refuse it: /subscribe and the /ipc WebSocket close with 4403; the secret key may impersonate', async () => {
    expect((await subscribeOnce(OVERRIDE)).code).toBe(4403);
    expect((await ipcSocketOnce(OVERRIDE)).code).toBe(4403);
    // Without the override the same key connects, as its own role.
    const plain = await subscribeOnce({ 'x-svc-api-key': 'viewer-key' });
    expect((plain.result?.data as { query: { function: { core: { auth: { me: unknown } } } } }).query.function.core.auth.me).toEqual(VIEWER);
    const secret = await subscribeOnce({ 'x-svc-secret-key': SECRET, 'x-svc-role': 'viewer' });
    expect((secret.result?.data as { query: { function: { core: { auth: { me: unknown } } } } }).query.function.core.auth.me).toEqual({ role: 'viewer', auth_type: 'impersonation' });
  });
});

describe('an internal error reaching a jq program through querySvc is masked as /query masks it', () => {
  const admin = { 'x-svc-secret-key': SECRET };
  const TAGS = '{ shop_tags { name } }';
  const masked = { message: 'internal server error', code: 'INTERNAL_SERVER_ERROR' };
  const errorOf = (answer: { errors?: { message: string; extensions: { code: string } }[] }) => ({ message: answer.errors?.[0]?.message, code: answer.errors?.[0]?.extensions.code });

  it('/query itself', async () => {
    const r = await post('/query', { query: TAGS }, admin);
    expect(errorOf(JSON.parse(r.body.toString()))).toEqual(masked);
    expect(r.body.toString()).not.toContain('hunter2');
  });

  it('/jq-query: querySvc in its jq program', async () => {
    const r = await post('/jq-query', { jq: `querySvc(${JSON.stringify(TAGS)}; {}) | .errors[0] | {message, code: .extensions.code}`, query: { query: '{ __typename }' } }, admin);
    expect(JSON.parse(r.body.toString())).toEqual(masked);
  });

  it('the _jq variable of /query', async () => {
    const program = `querySvc(${JSON.stringify(TAGS)}; {}) | {msg: .errors[0].message, code: .errors[0].extensions.code}`;
    const r = await post('/query', { query: 'query ($msg: String, $code: String) { jq(query: "{msg: $msg, code: $code}") { __typename } }', variables: { _jq: program } }, admin);
    const body = JSON.parse(r.body.toString());
    expect(body.errors).toBeUndefined();
    expect(body.extensions.jq.jq).toEqual({ msg: masked.message, code: masked.code });
  });

  it('a jq() field of /query', async () => {
    const program = `querySvc(${JSON.stringify(TAGS)}; {}) | .errors[0] | {message, code: .extensions.code}`;
    const r = await post('/query', { query: `{ jq(query: ${JSON.stringify(program)}) { __typename } }` }, admin);
    const body = JSON.parse(r.body.toString());
    expect(body.errors).toBeUndefined();
    expect(body.extensions.jq.jq).toEqual(masked);
  });
});
