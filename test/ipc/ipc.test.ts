// POST /ipc (SPEC §13): the answer of /query as multipart/mixed, lists as Arrow IPC streams read
// from cursors, with /query's permissions, limits and errors.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import wkx from 'wkx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { arrowRows, splitMultipart } from './multipart.js';

let t: TestApp;
let url: string;
let pgdb: TestDatabase;
const SECRET = 'ipc-test-secret';

async function ipc(query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>) {
  const res = await fetch(`${url}/ipc`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  pgdb = await createTestDatabase('svc_ipc');
  // 4500 rows: more than two FETCH batches of the cursor.
  await pgdb.exec(`CREATE TABLE points (id int PRIMARY KEY, label text, at timestamptz, big bigint);
    INSERT INTO points SELECT g, 'p' || g, TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * INTERVAL '1 minute', g::bigint * 1000000000000 FROM generate_series(1, 4500) g;`);
  const dir = mkdtempSync(join(tmpdir(), 'svc-ipc-'));
  writeFileSync(join(dir, 'schema.graphql'), 'type points @table(name: "points") {\n  id: Int! @pk\n  label: String\n  at: Timestamp\n  big: BigInt\n}\n');
  t = await startApp({ SECRET_KEY: SECRET, CATALOG_ALLOWED_PATHS: dir });
  const reg = await t.gql(`mutation { core { insert_data_sources(data: {name: "pts", type: "postgres", prefix: "pts", path: "${pgdb.url}", catalogs: [{name: "pts_files", type: "localFS", path: "${dir}"}]}) { name } } }`);
  expect(reg.body.errors).toBeUndefined();
  expect((await t.gql('mutation { function { core { load_data_source(name: "pts") { success message } } } }')).body.data.function.core.load_data_source.success).toBe(true);
  await t.app.listen(0, '127.0.0.1');
  url = await t.app.getUrl();
  url = url.replace('[::1]', '127.0.0.1');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await pgdb?.drop();
});

describe('POST /ipc', () => {
  it('answers one part per result path: lists as Arrow streams equal to /query, objects as JSON, then extensions', async () => {
    const query = `{ shop_customers(order_by: [{field: "id"}]) { id name created_at }
      shop_stores(order_by: [{field: "id"}]) { id location }
      shop_products_by_pk(id: 1) { id name }
      function { core { info { node_role } } } }`;
    const json = (await t.gql(query)).body;
    const r = await ipc(query);
    expect(r.status).toBe(200);
    expect(r.type).toBe('multipart/mixed; boundary=SVC');
    const parts = splitMultipart(r.body);
    expect(parts.map((p) => [p.headers['x-svc-part-type'], p.headers['x-svc-path'], p.headers['x-svc-format'] ?? ''])).toEqual([
      ['data', 'data.shop_customers', 'table'],
      ['data', 'data.shop_stores', 'table'],
      ['data', 'data.shop_products_by_pk', 'object'],
      ['data', 'data.function.core.info', 'object'],
      ['extensions', 'extensions', ''],
    ]);
    expect(parts[0]!.headers['content-type']).toBe('application/vnd.apache.arrow.stream');
    const table = tableFromIPC(parts[0]!.body);
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['id:Int32', 'name:Utf8', 'created_at:Timestamp<MILLISECOND, UTC>']);
    const customers = arrowRows(parts[0]!).map((c) => ({ ...c, created_at: c.created_at === null ? null : new Date(c.created_at as number).toISOString() }));
    expect(customers).toEqual(json.data.shop_customers.map((c: { created_at: string | null }) => ({ ...c, created_at: c.created_at === null ? null : new Date(c.created_at).toISOString() })));
    // Geometry in tables is WKB (SPEC §13); the same shapes /query gives as GeoJSON.
    const stores = arrowRows(parts[1]!);
    expect(stores.map((s) => ({ id: s.id, location: s.location === null ? null : wkx.Geometry.parse(Buffer.from(s.location as Uint8Array)).toGeoJSON() }))).toEqual(
      json.data.shop_stores.map((s: { id: number; location: unknown }) => ({ id: s.id, location: s.location })),
    );
    expect(JSON.parse(parts[2]!.body.toString())).toEqual(json.data.shop_products_by_pk);
    expect(JSON.parse(parts[3]!.body.toString())).toEqual({ node_role: 'standalone' });
    expect(JSON.parse(parts[4]!.body.toString())).toEqual({});
  });

  it('streams a PostgreSQL list through a cursor, in several batches, exactly (BigInt, timestamps)', async () => {
    // Lists default to limit 2000 (as on the established servers); this one asks for all of them.
    const query = '{ pts_points(order_by: [{field: "id"}], limit: 10000) { id label at big } }';
    const json = (await t.gql(query)).body.data.pts_points as { id: number; label: string; at: string; big: number | string }[];
    const [part] = splitMultipart((await ipc(query)).body);
    const table = tableFromIPC(part!.body);
    expect(table.batches.length).toBeGreaterThan(2);
    expect(table.numRows).toBe(4500);
    const rows = arrowRows(part!);
    expect(rows.map((r) => ({ id: r.id, label: r.label, at: new Date(r.at as number).toISOString(), big: String(r.big) }))).toEqual(
      json.map((r) => ({ id: r.id, label: r.label, at: new Date(r.at).toISOString(), big: String(r.big) })),
    );
  });

  it('nests relations as Arrow structs and lists, and keeps module paths', async () => {
    const query = '{ shop_orders(order_by: [{field: "id"}], limit: 3) { id customer { name } items(order_by: [{field: "line"}]) { line quantity } } }';
    const json = (await t.gql(query)).body.data.shop_orders;
    const [part] = splitMultipart((await ipc(query)).body);
    expect(tableFromIPC(part!.body).schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['id:Int32', 'customer:Struct<{name:Utf8}>', 'items:List<Struct<{line:Int32, quantity:Int32}>>']);
    expect(arrowRows(part!).map((r) => JSON.parse(JSON.stringify(r)))).toEqual(json);
  });

  it('applies the role rules of /query: a disabled field is an error part, an _endpoints row is 403', async () => {
    const admin = { 'x-svc-secret-key': SECRET };
    await t.gql(`mutation { core { insert_roles(data: {name: "clerk", description: "c", permissions: [
      {type_name: "Query", field_name: "shop_stores", disabled: true}]}) { name } } }`);
    await t.gql(`mutation { core { insert_roles(data: {name: "nopipe", description: "n", permissions: [
      {type_name: "_endpoints", field_name: "/ipc", disabled: true}]}) { name } } }`);
    const clerk = { ...admin, 'x-svc-role': 'clerk' };
    const parts = splitMultipart((await ipc('{ shop_customers { id } shop_stores { id } }', clerk)).body);
    expect(parts.map((p) => p.headers['x-svc-path'])).toEqual(['data.shop_customers', 'data.shop_stores', 'extensions', 'errors']);
    expect(JSON.parse(parts[1]!.body.toString())).toBeNull();
    expect(JSON.parse(parts[3]!.body.toString())).toMatchObject([{ message: 'forbidden', path: ['shop_stores'] }]);
    // A disabled field of a streamed list (and of a relation inside it) is reported as /query does, once per field (issue 31).
    await t.gql(`mutation { core { insert_roles(data: {name: "noemail", description: "e", permissions: [
      {type_name: "shop_customers", field_name: "email", disabled: true}]}) { name } } }`);
    const rows = splitMultipart((await ipc('{ shop_customers { id email } shop_orders(limit: 1) { id customer { name email } } }', { ...admin, 'x-svc-role': 'noemail' })).body);
    const errorsPart = rows.find((p) => p.headers['x-svc-path'] === 'errors');
    expect(errorsPart, 'an errors part').toBeDefined();
    expect(JSON.parse(errorsPart!.body.toString())).toEqual([
      { message: 'forbidden', path: ['shop_customers', 'email'], extensions: { code: 'FORBIDDEN' } },
      { message: 'forbidden', path: ['shop_orders', 'customer', 'email'], extensions: { code: 'FORBIDDEN' } },
    ]);
    const denied = await ipc('{ shop_customers { id } }', { ...admin, 'x-svc-role': 'nopipe' });
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body.toString()).errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await ipc('{ shop_customers { id } }', { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('answers a refused document as /query does (JSON), and a malformed one with 400', async () => {
    const unknown = await ipc('{ shop_nothing { id } }');
    expect(unknown.status).toBe(200);
    expect(JSON.parse(unknown.body.toString()).errors[0].message).toMatch(/Cannot query field "shop_nothing"/);
    expect((await ipc('{ shop_customers { id }')).status).toBe(400);
  });
});
