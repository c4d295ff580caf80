// QUERY_TIMEOUT (issue 15 item 6): a statement that runs too long is cancelled on every source
// (PostgreSQL statement_timeout, DuckDB interrupt), the answer names the limit, and the same
// connection (pools of one here) serves the next request.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let t: TestApp;
let db: TestDatabase;

function source(root: string, name: string, yaml: string, slowSql: string): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'source.yaml'), yaml);
  writeFileSync(
    join(root, name, 'schema.graphql'),
    `type slow @view(name: "slow", sql: "${slowSql}") { n: BigInt }\ntype fast @view(name: "fast", sql: "SELECT 42 AS n") { n: BigInt }\n`,
  );
}

beforeAll(async () => {
  db = await createTestDatabase('svc_timeout');
  const root = join(tempDir(), 'catalogs');
  // A cross join of 10^11 rows on DuckDB, a sleep on PostgreSQL: both far beyond the limit.
  source(root, 'duck', 'type: duckdb\npath: ":memory:"\nprefix: duck\n', 'SELECT count(*) AS n FROM range(1000000) a, range(100000) b WHERE (a.range * b.range) % 7 = 3');
  source(root, 'pg', `type: postgres\npath: "${db.url}"\nprefix: pg\n`, 'SELECT 1 AS n FROM pg_sleep(600)');
  t = await startApp({ CATALOGS_DIR: root, QUERY_TIMEOUT: '300ms', DB_MAX_OPEN_CONNS: '1', DB_PG_CONNECTION_LIMIT: '1' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('QUERY_TIMEOUT', () => {
  for (const prefix of ['duck', 'pg']) {
    it(`cancels a long statement on ${prefix} and names the limit; the connection serves the next request`, async () => {
      for (let i = 0; i < 2; i++) {
        const r = await t.gql(`{ ${prefix}_slow { n } }`);
        expect(r.status).toBe(200);
        expect(r.body.data?.[`${prefix}_slow`] ?? null, r.text).toBeNull();
        expect(r.body.errors[0].extensions.code, r.text).toBe('QUERY_TIMEOUT');
        expect(r.body.errors[0].message).toBe(`${prefix}: the statement was cancelled after the time limit of 300ms (QUERY_TIMEOUT)`);
        const next = await t.gql(`{ ${prefix}_fast { n } }`);
        expect(next.body, next.text).toEqual({ data: { [`${prefix}_fast`]: [{ n: 42 }] }, extensions: {} });
      }
    });
  }
});
