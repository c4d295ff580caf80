// Cluster mode (SPEC §12, issue 22): one management node and two workers, each its own OS process
// on loopback (the compiled server), sharing a throwaway PostgreSQL core database and Redis.
// Timings are shortened (heartbeat and poll 500 ms, ghosts after 4 s) so the test stays bounded.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { type ServerProcess, startServer } from '../support/server.js';

let db: TestDatabase;
let catalogDir: string;
const nodes: Record<string, ServerProcess> = {};
const SECRET = 'cluster-test-secret';
const ADMIN_KEY = 'cluster-test-admin';
const REDIS_PREFIX = `svctest:cluster:${randomBytes(4).toString('hex')}:`;

interface Answer {
  status: number;
  body: { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };
}

async function gql(node: ServerProcess, query: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${node.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(name: string, role: 'management' | 'worker'): Promise<ServerProcess> {
  return startServer({
    CLUSTER_ENABLED: 'true',
    CLUSTER_ROLE: role,
    CLUSTER_NODE_NAME: name,
    CLUSTER_SECRET: SECRET,
    CLUSTER_HEARTBEAT: '500ms',
    CLUSTER_POLL_INTERVAL: '500ms',
    CLUSTER_GHOST_TTL: '4s',
    // Long enough that a loaded CI machine still answers a broadcast (5 s was missed at load 13); the paused-worker
    // test below waits it out once.
    CLUSTER_TIMEOUT: '15s',
    SECRET_KEY: ADMIN_KEY,
    CORE_DB_PATH: db.url,
    CATALOGS_DIR: join(catalogDir, 'none'),
    CATALOG_ALLOWED_PATHS: catalogDir,
    CACHE_L2_ENABLED: 'true',
    CACHE_L2_ADDRESSES: process.env.SVC_TEST_REDIS || '127.0.0.1:6379',
    CACHE_L2_PREFIX: REDIS_PREFIX,
  });
}

const analyst = { 'x-svc-secret-key': ADMIN_KEY, 'x-svc-role': 'analyst' };
const products = (n: ServerProcess, headers: Record<string, string> = {}) => gql(n, '{ shop_products(order_by: [{field: "id"}]) { id name } }', headers);
const clusterOp = (field: string, name: string) => `mutation { function { core { cluster { ${field}(name: "${name}") { success message } } } } }`;
const memberNames = async (n: ServerProcess) => ((await gql(n, '{ core { cluster { nodes { name } } } }')).body.data?.core.cluster.nodes as { name: string }[]).map((x) => x.name).sort();

beforeAll(async () => {
  db = await createTestDatabase('svc_cluster');
  await db.exec(`CREATE SCHEMA shopdata; CREATE TABLE shopdata.products (id int PRIMARY KEY, name text); INSERT INTO shopdata.products VALUES (1, 'anvil'), (2, 'bucket');`);
  catalogDir = mkdtempSync(join(tmpdir(), 'svc-cluster-'));
  writeFileSync(join(catalogDir, 'schema.graphql'), 'type products @table(name: "shopdata.products") {\n  id: Int! @pk\n  name: String\n}\n');
  nodes.m = await start('m', 'management');
  [nodes.w1, nodes.w2] = await Promise.all([start('w1', 'worker'), start('w2', 'worker')]);
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(nodes).map((n) => n.stop('SIGKILL')));
  await db?.drop();
});

describe('cluster mode', () => {
  it('refuses to start without a PostgreSQL core database or a cluster secret', () => {
    const refuse = (env: Record<string, string>) => {
      try {
        loadConfig({ env: { CLUSTER_ENABLED: 'true', ...env }, argv: [], cwd: tmpdir() });
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refuse({ CORE_DB_PATH: 'data/core.duckdb', CLUSTER_SECRET: 's' })).toMatch(/needs a PostgreSQL core database/);
    expect(refuse({ CORE_DB_PATH: 'postgres://x@h/db' })).toMatch(/needs CLUSTER_SECRET/);
    expect(refuse({ CORE_DB_PATH: 'postgres://x@h/db', CLUSTER_SECRET: 's', CLUSTER_ROLE: 'boss' })).toMatch(/CLUSTER_ROLE/);
  });

  it('registers every node; each knows its role and the management node', async () => {
    await waitFor('three nodes registered', async () => (await memberNames(nodes.m!)).join() === 'm,w1,w2');
    const r = await gql(nodes.w1!, '{ function { core { cluster { schema_version my_role management_url } info { cluster_mode node_role node_name } } } }');
    expect(r.body.data?.function.core.cluster).toMatchObject({ my_role: 'worker', management_url: nodes.m!.url });
    expect(r.body.data?.function.core.info).toEqual({ cluster_mode: true, node_role: 'worker', node_name: 'w1' });
  });

  it('refuses the internal mutations without the cluster secret (401/403)', async () => {
    const call = 'mutation { function { core { cluster { handle_cache_invalidate { success } } } } }';
    const none = await gql(nodes.w1!, call);
    expect(none.status).toBe(401);
    expect(none.body.errors?.[0]?.message).toMatch(/needs the cluster secret/);
    // Sent again, the operation is a prepared one (the fast path): still 401 (issue 31).
    for (let i = 0; i < 2; i++) expect((await gql(nodes.w1!, call)).status).toBe(401);
    expect((await gql(nodes.w1!, call, { 'x-svc-secret-key': ADMIN_KEY })).status).toBe(403);
    expect((await gql(nodes.w1!, call, { 'x-svc-cluster-secret': 'wrong' })).status).toBe(401);
    const ok = await gql(nodes.w1!, call, { 'x-svc-cluster-secret': SECRET });
    expect(ok.body.data?.function.core.cluster.handle_cache_invalidate).toEqual({ success: true });
  });

  it('loads a source registered through a worker on every node; a write on one is read on all', async () => {
    const reg = await gql(nodes.w1!, `mutation { core { insert_data_sources(data: {name: "shop", type: "postgres", prefix: "shop", path: "${db.url}",
      catalogs: [{name: "shop_files", type: "localFS", path: "${catalogDir}"}]}) { name } } }`);
    expect(reg.body.errors).toBeUndefined();
    // Sent to a worker, forwarded to management, broadcast to both workers.
    const load = await gql(nodes.w1!, clusterOp('load_source', 'shop'));
    expect(load.body.data?.function.core.cluster.load_source).toEqual({ success: true, message: 'data source "shop" loaded on 3 of 3 nodes: m ok; w1 ok; w2 ok' });
    for (const n of Object.values(nodes)) expect((await products(n)).body.data?.shop_products).toEqual([{ id: 1, name: 'anvil' }, { id: 2, name: 'bucket' }]);
    expect((await gql(nodes.w2!, 'mutation { insert_shop_products(data: {id: 3, name: "crate"}) { id } }')).body.errors).toBeUndefined();
    for (const n of [nodes.m!, nodes.w1!]) expect((await products(n)).body.data?.shop_products).toHaveLength(3);
  });

  it('applies a permission change on every node at once, and a killed worker rejoins and converges', async () => {
    expect((await gql(nodes.m!, 'mutation { core { insert_roles(data: {name: "analyst", description: "reads"}) { name } } }')).body.errors).toBeUndefined();
    // Every node has now cached the analyst's (empty) permissions.
    for (const n of Object.values(nodes)) expect((await products(n, analyst)).body.data?.shop_products).toHaveLength(3);

    await nodes.w2!.stop('SIGKILL');
    await waitFor('management removes the silent worker', async () => (await memberNames(nodes.m!)).join() === 'm,w1');

    const deny = await gql(nodes.w1!, 'mutation { core { insert_role_permissions(data: {role: "analyst", type_name: "Query", field_name: "shop_products", disabled: true}) { role } } }');
    expect(deny.body.errors).toBeUndefined();
    for (const n of [nodes.m!, nodes.w1!]) {
      await waitFor('the permission applies', async () => (await products(n, analyst)).body.errors?.[0]?.message === 'forbidden', 15_000);
    }
    // A second source while w2 is away.
    await gql(nodes.m!, `mutation { core { insert_data_sources(data: {name: "shop2", type: "postgres", prefix: "shop2", path: "${db.url}", catalogs: [{name: "shop2_files", type: "localFS", path: "${catalogDir}"}]}) { name } } }`);
    const load2 = await gql(nodes.m!, clusterOp('load_source', 'shop2'));
    expect(load2.body.data?.function.core.cluster.load_source.message).toBe('data source "shop2" loaded on 2 of 2 nodes: m ok; w1 ok');

    nodes.w2 = await start('w2', 'worker');
    await waitFor('w2 registered again', async () => (await memberNames(nodes.m!)).join() === 'm,w1,w2');
    expect((await gql(nodes.w2!, '{ shop2_products { id } }')).body.data?.shop2_products).toHaveLength(3);
    expect((await products(nodes.w2!, analyst)).body.errors?.[0]?.message).toBe('forbidden');
  });

  it('a worker that missed a broadcast (paused) catches up at its next poll', { timeout: 60_000 }, async () => {
    const w1 = nodes.w1!;
    w1.child.kill('SIGSTOP');
    try {
      const r = await gql(nodes.m!, clusterOp('unload_source', 'shop2'));
      const { success, message } = r.body.data?.function.core.cluster.unload_source as { success: boolean; message: string };
      expect(success).toBe(true);
      expect(message).toMatch(/^data source "shop2" unloaded on 2 of 3 nodes: m ok; w1 failed: no answer within 15000 ms; w2 ok/);
    } finally {
      w1.child.kill('SIGCONT');
    }
    await waitFor('w1 stops serving shop2', async () => (await gql(w1, '{ shop2_products { id } }')).body.errors?.[0]?.message.startsWith('Cannot query field') ?? false);
    expect((await products(w1)).body.data?.shop_products).toHaveLength(3);
  });

  it('forwards invalidate_cache and summarises per node', async () => {
    const r = await gql(nodes.w2!, 'mutation { function { core { cluster { invalidate_cache(catalog: "shop") { success message } } } } }');
    expect(r.body.data?.function.core.cluster.invalidate_cache.message).toMatch(/^schema cache of catalog "shop" invalidated on 3 of 3 nodes: m ok; w1 ok; w2 ok$/);
  });
});
