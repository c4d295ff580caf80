// Compatibility with hugr (issue 32): each test file is one page of hugr's documentation
// (hugr-lab/hugr-lab.github.io, docs/4-engine-configuration and docs/5-graphql). The fixture catalog
// is written in the syntax those pages show; the requests are the pages' requests on our data.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

export const COMPAT = import.meta.dirname;

/** The northwind catalog as a DuckDB source named `nw` (no prefix, as hugr's pages name objects), plus `extra` sources. */
export async function startNorthwind(env: Record<string, string> = {}, extra: (dir: string) => void = () => undefined): Promise<TestApp> {
  const dir = join(tempDir(), 'catalogs');
  mkdirSync(join(dir, 'nw'), { recursive: true });
  writeFileSync(join(dir, 'nw', 'source.yaml'), 'type: duckdb\npath: nw.duckdb\ncreate: true\nseed: seed.sql\n');
  copyFileSync(join(COMPAT, 'northwind', 'schema.graphql'), join(dir, 'nw', 'schema.graphql'));
  copyFileSync(join(COMPAT, 'northwind', 'seed.sql'), join(dir, 'nw', 'seed.sql'));
  extra(dir);
  return startApp({ CATALOGS_DIR: dir, ...env });
}

/** A source folder with its files. */
export function writeSource(dir: string, name: string, files: Record<string, string>): void {
  mkdirSync(join(dir, name), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, name, file), text);
}

/** The data of a request that must answer without errors. */
export async function data(t: TestApp, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any> {
  const r = await t.gql(query, variables, headers);
  expect(r.body?.errors, r.text).toBeUndefined();
  return r.body.data;
}
