// `@default(value:)` as hugr's own catalogs write it (hugr-lab/query-engine, integration-test:
// the compiler's 02_table_with_default and the e2e pg_store schema): `created_at: Timestamp
// @default(value: "now()")`. PostgreSQL reads the text 'now()' as the current time (one of its
// special date/time inputs), so hugr's e2e runs pass there; DuckDB refused it ("invalid input
// value") and the insert failed. svc writes the statement's current time on every dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { data, writeSource } from './support.js';

let t: TestApp;
beforeAll(async () => {
  const dir = join(tempDir(), 'catalogs');
  writeSource(dir, 'd', {
    'source.yaml': 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n',
    'seed.sql': 'CREATE TABLE items (id INTEGER PRIMARY KEY, status VARCHAR, quantity INTEGER, is_active BOOLEAN, created_at TIMESTAMPTZ, day DATE, note VARCHAR);',
    'schema.graphql': `type Item @table(name: "items") {
  id: Int! @pk
  status: String @default(value: "active")
  quantity: Int @default(value: "0")
  is_active: Boolean @default(value: "true")
  created_at: Timestamp @default(value: "now()")
  day: Date @default(value: "today")
  "a String field keeps the text as written"
  note: String @default(value: "now()")
}
`,
  });
  t = await startApp({ CATALOGS_DIR: dir });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('@default(value: "now()") on time fields (hugr-lab/query-engine integration-test catalogs)', () => {
  it('fills the current time and date on DuckDB; other values as written; a given value wins', async () => {
    const before = Date.now();
    const d = await data(t, 'mutation { insert_Item(data: {id: 1}) { id status quantity is_active created_at day note } }');
    const row = d.insert_Item;
    expect(row).toMatchObject({ id: 1, status: 'active', quantity: 0, is_active: true, note: 'now()' });
    const at = Date.parse(row.created_at);
    expect(at).toBeGreaterThanOrEqual(before - 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 60_000);
    expect([new Date(before).toISOString().slice(0, 10), new Date().toISOString().slice(0, 10)]).toContain(row.day);
    const given = await data(t, 'mutation { insert_Item(data: {id: 2, created_at: "2024-05-01T09:00:00Z", day: "2024-05-01"}) { created_at day } }');
    expect(given.insert_Item).toEqual({ created_at: '2024-05-01T09:00:00Z', day: '2024-05-01' });
  });
});
