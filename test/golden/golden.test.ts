// Golden cases (DESIGN.md §3.9): test/golden/<area>/<case>/ holds request.graphql, optional
// variables.json, expected.json (the whole response, the same on every dialect) and
// expected.<dialect>.sql (the statements sent, one per root field). Rewritten only with UPDATE_GOLDEN=1.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';
import { expectGolden } from '../support/golden.js';

const ROOT = import.meta.dirname;
// 'write' runs last: its cases change the data, in order, and read back what they wrote.
const AREAS = ['read', 'aggregate', 'write'];

/**
 * Cases that do not run on MySQL / MariaDB, and why (docs/mysql.md lists the same). Each one is
 * still asked of MySQL, and must answer with an error naming what is missing, never other data.
 */
const NOT_ON_MYSQL: Readonly<Record<string, string>> = {
  'read/engine-table-function': 'MariaDB has no generate_series (its sequence engine is a storage engine, not a function)',
  'read/functions': 'functions returning rows (is_table): MySQL has no table functions, and rows of an sql template have no JSON form without their column names',
  'read/geometry': 'geometry: MariaDB spatial functions have no GeoJSON transforms and measurements matching PostGIS; Geometry columns are not served on mysql',
  'aggregate/geometry': 'geometry aggregations (union, extent, intersection)',
};

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects({}, { mysql: true });
}, 120_000);
afterAll(() => dialects?.close());

const update = process.env.UPDATE_GOLDEN === '1' && !process.env.CI;

for (const area of AREAS) {
  const dir = join(ROOT, area);
  if (!existsSync(dir)) continue;
  describe(area, () => {
    for (const name of readdirSync(dir).sort()) {
      const caseDir = join(dir, name);
      it(name, async () => {
        const query = readFileSync(join(caseDir, 'request.graphql'), 'utf8');
        const varsFile = join(caseDir, 'variables.json');
        const variables = existsSync(varsFile) ? JSON.parse(readFileSync(varsFile, 'utf8')) : undefined;
        let first: unknown;
        for (const d of dialects.all) {
          d.statements.length = 0;
          const r = await d.app.gql(query, variables);
          if (d.name === 'mysql' && NOT_ON_MYSQL[`${area}/${name}`]) {
            expect(r.body.errors?.length, `mysql answered ${area}/${name}, which NOT_ON_MYSQL lists: ${r.text}`).toBeGreaterThan(0);
            continue;
          }
          expect(r.status, `${d.name}: ${r.text}`).toBe(200);
          if (first === undefined) {
            first = r.body;
            expectGolden(join(caseDir, 'expected.json'), `${JSON.stringify(r.body, null, 2)}\n`);
          }
          // JSON object key order may differ between dialects (jsonb sorts keys); values may not.
          if (!update) expect(r.body, d.name).toEqual(JSON.parse(readFileSync(join(caseDir, 'expected.json'), 'utf8')));
          expectGolden(join(caseDir, `expected.${d.name}.sql`), `${d.statements.join(';\n\n')}${d.statements.length ? ';\n' : ''}`);
        }
      });
    }
  });
}
