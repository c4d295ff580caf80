// SPEC §3.1 (issue 15 item 10): tables and columns a catalog names but the database lacks are
// warnings in data_source_status and describe_data_source_schema(log: true), on both dialects; the
// rest of the source is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTwoSources, type TwoSources } from '../support/two-sources.js';

const TABLE = 'CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR); INSERT INTO items VALUES (1, \'one\');';
const CATALOG = 'type items @table(name: "items") {\n  id: Int! @pk\n  name: String\n  phantom: String\n}\ntype ghosts @table(name: "ghosts") {\n  id: Int! @pk\n}\n';

let two: TwoSources;
let t: TestApp;
beforeAll(async () => {
  two = await startTwoSources({ name: 'svc_missing', catalog: CATALOG, duckSql: TABLE, pgSql: TABLE });
  t = two.app;
}, 60_000);
afterAll(() => two?.close());

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
