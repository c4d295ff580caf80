// A PostgreSQL source losing its connections (SPEC §3.1): the query that was running gets a clear
// error, the next one runs on a fresh connection, and the other sources keep serving.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PostgresSource } from '../../src/sources/postgres/source.js';
import { startApp, type TestApp } from '../support/app.js';
import { createTestDatabase, PG_URL, type TestDatabase } from '../support/pg.js';
import { catalogDir, data, registerSource } from './support.js';

const SDL = `
type items @table(name: "items") {
  id: Int! @pk
  name: String
}
type slow @view(name: "slow", sql: "SELECT 1 AS id, pg_sleep(5)::text AS z") {
  id: Int
}
`;

/** A TCP relay to the PostgreSQL server that can be cut and restored (a server going down). */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async start(port = 0): Promise<void> {
    const target = new URL(PG_URL);
    this.server = createServer((client) => {
      const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

let db: TestDatabase;
let t: TestApp;
const relay = new Relay();

const urlVia = (port: number): string => {
  const u = new URL(db.url);
  u.port = String(port);
  return u.toString();
};

async function admin(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

/** Terminates every session of the test database but the caller's, and waits until they are gone. */
async function killSessions(): Promise<number> {
  const r = await admin('SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name]);
  for (let i = 0; i < 50; i++) {
    const left = await admin('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [db.name]);
    if (left.rows[0].n === 0) break;
    await new Promise((res) => setTimeout(res, 20));
  }
  await new Promise((res) => setTimeout(res, 50));
  return r.rows[0].n as number;
}

beforeAll(async () => {
  db = await createTestDatabase('svc_resil');
  await db.exec("CREATE TABLE items (id integer PRIMARY KEY, name text); INSERT INTO items VALUES (1, 'one'), (2, 'two');");
  await relay.start();
  t = await startApp();
  const catalog = catalogDir(SDL);
  expect((await registerSource(t, { name: 'direct', path: db.url, catalog, prefix: 'direct' })).success).toBe(true);
  expect((await registerSource(t, { name: 'relayed', path: urlVia(relay.port), catalog, prefix: 'relayed' })).success).toBe(true);
});

afterAll(async () => {
  await t?.close();
  await relay.stop();
  await db?.drop();
});

describe('connections killed by the server', () => {
  it('fails the running query with a clear error and serves the next one', async () => {
    const running = t.gql('{ direct_slow { id } }');
    // Wait until the statement runs, then terminate every session of the database.
    for (let i = 0; i < 100; i++) {
      const r = await admin("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%pg_sleep%' AND state = 'active'", [db.name]);
      if (r.rows[0].n > 0) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(await killSessions()).toBeGreaterThan(0);
    const r = await running;
    expect(r.status).toBe(200);
    expect(r.body.errors[0].message).toBe('data source "direct" is unavailable');
    expect(r.body.errors[0].extensions.code).not.toBe('INTERNAL');
    expect((await data(t, '{ direct_items(order_by: [{field: "id"}]) { id name } }')).direct_items).toEqual([{ id: 1, name: 'one' }, { id: 2, name: 'two' }]);
  });

  it('drops idle pooled connections the server closed', async () => {
    // Several idle connections in the pool, all terminated while idle.
    await Promise.all(Array.from({ length: 4 }, () => data(t, '{ direct_items { id } }')));
    expect(await killSessions()).toBeGreaterThan(0);
    for (let i = 0; i < 6; i++) expect((await data(t, '{ direct_items_by_pk(id: 2) { name } }')).direct_items_by_pk).toEqual({ name: 'two' });
  });

  it('runs writes again after the server closed the connections', async () => {
    await killSessions();
    const r = await t.gql('mutation { insert_direct_items(data: {id: 3, name: "three"}) { id name } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.insert_direct_items).toEqual({ id: 3, name: 'three' });
    await t.gql('mutation { delete_direct_items(filter: {id: {eq: 3}}) { affected_rows } }');
  });
});

describe('a server that goes down', () => {
  it('reports the outage to queries of that source only, and recovers when the server is back', async () => {
    expect((await data(t, '{ relayed_items_by_pk(id: 1) { name } }')).relayed_items_by_pk).toEqual({ name: 'one' });
    const port = relay.port;
    await relay.stop();

    const down = await t.gql('{ relayed_items { id } }');
    expect(down.status).toBe(200);
    expect(down.body.errors[0].message).toBe('data source "relayed" is unavailable');
    // Other sources keep serving: the same database directly, and the DuckDB example shop.
    expect((await data(t, '{ direct_items_by_pk(id: 1) { name } shop_tags(limit: 1) { id } }')).direct_items_by_pk).toEqual({ name: 'one' });
    const source = t.runtime.registry.get('relayed')!.runtime as PostgresSource;
    expect(await source.ping()).toMatch(/^data source "relayed" is unreachable: .*ECONNREFUSED/);

    await relay.start(port);
    expect(await source.ping()).toBeUndefined();
    expect((await data(t, '{ relayed_items_by_pk(id: 2) { name } }')).relayed_items_by_pk).toEqual({ name: 'two' });
  });

  it('reports a source whose server is down at load time and keeps serving the others', async () => {
    const closed = new Relay();
    await closed.start();
    const port = closed.port;
    await closed.stop();
    const load = await registerSource(t, { name: 'gone', path: urlVia(port), catalog: catalogDir(SDL), prefix: 'gone' });
    expect(load.success).toBe(false);
    expect(load.message).toMatch(/^data source "gone" \(postgres:\/\/postgres@127\.0\.0\.1:\d+\/svc_resil_\w+\) is unreachable: .*ECONNREFUSED/);
    const status = await t.gql('{ function { core { data_source_status(name: "gone") } } }');
    expect(status.body.data.function.core.data_source_status).toMatch(/^failed: data source "gone" .* is unreachable/);
    expect((await data(t, '{ direct_items_by_pk(id: 1) { name } }')).direct_items_by_pk).toEqual({ name: 'one' });
  });
});
