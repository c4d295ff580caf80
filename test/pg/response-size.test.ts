// MAX_RESPONSE_ROWS on PostgreSQL (issue 31): a root list asked for more rows than the limit makes
// the database stop one row past it, so the answer is refused without PostgreSQL building, or the
// server reading, the rest. The view below fails on its 1001st row: a statement that reads past
// the cap answers that error instead of RESPONSE_TOO_LARGE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { catalogDir, registerSource } from './support.js';

let db: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  db = await createTestDatabase('svc_rsize');
  await db.exec(`CREATE VIEW numbers AS SELECT CASE WHEN g > 1000 THEN g / (g - g) ELSE g END AS n FROM generate_series(1, 200000) AS g;
    CREATE TABLE small AS SELECT g AS n FROM generate_series(1, 300) AS g;`);
  t = await startApp({ MAX_RESPONSE_ROWS: '500' });
  const catalog = catalogDir(`type numbers @view(name: "numbers") { n: Int! }
type small @table(name: "small") { n: Int! @pk }`);
  expect((await registerSource(t, { name: 'rs', path: db.url, catalog })).success).toBe(true);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('MAX_RESPONSE_ROWS on PostgreSQL', () => {
  for (const limit of ['limit: 5000000', 'limit: null']) {
    it(`stops the database one row past the limit (${limit})`, async () => {
      const r = await t.gql(`{ rs_numbers(${limit}) { n } }`);
      expect(r.body.data, r.text).toEqual({ rs_numbers: null });
      expect(r.body.errors?.[0], r.text).toMatchObject({ path: ['rs_numbers'], extensions: { code: 'RESPONSE_TOO_LARGE' } });
      expect(r.body.errors?.[0]?.message).toContain('MAX_RESPONSE_ROWS');
    });
  }

  it('answers lists under the limit as they are, and keeps serving', async () => {
    const r = await t.gql('{ rs_small(limit: 5000000, order_by: [{field: "n"}]) { n } rs_numbers(limit: 3) { n } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.rs_small).toHaveLength(300);
    expect(r.body.data.rs_small.at(-1)).toEqual({ n: 300 });
    expect(r.body.data.rs_numbers).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });
});
