// Issue 21: the request log line, error ids, /health and /ready, Prometheus metrics, and a stop on
// SIGTERM that lets requests in flight finish. The compiled server runs in its own process on
// loopback, with PostgreSQL as its core database and a source whose function fails or sleeps.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, PG_URL, type TestDatabase } from '../support/pg.js';
import { type ServerProcess, startServer } from '../support/server.js';

const SECRET = 'the-secret-key-4711';

async function post(s: ServerProcess, body: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(`${s.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, headers: r.headers, body: (await r.json()) as any };
}

function requestLine(s: ServerProcess, id: string): Promise<Record<string, unknown>> {
  return s.waitForLine((l) => l.includes(`"request_id":"${id}"`) && l.includes('"msg":"request"'), `the log line of ${id}`).then((l) => JSON.parse(l));
}

describe('on the embedded DuckDB', () => {
  let s: ServerProcess;
  beforeAll(async () => {
    s = await startServer({ SECRET_KEY: SECRET, CACHE_L1_ENABLED: 'true', JQ_TIMEOUT: '1s' });
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('logs one line per request with its fields, and never the variables or credentials', async () => {
    const r = await post(
      s,
      { query: 'query Tags($n: Int) { shop_tags(limit: $n) { id } }', variables: { n: 2, note: 'hunter2-in-a-variable' } },
      { 'x-request-id': 'req-42', 'x-svc-secret-key': SECRET },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe('req-42');
    const line = await requestLine(s, 'req-42');
    expect(line).toMatchObject({ level: 30, method: 'POST', path: '/query', status: 200, role: 'admin', operation: 'Tags', statements: 1, cache_hit: false });
    expect(line.duration_ms).toEqual(expect.any(Number));

    const get = await fetch(`${s.url}/query?query=${encodeURIComponent('{ shop_tags(limit: 1) { id } }')}&variables=${encodeURIComponent('{"token":"hunter2-in-the-url"}')}`, {
      headers: { 'x-request-id': 'req-43', authorization: `Bearer ${SECRET}` },
    });
    expect(get.status).toBe(401);
    expect(await requestLine(s, 'req-43')).toMatchObject({ method: 'GET', path: '/query', status: 401, statements: 0 });

    const everything = s.lines.join('\n');
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain(SECRET);
  });

  it('says when the result cache answered', async () => {
    const q = { query: '{ shop_tags @cache(ttl: 60) { id name } }' };
    await post(s, q, { 'x-request-id': 'cache-1' });
    await post(s, q, { 'x-request-id': 'cache-2' });
    expect(await requestLine(s, 'cache-1')).toMatchObject({ cache_hit: false, statements: 1 });
    expect(await requestLine(s, 'cache-2')).toMatchObject({ cache_hit: true, statements: 0 });
  });

  it('makes its own request id when the given one is not a plain token', async () => {
    const r = await post(s, { query: '{ __typename }' }, { 'x-request-id': 'evil", "level": 60' });
    const id = r.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await requestLine(s, id)).toMatchObject({ status: 200 });
  });

  it('/health is 200 while the process runs; /ready is 200 with every source loaded', async () => {
    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const ready = await fetch(`${s.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', core: 'ok', sources: { shop: 'loaded' } });
  });

  it('exports HTTP, statement, pool, schema, jq and authentication metrics', async () => {
    await post(s, { query: '{ __typename }' }, { authorization: 'Bearer not-a-key' });
    const jq = await fetch(`${s.url}/jq-query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jq: '.data.shop_tags | length', query: { query: '{ shop_tags { id } }' } }) });
    expect(jq.status).toBe(200);
    const slow = await fetch(`${s.url}/jq-query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jq: 'last(range(1e12))', query: { query: '{ __typename }' } }) });
    expect(slow.status).toBe(500);
    const text = await (await fetch(`${s.url}/metrics`)).text();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}[\]()*+?.\\^$|]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('svc_http_request_duration_seconds_count{method="POST",route="/query",status_class="2xx"}')).toBeGreaterThanOrEqual(3);
    expect(value('svc_http_request_duration_seconds_count{method="GET",route="/query",status_class="4xx"}')).toBe(1);
    expect(value('svc_statement_duration_seconds_count{source="shop"}')).toBeGreaterThanOrEqual(3);
    expect(value('svc_pool_connections{pool="duckdb",state="in_use"}')).toBe(0);
    expect(value('svc_pool_connections{pool="duckdb",state="idle"}')).toBeGreaterThanOrEqual(1);
    expect(value('svc_pool_waiting{pool="duckdb"}')).toBe(0);
    expect(value('svc_schema_rebuilds_total')).toBeGreaterThanOrEqual(2);
    expect(value('svc_jq_runs_total{outcome="ok"}')).toBe(1);
    expect(value('svc_jq_runs_total{outcome="timeout"}')).toBe(1);
    expect(value('svc_jq_duration_seconds_count')).toBe(2);
    expect(value('svc_auth_failures_total{reason="invalid_credentials"}')).toBe(2);
  });
});

describe('with PostgreSQL as core database and source', () => {
  let db: TestDatabase;
  let s: ServerProcess;
  beforeAll(async () => {
    db = await createTestDatabase('svc_ops');
    await db.exec(`
      CREATE TABLE notes (id int PRIMARY KEY, body text);
      CREATE FUNCTION explode() RETURNS text LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom in the database'; END $$;
      CREATE FUNCTION sleepy(seconds float) RETURNS int LANGUAGE sql AS $$ SELECT 1 FROM pg_sleep(seconds) $$;
    `);
    const catalogs = mkdtempSync(join(tmpdir(), 'svc-ops-catalogs-'));
    mkdirSync(join(catalogs, 'ops'));
    writeFileSync(join(catalogs, 'ops', 'source.yaml'), `type: postgres\npath: ${db.url}\nprefix: ops\n`);
    writeFileSync(join(catalogs, 'ops', 'schema.graphql'), `type notes @table(name: "notes") { id: Int! @pk body: String }
extend type Function {
  explode: String @function(name: "explode")
  sleepy(seconds: Float!): Int @function(name: "sleepy")
}\n`);
    const gone = new URL(db.url);
    gone.pathname = `/${db.name}_missing`;
    mkdirSync(join(catalogs, 'gone'));
    writeFileSync(join(catalogs, 'gone', 'source.yaml'), `type: postgres\npath: ${gone}\nprefix: gone\n`);
    writeFileSync(join(catalogs, 'gone', 'schema.graphql'), 'type things @table(name: "things") { id: Int! @pk }\n');
    s = await startServer({ CORE_DB_PATH: db.url, CATALOGS_DIR: catalogs });
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await db?.drop();
  });

  it('an internal error carries the request id of its log line', async () => {
    const r = await post(s, { query: '{ function { ops_explode } }' }, { 'x-request-id': 'boom-1' });
    expect(r.status).toBe(200);
    expect(r.body.errors[0]).toMatchObject({ message: expect.stringMatching(/internal error/), extensions: { code: 'INTERNAL_SERVER_ERROR', request_id: 'boom-1' } });
    const logged = await s.waitForLine((l) => l.includes('"level":50') && l.includes('boom in the database'), 'the error line');
    expect(JSON.parse(logged)).toMatchObject({ request_id: 'boom-1', msg: 'query failed' });
  });

  // A repeated query is answered by the prepared fast path, which runs outside the request's
  // AsyncLocalStorage (issue 30): its statement's error line and its answer still name the request.
  it('a prepared read whose statement fails names its request id in the answer and in the log lines', async () => {
    const query = '{ ops_notes { id body } }';
    for (const id of ['prep-1', 'prep-2']) expect((await post(s, { query }, { 'x-request-id': id })).body).toEqual({ data: { ops_notes: [] }, extensions: {} });
    // The Apollo path (first) and the prepared path (second) fill the request line alike.
    const first = await requestLine(s, 'prep-1');
    expect(first).toMatchObject({ status: 200, statements: 1, role: expect.any(String) });
    expect(await requestLine(s, 'prep-2')).toMatchObject({ status: 200, statements: 1, role: first.role });
    await db.exec('ALTER TABLE notes RENAME COLUMN body TO body_gone');
    try {
      const r = await post(s, { query }, { 'x-request-id': 'prep-3' });
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'CATALOG_INVALID', request_id: 'prep-3' });
      const logged = await s.waitForLine((l) => l.includes('"msg":"database error"') && l.includes('"prep-3"'), 'the database error line of prep-3');
      expect(JSON.parse(logged)).toMatchObject({ request_id: 'prep-3', source: 'ops', reason: 'catalog_mismatch' });
      expect(await requestLine(s, 'prep-3')).toMatchObject({ statements: 1, role: first.role, error_codes: ['CATALOG_INVALID'] });
    } finally {
      await db.exec('ALTER TABLE notes RENAME COLUMN body_gone TO body');
    }
  });

  it('/ready lists a source that failed to load and is 503 while it is not loaded (issue 29)', async () => {
    const r = await fetch(`${s.url}/ready`);
    expect(r.status).toBe(503);
    const body = (await r.json()) as any;
    expect(body).toMatchObject({ status: 'not_ready', core: 'ok', sources: { ops: 'loaded' } });
    expect(body.sources.gone).toMatch(/^failed: .*unreachable/);
    expect(await (await fetch(`${s.url}/metrics`)).text()).toMatch(/^svc_pool_connections\{pool="ops",state="idle"\} \d+$/m);
  });

  it('/ready is 503 while the core database does not answer, /health stays 200', async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [db.name]);
      const down = await fetch(`${s.url}/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: 'not_ready', core: expect.stringMatching(/^unreachable: /) });
      expect((await fetch(`${s.url}/health`)).status).toBe(200);
    } finally {
      await admin.query(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    // The core answers again; the instance stays unready only for the source "gone", which never loaded.
    const up = await fetch(`${s.url}/ready`);
    expect(await up.json()).toMatchObject({ status: 'not_ready', core: 'ok', sources: { ops: 'loaded', gone: expect.stringMatching(/^failed: /) } });
  });

  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const inFlight = post(s, { query: '{ function { ops_sleepy(seconds: 1.5) } }' }, { 'x-request-id': 'slow-1' });
    // Wait until the statement is running in PostgreSQL, then ask the server to stop.
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      for (let i = 0; i < 200; i++) {
        const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%sleepy%' AND state = 'active'", [db.name]);
        if (rows.length) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await admin.end();
    }
    const code = s.stop('SIGTERM');
    const r = await inFlight.catch((e: Error) => {
      throw new Error(`${e.message}\n${s.lines.join('\n')}`);
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ function: { ops_sleepy: 1 } });
    expect(await code).toBe(0);
    expect(s.lines.some((l) => l.includes('"msg":"svc stopped"'))).toBe(true);
  });
});

describe('SHUTDOWN_DELAY', () => {
  it('keeps serving with /ready at 503 after SIGTERM, then exits 0', async () => {
    const s = await startServer({ SHUTDOWN_DELAY: '3s' });
    expect((await fetch(`${s.url}/ready`)).status).toBe(200);
    s.child.kill('SIGTERM');
    await s.waitForLine((l) => l.includes('serving on for SHUTDOWN_DELAY'), 'the drain line');
    const ready = await fetch(`${s.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'stopping' });
    expect((await post(s, { query: '{ shop_tags(limit: 1) { id } }' })).body.data).toEqual({ shop_tags: [{ id: 1 }] });
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe('LOG_FORMAT=pretty', () => {
  it('writes one readable line per entry, with the fields after the message', async () => {
    const { PassThrough } = await import('node:stream');
    const { createLogger } = await import('../../src/shared/logger.js');
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const log = createLogger('info', 'pretty', out);
    log.info({ request_id: 'r-1', status: 200 }, 'request');
    log.debug('not at info level');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request \{"request_id":"r-1","status":200\}$/);
  });
});
