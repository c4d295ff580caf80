// One app serving the same catalog twice: source `duck` (an in-memory DuckDB seeded with `duckSql`)
// and source `pg` (a fresh PostgreSQL database set up with `pgSql`), for tests that need their own
// tables on both dialects.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, type TestApp, tempDir } from './app.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

export interface TwoSources {
  readonly app: TestApp;
  readonly db: TestDatabase;
  close(): Promise<void>;
}

export async function startTwoSources(o: { name: string; catalog: string; duckSql: string; pgSql: string; env?: Record<string, string> }): Promise<TwoSources> {
  const db = await createTestDatabase(o.name);
  await db.exec(o.pgSql);
  const root = join(tempDir(), 'catalogs');
  const sources = [['duck', 'type: duckdb\npath: ":memory:"\nprefix: duck\nseed: seed.sql\n'], ['pg', `type: postgres\npath: "${db.url}"\nprefix: pg\n`]] as const;
  for (const [name, yaml] of sources) {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'source.yaml'), yaml);
    writeFileSync(join(root, name, 'schema.graphql'), o.catalog);
    writeFileSync(join(root, name, 'seed.sql'), o.duckSql);
  }
  const app = await startApp({ CATALOGS_DIR: root, ...o.env });
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
