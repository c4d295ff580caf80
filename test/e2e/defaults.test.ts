// @default (SPEC §3.3): value, sequence, insert_exp with [$field], update_exp; on PostgreSQL, and
// the same catalog on a DuckDB source (sequences resolve in the source's own database, issue 15).
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let db: TestDatabase;
let t: TestApp;
beforeAll(async () => {
  db = await createTestDatabase('svc_defaults');
  await db.exec(`CREATE SEQUENCE ticket_ids START 100;
    CREATE TABLE tickets (id integer PRIMARY KEY, title text NOT NULL, slug text, priority integer, created_at timestamptz, updated_at timestamptz);`);
  t = await startApp();
  await t.gql(`mutation($p: String!, $c: String!) { core { insert_data_sources(data: {name: "desk", type: "postgres", prefix: "desk", as_module: false, path: $p,
    catalogs: [{name: "desk", type: "localFS", path: $c}]}) { name } } }`, { p: db.url, c: join(FIXTURES, 'catalogs/defaults') });
  const load = await t.gql('mutation { function { core { load_data_source(name: "desk") { success message } } } }');
  expect(load.body.data.function.core.load_data_source.success).toBe(true);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

it('fills omitted fields from their defaults, and the client can still set them', async () => {
  const a = await t.gql('mutation { insert_desk_tickets(data: {title: "Printer On Fire"}) { id slug priority created_at updated_at } }');
  expect(a.body.errors).toBeUndefined();
  expect(a.body.data.insert_desk_tickets).toMatchObject({ id: 100, slug: 'printer-on-fire', priority: 3, updated_at: null });
  expect(a.body.data.insert_desk_tickets.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  const b = await t.gql('mutation { insert_desk_tickets(data: {id: 7, title: "x", slug: "own", priority: 1}) { id slug priority } }');
  expect(b.body.data.insert_desk_tickets).toEqual({ id: 7, slug: 'own', priority: 1 });
});

it('applies update_exp on every update', async () => {
  const u = await t.gql('mutation { update_desk_tickets(filter: {id: {eq: 7}}, data: {title: "y"}) { affected_rows } }');
  expect(u.body.data.update_desk_tickets.affected_rows).toBe(1);
  const r = await t.gql('{ desk_tickets_by_pk(id: 7) { title updated_at } }');
  expect(r.body.data.desk_tickets_by_pk.title).toBe('y');
  expect(r.body.data.desk_tickets_by_pk.updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
});

it('on DuckDB, @default(sequence:) names the sequence of the source as written in the catalog', async () => {
  const file = join(t.dir, 'desk.duckdb');
  await t.runtime.engine.exec(`ATTACH '${file}' AS desk_setup; CREATE SEQUENCE desk_setup.main.ticket_ids START 100;
    CREATE TABLE desk_setup.main.tickets (id INTEGER PRIMARY KEY, title VARCHAR NOT NULL, slug VARCHAR, priority INTEGER, created_at TIMESTAMPTZ, updated_at TIMESTAMPTZ);
    DETACH desk_setup;`);
  await t.gql(`mutation($p: String!, $c: String!) { core { insert_data_sources(data: {name: "deskd", type: "duckdb", prefix: "deskd", as_module: false, path: $p,
    catalogs: [{name: "deskd", type: "localFS", path: $c}]}) { name } } }`, { p: file, c: join(FIXTURES, 'catalogs/defaults') });
  const load = await t.gql('mutation { function { core { load_data_source(name: "deskd") { success message } } } }');
  expect(load.body.data.function.core.load_data_source.success).toBe(true);
  for (const id of [100, 101]) {
    const a = await t.gql('mutation { insert_deskd_tickets(data: {title: "Printer On Fire"}) { id slug priority } }');
    expect(a.body.errors, a.text).toBeUndefined();
    expect(a.body.data.insert_deskd_tickets).toEqual({ id, slug: 'printer-on-fire', priority: 3 });
  }
});
