// Issue 29 item 4: errors in svc's words. No database text reaches a client: each class of database
// error is a coded message naming the source and the field, the original is logged with the
// request id; an invalid variable value is reported as one; a failed request (a failed mutation
// too) logs at warn with its error codes. DuckDB, PostgreSQL and MySQL, through the compiled server.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { type ServerProcess, startServer } from '../support/server.js';

const TABLE = "CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(40), seen_at TIMESTAMP); INSERT INTO items VALUES (1, 'one', TIMESTAMP '2025-01-01 00:00:00');";
const CATALOG = `type items @table(name: "items") {
  id: Int! @pk
  name: String
  seen_at: Timestamp
}

extend type Function {
  broken: Float @function(name: "broken", sql: "SELECT qty * 2")
}
`;
/** What database messages say; none of it may reach a client. */
const DB_TEXT = /Binder Error|Conversion Error|Constraint Error|Duplicate|duplicate key|does not exist|Unknown column|not found|violates|invalid input syntax|qty|secret-name/i;
const SOURCES = ['duck', 'pg', 'my'] as const;

let pgDb: TestDatabase;
let myDb: TestMysqlDatabase;
let s: ServerProcess;

beforeAll(async () => {
  pgDb = await createTestDatabase('svc_dberr');
  await pgDb.exec(TABLE);
  myDb = await createMysqlDatabase('svc_dberr');
  await myDb.exec(TABLE.replace("TIMESTAMP '2025-01-01 00:00:00'", "'2025-01-01 00:00:00'").replace('seen_at TIMESTAMP', 'seen_at DATETIME'));
  const root = mkdtempSync(join(tmpdir(), 'svc-dberr-'));
  const yaml = { duck: 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n', pg: `type: postgres\npath: "${pgDb.url}"\n`, my: `type: mysql\npath: "${myDb.url}"\n` };
  for (const name of SOURCES) {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'source.yaml'), `${yaml[name]}prefix: ${name}\n`);
    writeFileSync(join(root, name, 'schema.graphql'), CATALOG);
    writeFileSync(join(root, name, 'seed.sql'), TABLE);
  }
  s = await startServer({ CATALOGS_DIR: root });
}, 120_000);

afterAll(async () => {
  await s?.stop();
  await pgDb?.drop();
  await myDb?.drop();
});

async function post(query: string, variables?: Record<string, unknown>): Promise<{ id: string; body: any }> {
  const r = await fetch(`${s.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return { id: r.headers.get('x-request-id')!, body: await r.json() };
}

/** The log lines of one request, once its request line is written. */
async function logsOf(id: string): Promise<Record<string, any>[]> {
  await s.waitForLine((l) => l.includes(`"request_id":"${id}"`) && l.includes('"msg":"request"'), `the request line of ${id}`);
  return s.logs().filter((l) => l.request_id === id);
}

describe('database errors in svc words', () => {
  for (const src of SOURCES) {
    it(`${src}: SQL the database refuses is a catalog error naming source and field; the original is logged with the request id`, async () => {
      const { id, body } = await post(`{ function { ${src}_broken } }`);
      const e = body.errors[0];
      expect(e).toMatchObject({
        message: `${src}: the database cannot run what the catalog declares (a table, column or function it lacks, or SQL it refuses); the catalog needs fixing (field "${src}_broken")`,
        extensions: { code: 'CATALOG_INVALID', reason: 'catalog_mismatch', request_id: id },
      });
      expect(JSON.stringify(body)).not.toMatch(DB_TEXT);
      const logs = await logsOf(id);
      const original = logs.find((l) => l.msg === 'database error');
      expect(original).toMatchObject({ level: 50, source: src, reason: 'catalog_mismatch' });
      expect(original!.db_error).toMatch(/qty/);
      expect(logs.find((l) => l.msg === 'request')).toMatchObject({ level: 40, outcome: 'partial', error_codes: ['CATALOG_INVALID'] });
    });

    it(`${src}: a failed mutation (duplicate key) names the class, source and field, logs at warn with its code, and never the value`, async () => {
      const { id, body } = await post(`mutation { insert_${src}_items(data: {id: 1, name: "secret-name"}) { id } }`);
      expect(body.data).toBeNull();
      expect(body.errors).toEqual([expect.objectContaining({
        message: `${src}: unique constraint violated: a row with the same key exists (field "insert_${src}_items")`,
        extensions: { code: 'QUERY_FAILED', reason: 'unique_violation' },
      })]);
      expect(JSON.stringify(body)).not.toMatch(DB_TEXT);
      const logs = await logsOf(id);
      expect(logs.find((l) => l.msg === 'request')).toMatchObject({ level: 40, status: 200, operation: 'mutation', outcome: 'failed', error_codes: ['QUERY_FAILED'] });
      const original = logs.find((l) => l.msg === 'database error');
      expect(original).toMatchObject({ level: 40, reason: 'unique_violation' });
      expect(JSON.stringify(logs)).not.toContain('secret-name');
    });
  }

  for (const src of ['duck', 'pg'] as const) {
    it(`${src}: a value the database cannot read is an invalid input value, without the database's text`, async () => {
      const { body } = await post(`{ ${src}_items(filter: {seen_at: {gt: "not a date"}}) { id } }`);
      expect(body.errors[0]).toMatchObject({
        message: `${src}: invalid input value: a value does not fit its column or argument type (field "${src}_items")`,
        extensions: { code: 'QUERY_FAILED', reason: 'invalid_value' },
      });
      expect(JSON.stringify(body)).not.toMatch(/not a date|Conversion|invalid input syntax|timestamp/i);
    });
  }
});

describe('invalid variable values', () => {
  it('a huge Int is an invalid value naming the variable, not an estimated cost', async () => {
    const { id, body } = await post('query($n: Int) { duck_items(limit: $n) { id } }', { n: 1e23 });
    expect(body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Variable "\$n" got invalid value 1e\+23; Int cannot represent/), extensions: { code: 'BAD_USER_INPUT' } })]);
    expect(JSON.stringify(body)).not.toContain('cost');
    expect((await logsOf(id)).find((l) => l.msg === 'request')).toMatchObject({ level: 40, outcome: 'failed', error_codes: ['BAD_USER_INPUT'] });
  });

  it('a request without errors logs at info, without an outcome', async () => {
    const { id, body } = await post('query($n: Int) { duck_items(limit: $n) { id } }', { n: 1 });
    expect(body).toEqual({ data: { duck_items: [{ id: 1 }] }, extensions: {} });
    const line = (await logsOf(id)).find((l) => l.msg === 'request');
    expect(line).toMatchObject({ level: 30 });
    expect(line).not.toHaveProperty('error_codes');
  });
});
