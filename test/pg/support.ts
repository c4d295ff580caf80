// Helpers of the PostgreSQL suite: a throwaway database with a fixture, served as a data source
// registered at run time (insert_data_sources + load_data_source, SPEC §3.1).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { FIXTURES, type TestApp, tempDir } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

/** A database created from a fixture file under test/fixtures/pg/. */
export async function fixtureDatabase(file: string, prefix = 'svc_pgt'): Promise<TestDatabase> {
  const db = await createTestDatabase(prefix);
  await db.exec(readFileSync(join(FIXTURES, 'pg', file), 'utf8'));
  return db;
}

/** A catalog directory holding one SDL file. */
export function catalogDir(sdl: string): string {
  const dir = join(tempDir(), 'catalog');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'schema.graphql'), sdl);
  return dir;
}

export interface SourceRow {
  name: string;
  path: string;
  catalog: string;
  prefix?: string;
  selfDefined?: boolean;
}

/** Inserts a postgres data source row and loads it; returns load_data_source's answer. */
export async function registerSource(t: TestApp, s: SourceRow): Promise<{ success: boolean; message: string }> {
  const ins = await t.gql(`mutation($name: String!, $path: String!, $catalog: String!, $prefix: String, $self: Boolean) { core { insert_data_sources(data: {
      name: $name, type: "postgres", prefix: $prefix, as_module: false, path: $path, self_defined: $self,
      catalogs: [{name: $name, type: "localFS", path: $catalog}]}) { name } } }`,
    { name: s.name, path: s.path, catalog: s.catalog, prefix: s.prefix ?? s.name, self: s.selfDefined ?? false });
  expect(ins.body.errors).toBeUndefined();
  const load = await t.gql('mutation($name: String!) { function { core { load_data_source(name: $name) { success message } } } }', { name: s.name });
  expect(load.body.errors).toBeUndefined();
  return load.body.data.function.core.load_data_source;
}

/** `data` of a query that must succeed. */
export async function data(t: TestApp, query: string, variables?: Record<string, unknown>): Promise<any> {
  const r = await t.gql(query, variables);
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}
