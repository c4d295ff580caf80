// A MySQL read whose client went away is stopped (issue 31): the source sends KILL QUERY for the
// statement, so its connection comes back at once instead of running until max_statement_time.
import { afterAll, beforeAll, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { MysqlSource } from '../../src/sources/mysql/source.js';
import { createMysqlDatabase, MYSQL_URL, type TestMysqlDatabase } from '../support/mysql.js';

let db: TestMysqlDatabase;
let source: MysqlSource;

beforeAll(async () => {
  db = await createMysqlDatabase('svc_cancel');
  source = await MysqlSource.connect({ name: 'my', url: db.url, readOnly: true, maxConnections: 2, statementTimeoutMs: 0 });
}, 30_000);

afterAll(async () => {
  await source?.close();
  await db?.drop();
});

async function running(marker: string): Promise<number> {
  const u = new URL(MYSQL_URL);
  const c = await mysql.createConnection({ host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) });
  try {
    const [rows] = await c.query('SELECT COUNT(*) AS n FROM information_schema.processlist WHERE info LIKE ? AND command <> \'Sleep\' AND id <> CONNECTION_ID()', [`%${marker}%`]);
    return Number((rows as { n: number }[])[0]!.n);
  } finally {
    await c.end();
  }
}

it('kills the statement of a read whose request was cancelled', async () => {
  const abort = new AbortController();
  // No time limit (statementTimeoutMs 0): only the cancel can end it before an hour.
  const read = source.queryJson({ sql: "SELECT JSON_ARRAY(SLEEP(3600), 'svc-cancel-marker') AS result", params: [] }, abort.signal).then(() => 'finished', () => 'stopped');
  while ((await running('svc-cancel-marker')) === 0) await new Promise((r) => setTimeout(r, 50));
  abort.abort();
  // SLEEP answers 1 when killed: the read settles either way, an hour early (before: it did not).
  expect(['finished', 'stopped']).toContain(await read);
  while ((await running('svc-cancel-marker')) > 0) await new Promise((r) => setTimeout(r, 50));
}, 30_000);
