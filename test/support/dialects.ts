// The example shop served twice: from DuckDB (catalogs/shop as declared) and from PostgreSQL
// (the same catalog, the same prefix, data from test/fixtures/pg/shop.sql), so one request and
// one expected answer run on both dialects. The golden suite asks for a third, MySQL / MariaDB
// (test/fixtures/mysql/shop.sql).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGS, FIXTURES, startApp, type TestApp, tempDir } from './app.js';
import { createMysqlDatabase, type TestMysqlDatabase } from './mysql.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

export interface Dialect {
  readonly name: 'duckdb' | 'postgres' | 'mysql';
  readonly app: TestApp;
  /** SQL statements sent to the shop source since the last reset. */
  readonly statements: string[];
}

export interface Dialects {
  readonly all: readonly Dialect[];
  close(): Promise<void>;
}

/** `database`: a throwaway database's name, written as `svc_golden` so golden SQL stays stable. */
function watch(app: TestApp, name: Dialect['name'], database?: string): Dialect {
  const statements: string[] = [];
  app.runtime.executor.observe((source, sql) => {
    if (source === 'shop') statements.push(database ? sql.replaceAll(`"${database}"`, '"svc_golden"') : sql);
  });
  return { name, app, statements };
}

/** The shop catalog served by `type` from `url` (an environment placeholder keeps it out of the text). */
export function shopCatalogs(type: string, envName: string): string {
  const dir = join(tempDir(), 'catalogs');
  mkdirSync(join(dir, 'shop'), { recursive: true });
  writeFileSync(join(dir, 'shop', 'source.yaml'), `type: ${type}\npath: "[$${envName}]"\nprefix: shop\n`);
  copyFileSync(join(CATALOGS, 'shop', 'schema.graphql'), join(dir, 'shop', 'schema.graphql'));
  return dir;
}

export async function startDialects(env: Record<string, string> = {}, opts: { mysql?: boolean } = {}): Promise<Dialects> {
  const db: TestDatabase = await createTestDatabase('svc_golden');
  await db.exec(readFileSync(join(FIXTURES, 'pg/shop.sql'), 'utf8'));
  const duck = await startApp(env);
  process.env.SVC_TEST_SHOP_PG_URL = db.url;
  const pg = await startApp({ ...env, CATALOGS_DIR: shopCatalogs('postgres', 'SVC_TEST_SHOP_PG_URL') });
  let my: { db: TestMysqlDatabase; app: TestApp } | undefined;
  if (opts.mysql) {
    const mdb = await createMysqlDatabase('svc_golden');
    await mdb.exec(readFileSync(join(FIXTURES, 'mysql/shop.sql'), 'utf8'));
    process.env.SVC_TEST_SHOP_MYSQL_URL = mdb.url;
    my = { db: mdb, app: await startApp({ ...env, CATALOGS_DIR: shopCatalogs('mysql', 'SVC_TEST_SHOP_MYSQL_URL') }) };
  }
  return {
    all: [watch(duck, 'duckdb'), watch(pg, 'postgres'), ...(my ? [watch(my.app, 'mysql', my.db.name)] : [])],
    async close() {
      await duck.close();
      await pg.close();
      await db.drop();
      await my?.app.close();
      await my?.db.drop();
    },
  };
}
