// The /ipc WebSocket (SPEC §13, subprotocol svc-ipc-ws): query, cancel, subscribe, Arrow frames back.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let t: TestApp;
let url: string;
let pgdb: TestDatabase;

type Message = Record<string, any>;

/** A connected client that keeps every message; binary frames are kept as Buffers. */
async function open(protocol = 'svc-ipc-ws') {
  const ws = new WebSocket(url, protocol ? [protocol] : []);
  const messages: (Message | Buffer)[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data, binary) => {
    messages.push(binary ? Buffer.from(data as Buffer) : (JSON.parse(data.toString()) as Message));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number }>((done) => ws.on('close', (code) => done({ code })));
  await new Promise((done, fail) => (ws.on('open', done), ws.on('error', fail)));
  const until = async (test: (m: Message) => boolean, ms = 20_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = messages.find((m) => !Buffer.isBuffer(m) && test(m));
      if (found) return found as Message;
      if (Date.now() > deadline) throw new Error(`no such message; got ${JSON.stringify(messages.filter((m) => !Buffer.isBuffer(m)))}`);
      await new Promise<void>((r) => (waiters.push(r), setTimeout(r, 200)));
    }
  };
  return { ws, messages, closed, until, send: (m: Message) => ws.send(JSON.stringify(m)) };
}

/** The Arrow stream of the table part at `path` of answer `id`: the binary frames between table and table_end. */
function tableOf(messages: (Message | Buffer)[], id: string, path: string, nth = 0) {
  let seen = -1;
  let inside = false;
  const frames: Buffer[] = [];
  for (const m of messages) {
    if (Buffer.isBuffer(m)) {
      if (inside) frames.push(m);
    } else if (m.id === id && m.type === 'table' && m.path === path) inside = ++seen === nth;
    else if (m.id === id && m.type === 'table_end' && inside) break;
  }
  return tableFromIPC(Buffer.concat(frames));
}

beforeAll(async () => {
  pgdb = await createTestDatabase('svc_ipcws');
  await pgdb.exec(`CREATE TABLE points (id int PRIMARY KEY, label text); INSERT INTO points SELECT g, 'p' || g FROM generate_series(1, 300000) g;`);
  const dir = mkdtempSync(join(tmpdir(), 'svc-ipcws-'));
  writeFileSync(join(dir, 'schema.graphql'), 'type points @table(name: "points") {\n  id: Int! @pk\n  label: String\n}\n');
  // The cancelled stream must still be running when cancelled: anonymous callers' row limit would end it at 10,001 rows.
  t = await startApp({ CATALOG_ALLOWED_PATHS: dir, ANONYMOUS_MAX_RESPONSE_ROWS: '0' });
  await t.gql(`mutation { core { insert_data_sources(data: {name: "pts", type: "postgres", prefix: "pts", path: "${pgdb.url}", catalogs: [{name: "pts_files", type: "localFS", path: "${dir}"}]}) { name } } }`);
  await t.gql('mutation { function { core { load_data_source(name: "pts") { success } } } }');
  await t.app.listen(0, '127.0.0.1');
  url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1').replace(/^http/, 'ws') + '/ipc';
}, 60_000);

afterAll(async () => {
  await t?.close();
  await pgdb?.drop();
});

describe('/ipc WebSocket', () => {
  it('answers a query with Arrow frames equal to /query, objects as data messages, then complete', async () => {
    const c = await open();
    c.send({ type: 'connection_init', payload: {} });
    await c.until((m) => m.type === 'connection_ack');
    const query = '{ shop_customers(order_by: [{field: "id"}]) { id name } shop_products_by_pk(id: 1) { name } }';
    c.send({ type: 'query', id: 'q1', query });
    await c.until((m) => m.type === 'complete' && m.id === 'q1');
    const json = (await t.gql(query)).body.data;
    expect(tableOf(c.messages, 'q1', 'data.shop_customers').toArray().map((r) => r.toJSON())).toEqual(json.shop_customers);
    expect(await c.until((m) => m.type === 'data' && m.id === 'q1')).toMatchObject({ path: 'data.shop_products_by_pk', format: 'object', data: json.shop_products_by_pk });
    expect(await c.until((m) => m.type === 'extensions' && m.id === 'q1')).toMatchObject({ data: {} });
    c.ws.close();
  });

  it('cancel stops a running stream; the connection goes on serving', async () => {
    const c = await open();
    c.send({ type: 'query', id: 'big', query: '{ pts_points(order_by: [{field: "id"}], limit: 300000) { id label } }' });
    await c.until((m) => m.type === 'table' && m.id === 'big');
    c.send({ type: 'cancel', id: 'big' });
    c.send({ type: 'query', id: 'next', query: '{ pts_points(limit: 3) { id } }' });
    await c.until((m) => m.type === 'complete' && m.id === 'next');
    expect(c.messages.some((m) => !Buffer.isBuffer(m) && m.type === 'complete' && m.id === 'big')).toBe(false);
    // Far fewer than 300000 rows went out before the cancel took effect.
    const frames = c.messages.filter((m) => Buffer.isBuffer(m)) as Buffer[];
    expect(frames.reduce((n, f) => n + f.length, 0)).toBeLessThan(300000 * 10);
    // No statement of the cancelled stream is left running on the database.
    const probe = new pg.Client({ connectionString: pgdb.url });
    await probe.connect();
    try {
      const active = await probe.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()`);
      expect(active.rows[0].n).toBe(0);
    } finally {
      await probe.end();
    }
    c.ws.close();
  });

  it('subscribe re-runs the query each interval and completes after count; errors are messages', async () => {
    const c = await open();
    c.send({ type: 'subscribe', id: 's', query: '{ pts_points(limit: 2) { id } }', interval: '1s', count: 2 });
    await c.until((m) => m.type === 'complete' && m.id === 's');
    expect(c.messages.filter((m) => !Buffer.isBuffer(m) && m.type === 'extensions' && m.id === 's')).toHaveLength(2);
    expect(tableOf(c.messages, 's', 'data.pts_points', 1).numRows).toBe(2);
    c.send({ type: 'query', id: 'bad', query: '{ nothing }' });
    expect((await c.until((m) => m.type === 'error' && m.id === 'bad')).errors[0].message).toMatch(/Cannot query field "nothing"/);
    c.ws.close();
  });

  it('closes a connection without the svc-ipc-ws subprotocol', async () => {
    const c = await open('');
    expect((await c.closed).code).toBe(1002);
  });
});
