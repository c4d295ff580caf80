// Lifecycle details of seed 001: describe_data_source_schema(self: true) returns the catalog a
// source derives from its database, and checkpoint answers for every source kind and core database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspect } from '../../src/sources/postgres/introspect.js';
import { startApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { catalogDir, data, fixtureDatabase, registerSource } from '../pg/support.js';

let t: TestApp;
let pgCore: TestApp;
let db: TestDatabase;
let coreDb: TestDatabase;

beforeAll(async () => {
  db = await fixtureDatabase('selfdef.sql', 'svc_life');
  coreDb = await createTestDatabase('svc_life_core');
  t = await startApp();
  pgCore = await startApp({ CORE_DB_PATH: coreDb.url });
  // One source derives its catalog from the database; the other has a catalog of its own.
  expect((await registerSource(t, { name: 'derived', path: `${db.url}?schema=app`, catalog: catalogDir('# unused'), selfDefined: true })).success).toBe(true);
  expect((await registerSource(t, { name: 'written', path: `${db.url}?schema=app`, catalog: catalogDir('type customers @table(name: "customers") { id: Int! @pk name: String! }') })).success).toBe(true);
});
afterAll(async () => {
  await t?.close();
  await pgCore?.close();
  await db?.drop();
  await coreDb?.drop();
});

const describeSchema = async (args: string) =>
  (await data(t, `{ function { core { describe_data_source_schema(${args}) } } }`)).function.core.describe_data_source_schema as string;

describe('describe_data_source_schema(self: true)', () => {
  it('returns the catalog SDL read from the database, the same text introspection writes', async () => {
    const want = (await introspect(`${db.url}?schema=app`, 'app', 'derived')).sdl;
    expect(await describeSchema('name: "derived", self: true')).toBe(want);
    expect(want).toContain('@table(name: "customers")');
  });

  it('derives it for a source that has a catalog of its own, and differs from the served schema', async () => {
    const derived = await describeSchema('name: "written", self: true');
    expect(derived).toContain('type orders @table(name: "orders")');
    const written = await describeSchema('name: "written"');
    expect(written).not.toContain('type orders');
  });
});

describe('describe_data_source_schema without self: the source\'s catalog, as hugr answers', () => {
  it('is the catalog file as written, not the generated API with svc\'s directive definitions first', async () => {
    const written = await describeSchema('name: "written"');
    expect(written).toMatch(/^# .*schema\.graphql\ntype customers @table\(name: "customers"\) \{ id: Int! @pk name: String! \}\n$/);
    expect(written).not.toContain('directive @');
    expect(written).not.toContain('written_customers');
  });

  it('is the derived catalog for a self-defined source, then its files; log: true adds the compilation log', async () => {
    const derived = await describeSchema('name: "derived"');
    expect(derived.startsWith((await introspect(`${db.url}?schema=app`, 'app', 'derived')).sdl)).toBe(true);
    expect(derived).toMatch(/# .*schema\.graphql\n# unused\n$/);
    expect(await describeSchema('name: "written", log: true')).toMatch(/\n# compilation log\n/);
  });

  it('adds the compilation log with log: true', async () => {
    const text = await describeSchema('name: "derived", self: true, log: true');
    expect(text).toMatch(/# compilation log\n# compiled 6 data objects/);
  });

  it('reads a DuckDB source too (issue 29: self_defined on DuckDB), and names an unknown source', async () => {
    const shop = await describeSchema('name: "shop", self: true');
    expect(shop).toContain('@table(name: "customers")');
    expect(await describeSchema('name: "nope", self: true')).toBe('unknown data source "nope"');
  });
});

describe('checkpoint', () => {
  const checkpoint = async (app: TestApp, name: string) =>
    (await data(app, 'mutation($n: String) { function { core { checkpoint(name: $n) { success message } } } }', { n: name })).function.core.checkpoint;

  it('flushes a DuckDB source, a PostgreSQL source and both kinds of core database', async () => {
    expect(await checkpoint(t, 'shop')).toEqual({ success: true, message: 'checkpoint of "shop" done' });
    expect(await checkpoint(t, 'derived')).toEqual({ success: true, message: 'checkpoint of "derived" done' });
    expect(await checkpoint(t, '')).toEqual({ success: true, message: 'checkpoint of "core" done' });
    expect(await checkpoint(pgCore, '')).toEqual({ success: true, message: 'checkpoint of "core" done' });
  });

  it('reports a source that is not loaded', async () => {
    expect(await checkpoint(t, 'nope')).toEqual({ success: false, message: 'data source "nope" is not loaded' });
  });
});
