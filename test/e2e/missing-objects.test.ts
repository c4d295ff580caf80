// SPEC §3.1 (issue 15 item 10): tables and columns a catalog names but the database lacks are
// warnings in data_source_status and describe_data_source_schema(log: true), on both dialects; the
// rest of the source is served.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let t: TestApp;
let db: TestDatabase;
const TABLE = 'CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR); INSERT INTO items VALUES (1, \'one\');';
const CATALOG = 'type items @table(name: "items") {\n  id: Int! @pk\n  name: String\n  phantom: String\n}\ntype ghosts @table(name: "ghosts") {\n  id: Int! @pk\n}\n';

beforeAll(async () => {
  db = await createTestDatabase('svc_missing');
  await db.exec(TABLE);
  const root = join(tempDir(), 'catalogs');
  for (const [name, yaml] of [['duck', 'type: duckdb\npath: ":memory:"\nprefix: duck\nseed: seed.sql\n'], ['pg', `type: postgres\npath: "${db.url}"\nprefix: pg\n`]] as const) {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'source.yaml'), yaml);
    writeFileSync(join(root, name, 'schema.graphql'), CATALOG);
    writeFileSync(join(root, name, 'seed.sql'), TABLE);
  }
  t = await startApp({ CATALOGS_DIR: root });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('objects the database lacks', () => {
  for (const [source, schema] of [['duck', 'main'], ['pg', 'public']] as const) {
    it(`are warnings on ${source}, and the rest is served`, async () => {
      const warnings = [`table "${schema}.ghosts" of "ghosts" does not exist in the database`, `column "phantom" of "items" does not exist in table "${schema}.items"`];
      const status = await t.gql(`{ function { core { data_source_status(name: "${source}") } } }`);
      expect(status.body.data.function.core.data_source_status).toBe(`loaded with 2 warnings: ${warnings.join('; ')}`);
      const described = await t.gql(`{ function { core { describe_data_source_schema(name: "${source}", log: true) } } }`);
      for (const w of warnings) expect(described.body.data.function.core.describe_data_source_schema).toContain(`# warning: ${w}`);
      const served = await t.gql(`{ ${source}_items { id name } }`);
      expect(served.body.data, served.text).toEqual({ [`${source}_items`]: [{ id: 1, name: 'one' }] });
    });
  }
});
