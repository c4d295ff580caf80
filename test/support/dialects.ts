// The example shop served twice: from DuckDB (catalogs/shop as declared) and from PostgreSQL
// (the same catalog, the same prefix, data from test/fixtures/pg/shop.sql), so one request and
// one expected answer run on both dialects.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGS, FIXTURES, startApp, type TestApp, tempDir } from './app.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

export interface Dialect {
  readonly name: 'duckdb' | 'postgres';
  readonly app: TestApp;
  /** SQL statements sent to the shop source since the last reset. */
  readonly statements: string[];
}

export interface Dialects {
  readonly all: readonly Dialect[];
  close(): Promise<void>;
}

function watch(app: TestApp, name: Dialect['name']): Dialect {
  const statements: string[] = [];
  app.runtime.executor.observe((source, sql) => {
    if (source === 'shop') statements.push(sql);
  });
  return { name, app, statements };
}

export async function startDialects(env: Record<string, string> = {}): Promise<Dialects> {
  const db: TestDatabase = await createTestDatabase('svc_golden');
  await db.exec(readFileSync(join(FIXTURES, 'pg/shop.sql'), 'utf8'));
  const duck = await startApp(env);
  const pgCatalogs = join(tempDir(), 'catalogs');
  mkdirSync(join(pgCatalogs, 'shop'), { recursive: true });
  writeFileSync(join(pgCatalogs, 'shop', 'source.yaml'), 'type: postgres\npath: "[$SVC_TEST_SHOP_PG_URL]"\nprefix: shop\n');
  copyFileSync(join(CATALOGS, 'shop', 'schema.graphql'), join(pgCatalogs, 'shop', 'schema.graphql'));
  process.env.SVC_TEST_SHOP_PG_URL = db.url;
  const pg = await startApp({ ...env, CATALOGS_DIR: pgCatalogs });
  return {
    all: [watch(duck, 'duckdb'), watch(pg, 'postgres')],
    async close() {
      await duck.close();
      await pg.close();
      await db.drop();
    },
  };
}
