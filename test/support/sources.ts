// One app serving several sources declared by file (CATALOGS_DIR/<name>/source.yaml + schema.graphql),
// with one fresh PostgreSQL database for the postgres ones: for tests of one graph over many
// sources (issue 19). `[$PG]` in a source's yaml is that database's URL.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, type TestApp, tempDir } from './app.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

export interface SourceFiles {
  readonly name: string;
  readonly yaml: string;
  readonly schema: string;
  readonly seed?: string;
}

export interface Sources {
  readonly app: TestApp;
  readonly db: TestDatabase;
  /** Where source folders live: a test may add one and load it by hand. */
  readonly root: string;
  /** Statements sent since the last reset, with their source. */
  readonly statements: { source: string; sql: string; params: readonly unknown[] }[];
  close(): Promise<void>;
}

export function writeSource(root: string, s: SourceFiles, pgUrl: string): void {
  mkdirSync(join(root, s.name), { recursive: true });
  writeFileSync(join(root, s.name, 'source.yaml'), s.yaml.replace('[$PG]', pgUrl));
  writeFileSync(join(root, s.name, 'schema.graphql'), s.schema);
  if (s.seed) writeFileSync(join(root, s.name, 'seed.sql'), s.seed);
}

export async function startSources(o: { name: string; pgSql: string; sources: readonly SourceFiles[]; env?: Record<string, string> }): Promise<Sources> {
  const db = await createTestDatabase(o.name);
  await db.exec(o.pgSql);
  const root = join(tempDir(), 'catalogs');
  for (const s of o.sources) writeSource(root, s, db.url);
  const app = await startApp({ CATALOGS_DIR: root, ...o.env });
  const statements: Sources['statements'] = [];
  app.runtime.executor.observe((source, sql, params) => statements.push({ source, sql, params }));
  return {
    app,
    db,
    root,
    statements,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
