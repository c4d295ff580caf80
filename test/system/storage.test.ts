// core.storage (seed 001) over HTTP on both kinds of core database, against an S3-compatible server
// (s3rver) on loopback: registering storages (the secret never read back), ls of storage URLs and
// local paths, DuckDB sources reading CSV, JSON and Parquet files of a registered storage.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, tempDir, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

const kinds = ['duckdb', 'postgres'] as const;
const SECRET = 'Sup3rSecretStorageValue-do-not-show';
// s3rver knows one access key id; it does not check the secret's signature.
const KEY_ID = 'S3RVER';
const ADMIN = { 'x-svc-secret-key': 'k' };
const PUBLIC = { 'x-svc-secret-key': 'k', 'x-svc-role': 'public' };

let server: S3rver;
let s3: S3Client;
let endpoint: string;

async function put(key: string, body: string | Buffer, bucket = 'lake'): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

/** A Parquet file written by DuckDB itself (the engine reads it back through the source). */
async function parquet(dir: string): Promise<Buffer> {
  const file = join(dir, 'items.parquet');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT i AS id, 'item ' || i AS name, i * 1.5 AS price FROM range(1, 101) t(i)) TO '${file}' (FORMAT parquet)`);
  c.closeSync();
  return readFileSync(file);
}

/** A DuckDB database file with one table. */
async function duckdbFile(dir: string): Promise<Buffer> {
  const file = join(dir, 'stations.duckdb');
  const db = await DuckDBInstance.create(file);
  const c = await db.connect();
  await c.run(`CREATE TABLE stations AS SELECT i AS id, 'station ' || i AS name FROM range(1, 6) t(i)`);
  await c.run('CHECKPOINT');
  c.closeSync();
  db.closeSync();
  return readFileSync(file);
}

beforeAll(async () => {
  const dir = tempDir();
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3') });
  const { port } = (await server.run()) as unknown as { port: number };
  endpoint = `127.0.0.1:${port}`;
  s3 = new S3Client({ endpoint: `http://${endpoint}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET } });
  await s3.send(new CreateBucketCommand({ Bucket: 'lake' }));
  await s3.send(new CreateBucketCommand({ Bucket: 'other' }));
  await put('sales/2024.csv', 'id,amount\n1,10.5\n2,20\n');
  await put('sales/2025.csv', 'id,amount\n3,30\n');
  await put('sales/notes.txt', 'not a csv');
  await put('people.json', JSON.stringify([{ name: 'Ann', age: 31 }, { name: 'Bob', age: 42 }]));
  await put('items.parquet', await parquet(dir));
  await put('db/stations.duckdb', await duckdbFile(dir));
  await put('secret.txt', 'in other', 'other');
}, 60_000);
afterAll(async () => {
  s3?.destroy();
  await server?.close();
});

describe.each(kinds)('core.storage on a %s core database', (kind) => {
  let t: TestApp;
  let db: TestDatabase | undefined;
  const dir = tempDir();
  const local = join(dir, 'files');
  const ok = (r: { body: { errors?: unknown } }) => expect(r.body.errors).toBeUndefined();
  const gql = (q: string, v?: Record<string, unknown>, h: Record<string, string> = ADMIN) => t.gql(q, v, h);
  const register = (args: Record<string, unknown>, h?: Record<string, string>) =>
    gql(`mutation($a: String!, $n: String!, $s: String!, $k: String!, $x: String!, $e: String!, $ssl: Boolean!, $u: String!) { function { core { storage {
      register_object_storage(type: $a, name: $n, scope: $s, key: $k, secret: $x, endpoint: $e, use_ssl: $ssl, url_style: $u) { success message affected_rows } } } } }`,
    { a: 's3', n: 'lake', s: 'lake', k: KEY_ID, x: SECRET, e: endpoint, ssl: false, u: 'path', ...args }, h);
  const ls = async (path: string, fields = 'name size') => gql(`query($p: String!) { core { storage { ls(path: $p) { ${fields} } } } }`, { p: path });

  beforeAll(async () => {
    if (kind === 'postgres') db = await createTestDatabase('svc_storage');
    mkdirSync(join(local, 'sub'), { recursive: true });
    writeFileSync(join(local, 'a.txt'), 'alpha');
    writeFileSync(join(local, 'b.txt'), 'beta');
    writeFileSync(join(local, 'sub', 'c.txt'), 'gamma');
    // A link out of the allowed directory is not a way out of it.
    symlinkSync('/etc', join(local, 'etc'));
    t = await startApp({ SVC_TEST_DIR: dir, SECRET_KEY: 'k', ANONYMOUS_ROLE: 'public', STORAGE_LOCAL_PATHS: local, ...(db ? { CORE_DB_PATH: db.url } : {}) });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await db?.drop();
  });

  it('registers a storage and shows it without its credentials', async () => {
    const r = await register({});
    ok(r);
    expect(r.body.data.function.core.storage.register_object_storage).toEqual({ success: true, affected_rows: 1, message: 'object storage "lake" registered for s3://lake' });
    // Registering again under the same name replaces it (seed 001).
    ok(await register({}));
    const list = await gql('{ core { storage { registered_object_storages { name type scope parameters } } } }');
    ok(list);
    const [row] = list.body.data.core.storage.registered_object_storages;
    expect(row).toMatchObject({ name: 'lake', type: 's3', scope: ['s3://lake'] });
    expect(JSON.parse(row.parameters)).toEqual({ endpoint, region: '', use_ssl: false, url_style: 'path', url_compatibility: false, kms_key_id: '', account_id: '', key_id: '***' });
    // Stored in the core database, as other credentials are; read back by no GraphQL field.
    const stored = await t.runtime.core.runtime.rows(`SELECT secret FROM ${t.runtime.core.t('_object_storages')}`, []);
    expect(stored).toEqual([{ secret: SECRET }]);
    const everywhere = await gql(`{ __schema { types { name fields { name } } }
      core { storage { registered_object_storages { name type scope parameters } }
        meta { settings(limit: 100000) { name value } secrets { name scope } } } }`);
    ok(everywhere);
    expect(everywhere.text).not.toContain(SECRET);
    expect(everywhere.text).not.toMatch(/"core__object_storages|"name":"secret"/);
  });

  it('names what is wrong with a registration, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ a: 'ftp' }, 'storage type must be one of s3, r2, gcs (all reached through the S3 API), not "ftp"'],
      [{ n: 'bad name' }, 'invalid storage name "bad name": letters, digits, _ and -, starting with a letter or _'],
      [{ u: 'sideways' }, 'url_style must be path or vhost, not "sideways"'],
      [{ s: 'gcs://lake' }, 'scope "gcs://lake" does not start with s3://'],
      [{ e: '' }, 'endpoint is required (host[:port], e.g. s3.amazonaws.com)'],
      [{ x: '' }, 'key and secret are required'],
    ];
    for (const [args, message] of cases) {
      const r = await register({ n: 'broken', ...args });
      expect(r.body.errors?.[0], message).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
      expect(r.text).not.toContain(SECRET);
    }
    const list = await gql('{ core { storage { registered_object_storages { name } } } }');
    expect(list.body.data.core.storage.registered_object_storages).toEqual([{ name: 'lake' }]);
  });

  it('lists files of a storage: a glob, a directory, a file, with content on request', async () => {
    const glob = await ls('s3://lake/sales/*.csv', 'name size content last_modified');
    ok(glob);
    const files = glob.body.data.core.storage.ls;
    expect(files.map((f: { name: string }) => f.name)).toEqual(['s3://lake/sales/2024.csv', 's3://lake/sales/2025.csv']);
    expect(files[0]).toMatchObject({ size: 22, content: 'id,amount\n1,10.5\n2,20\n' });
    expect(Date.parse(files[0].last_modified)).toBeGreaterThan(Date.now() - 3_600_000);
    const directory = await ls('s3://lake/sales');
    expect(directory.body.data.core.storage.ls.map((f: { name: string }) => f.name)).toEqual(['s3://lake/sales/2024.csv', 's3://lake/sales/2025.csv', 's3://lake/sales/notes.txt']);
    const root = await ls('s3://lake/');
    expect(root.body.data.core.storage.ls.map((f: { name: string }) => f.name)).toEqual(['s3://lake/items.parquet', 's3://lake/people.json']);
    const deep = await ls('s3://lake/**/*.{csv,json}');
    expect(deep.body.data.core.storage.ls.map((f: { name: string }) => f.name)).toEqual(['s3://lake/people.json', 's3://lake/sales/2024.csv', 's3://lake/sales/2025.csv']);
    const one = await ls('s3://lake/people.json', 'name content');
    expect(JSON.parse(one.body.data.core.storage.ls[0].content)).toEqual([{ name: 'Ann', age: 31 }, { name: 'Bob', age: 42 }]);
    expect((await ls('s3://lake/nothing-here/')).body.data.core.storage.ls).toEqual([]);
  });

  it('refuses URLs no registered storage serves', async () => {
    const r = await ls('s3://other/secret.txt', 'name content');
    expect(r.body.errors[0]).toMatchObject({
      message: 'no registered object storage serves "s3://other/secret.txt" (register one whose scope covers it with register_object_storage)',
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('lists local files inside STORAGE_LOCAL_PATHS only', async () => {
    const r = await ls(join(local, '*.txt'), 'name content size');
    ok(r);
    expect(r.body.data.core.storage.ls).toEqual([
      { name: join(local, 'a.txt'), content: 'alpha', size: 5 },
      { name: join(local, 'b.txt'), content: 'beta', size: 4 },
    ]);
    expect((await ls(local)).body.data.core.storage.ls.map((f: { name: string }) => f.name)).toEqual([join(local, 'a.txt'), join(local, 'b.txt')]);
    expect((await ls(join(local, '**/*.txt'))).body.data.core.storage.ls).toHaveLength(3);
    for (const path of ['/etc/passwd', join(local, '..', 'core.duckdb'), join(local, '../*'), join(local, 'etc', 'hostname'), join(local, 'etc')]) {
      const denied = await ls(path, 'name content');
      expect(denied.body.errors?.[0], path).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      expect(denied.body.errors[0].message).toMatch(/is outside the directories ls may read \(STORAGE_LOCAL_PATHS\)$/);
    }
  });

  it('is closed to roles other than admin', async () => {
    const r = await gql('{ core { storage { ls(path: "s3://lake/") { name } } } }', undefined, PUBLIC);
    expect(r.body.errors?.[0]?.extensions?.code).toMatch(/FORBIDDEN|GRAPHQL_VALIDATION_FAILED/);
    const w = await register({ n: 'mine' }, PUBLIC);
    expect(w.body.errors?.[0]?.extensions?.code).toMatch(/FORBIDDEN|GRAPHQL_VALIDATION_FAILED/);
    const list = await gql('{ core { storage { registered_object_storages { name } } } }', undefined, PUBLIC);
    expect(list.body.errors?.[0]?.extensions?.code).toMatch(/FORBIDDEN|GRAPHQL_VALIDATION_FAILED/);
  });

  it('serves a DuckDB source reading CSV, JSON and Parquet files of the storage, refreshed on reload', async () => {
    const cat = join(dir, 'lakecat');
    mkdirSync(cat, { recursive: true });
    writeFileSync(join(cat, 'schema.graphql'), `
type sales @view(name: "sales", sql: "SELECT id, amount FROM read_csv('s3://lake/sales/*.csv')") {
  id: Int! @pk
  amount: Float
}
type people @view(name: "people", sql: "SELECT name, age FROM read_json('s3://lake/people.json')") {
  name: String! @pk
  age: Int
}
type items @view(name: "items", sql: "SELECT id, name, price FROM read_parquet('s3://lake/items.parquet')") {
  id: BigInt! @pk
  name: String
  price: Float
}
`);
    const ins = await gql(`mutation($c: String!) { core { insert_data_sources(data: {name: "lake", type: "duckdb", prefix: "lake", as_module: false, path: ":memory:",
      catalogs: [{name: "lakecat", type: "localFS", path: $c}]}) { name } } }`, { c: cat });
    ok(ins);
    const load = await gql('mutation { function { core { load_data_source(name: "lake") { success message } } } }');
    expect(load.body.data.function.core.load_data_source).toEqual({ success: true, message: 'data source "lake" loaded' });
    const q = '{ lake_sales(order_by: [{field: "id"}]) { id amount } lake_people(order_by: [{field: "name"}]) { name age } lake_items_aggregation { _rows_count price { sum } } }';
    const r = await gql(q);
    ok(r);
    expect(r.body.data.lake_sales).toEqual([{ id: 1, amount: 10.5 }, { id: 2, amount: 20 }, { id: 3, amount: 30 }]);
    expect(r.body.data.lake_people).toEqual([{ name: 'Ann', age: 31 }, { name: 'Bob', age: 42 }]);
    expect(r.body.data.lake_items_aggregation).toEqual({ _rows_count: 100, price: { sum: 7575 } });
    // A file changed and one removed in the storage: the copies follow at the next load.
    await put('sales/2025.csv', 'id,amount\n3,33\n4,44\n');
    await s3.send(new DeleteObjectCommand({ Bucket: 'lake', Key: 'sales/2024.csv' }));
    ok(await gql('mutation { function { core { load_data_source(name: "lake") { success } } } }'));
    const again = await gql('{ lake_sales(order_by: [{field: "id"}]) { id amount } }');
    ok(again);
    expect(again.body.data.lake_sales).toEqual([{ id: 3, amount: 33 }, { id: 4, amount: 44 }]);
    await put('sales/2024.csv', 'id,amount\n1,10.5\n2,20\n');
    await put('sales/2025.csv', 'id,amount\n3,30\n');
    ok(await gql('mutation { function { core { unload_data_source(name: "lake") { success } } } }'));
  });

  it('serves a DuckDB source whose database file is in the storage, read-only', async () => {
    const cat = join(dir, 'stationscat');
    mkdirSync(cat, { recursive: true });
    writeFileSync(join(cat, 'schema.graphql'), 'type stations @table(name: "stations") { id: BigInt! @pk name: String }');
    ok(await gql(`mutation($c: String!) { core { insert_data_sources(data: {name: "st", type: "duckdb", prefix: "st", as_module: false, path: "s3://lake/db/stations.duckdb",
      catalogs: [{name: "stationscat", type: "localFS", path: $c}]}) { name } } }`, { c: cat }));
    const load = await gql('mutation { function { core { load_data_source(name: "st") { success message } } } }');
    expect(load.body.data.function.core.load_data_source).toEqual({ success: true, message: 'data source "st" loaded' });
    const r = await gql('{ st_stations_aggregation { _rows_count } st_stations_by_pk(id: 5) { name } }');
    ok(r);
    expect(r.body.data).toEqual({ st_stations_aggregation: { _rows_count: 5 }, st_stations_by_pk: { name: 'station 5' } });
    // A copy is not the storage's file: the source takes no writes.
    const w = await gql('mutation { insert_st_stations(data: {id: 9, name: "x"}) { id } }');
    expect(w.body.errors?.[0]?.message).toMatch(/Cannot query field "insert_st_stations"/);
    ok(await gql('mutation { function { core { unload_data_source(name: "st") { success } } } }'));
  });

  it('registers and unregisters through core.cluster as well (one node: the storage module itself)', async () => {
    const r = await gql(`mutation($e: String!, $x: String!) { function { core { cluster {
      register_storage(type: "s3", name: "via_cluster", scope: "other", key: "S3RVER", secret: $x, endpoint: $e, use_ssl: false) { success message } } } } }`, { e: endpoint, x: SECRET });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.function.core.cluster.register_storage).toMatchObject({ success: true });
    expect((await ls('s3://other/', 'name')).body.data.core.storage.ls).toEqual([{ name: 's3://other/secret.txt' }]);
    const u = await gql('mutation { function { core { cluster { unregister_storage(name: "via_cluster") { success } } } } }');
    expect(u.body.data.function.core.cluster.unregister_storage).toMatchObject({ success: true });
  });

  it('unregisters a storage; its URLs are then refused', async () => {
    const r = await gql('mutation { function { core { storage { unregister_storage(name: "lake") { success message } } } } }');
    expect(r.body.data.function.core.storage.unregister_storage).toEqual({ success: true, message: 'object storage "lake" unregistered' });
    expect((await ls('s3://lake/')).body.errors[0].extensions.code).toBe('NOT_FOUND');
    const again = await gql('mutation { function { core { storage { unregister_storage(name: "lake") { success } } } } }');
    expect(again.body.errors[0]).toMatchObject({ message: 'unknown object storage "lake"', extensions: { code: 'NOT_FOUND' } });
    expect((await gql('{ core { storage { registered_object_storages { name } } } }')).body.data.core.storage.registered_object_storages).toEqual([]);
  });
});
