// Tables and columns a catalog names but the database lacks (issue 15 item 10 made them warnings;
// issue 29 item 2 makes them load errors: the source does not load, its status names the table and
// the column with the catalog file and line, and the first sign is no longer a database error at
// query time). Both dialects.
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
    it(`are load errors on ${source}, naming the table and the column with file and line`, async () => {
      const status = await t.gql(`{ function { core { data_source_status(name: "${source}") } } }`);
      const s: string = status.body.data.function.core.data_source_status;
      expect(s).toMatch(/^failed: /);
      const problems = s.slice('failed: '.length).split('; ').sort();
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(new RegExp(`^field "phantom" of "items" \\(.*schema\\.graphql:4\\): column "phantom" of table "${schema}\\.items" does not exist$`));
      expect(problems[1]).toMatch(new RegExp(`^table "${schema}\\.ghosts" of "ghosts" \\(.*schema\\.graphql:6\\) does not exist in the database$`));
      const served = await t.gql(`{ ${source}_items { id name } }`);
      expect(served.body.errors[0].message).toBe(`Cannot query field "${source}_items" on type "Query".`);
    });
  }
});
