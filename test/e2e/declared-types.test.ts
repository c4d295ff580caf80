// Issue 29 item 2: declared scalars checked against the database's column types when a DuckDB,
// PostgreSQL or MySQL source loads, and naive timestamps served as Timestamp read as UTC (the
// Tokyo query of the issue answered 1961-06-01T14:30:00-09:00 before).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

const EVENTS = `CREATE TABLE events (id INTEGER PRIMARY KEY, name VARCHAR(20), starts TIMESTAMP, starts_tz TIMESTAMPTZ, day DATE, n BIGINT, price DECIMAL(10,2));
INSERT INTO events VALUES (1, 'launch', TIMESTAMP '1961-06-01 23:30:00', TIMESTAMPTZ '1961-06-01 23:30:00+00', DATE '1961-06-01', 5, 9.50);`;
const EVENTS_MYSQL = `CREATE TABLE events (id INT PRIMARY KEY, name VARCHAR(20), starts DATETIME, starts_tz TIMESTAMP NULL, day DATE, n BIGINT, price DECIMAL(10,2));
INSERT INTO events VALUES (1, 'launch', '1961-06-01 23:30:00', '1971-06-01 23:30:00', '1961-06-01', 5, 9.50);`;

const GOOD = `type events @table(name: "events") {
  id: Int! @pk
  name: String
  starts: Timestamp
  starts_tz: Timestamp
  day: Date
  n: Int
  price: Float
  doubled: Float @sql(exp: "[price] * 2")
}
`;

const BAD = `type events @table(name: "events") {
  id: Int! @pk
  name: Int
  starts: Date
  day: Boolean
  price: Int
  ends: Timestamp
  total: Float @sql(exp: "[qty] * [price]")
}

type ghosts @table(name: "ghosts") {
  id: Int! @pk
}
`;

let pgDb: TestDatabase;
let myDb: TestMysqlDatabase;
let t: TestApp;

beforeAll(async () => {
  pgDb = await createTestDatabase('svc_types');
  await pgDb.exec(EVENTS);
  myDb = await createMysqlDatabase('svc_types');
  await myDb.exec(EVENTS_MYSQL);
  const root = join(tempDir(), 'catalogs');
  const sources: [string, string, string][] = [
    ['duck', 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n', GOOD],
    ['pg', `type: postgres\npath: "${pgDb.url}"\n`, GOOD],
    ['my', `type: mysql\npath: "${myDb.url}"\n`, GOOD],
    ['duck_bad', 'type: duckdb\npath: ":memory:"\nseed: seed.sql\n', BAD],
    ['pg_bad', `type: postgres\npath: "${pgDb.url}"\n`, BAD],
    ['my_bad', `type: mysql\npath: "${myDb.url}"\n`, BAD],
  ];
  for (const [name, yaml, catalog] of sources) {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'source.yaml'), `${yaml}prefix: ${name}\n`);
    writeFileSync(join(root, name, 'schema.graphql'), catalog);
    writeFileSync(join(root, name, 'seed.sql'), EVENTS);
  }
  t = await startApp({ CATALOGS_DIR: root });
}, 90_000);

afterAll(async () => {
  await t?.close();
  await pgDb?.drop();
  await myDb?.drop();
});

async function status(name: string): Promise<string> {
  const r = await t.gql(`{ function { core { data_source_status(name: "${name}") } } }`);
  return r.body.data.function.core.data_source_status;
}

describe('naive timestamps served as Timestamp are instants in UTC', () => {
  const query = (p: string) => `{ ${p}_events { starts starts_tz hour: _starts_part(extract: hour) day: starts(bucket: day) } }`;
  for (const p of ['duck', 'pg']) {
    it(`${p}: in Tokyo and Berlin, with the offset of that date, hour parts and day buckets in the zone's day`, async () => {
      const tokyo = await t.gql(query(p), undefined, { 'X-Svc-Timezone': 'Asia/Tokyo' });
      expect(tokyo.body.data, tokyo.text).toEqual({
        [`${p}_events`]: [{ starts: '1961-06-02T08:30:00+09:00', starts_tz: '1961-06-02T08:30:00+09:00', hour: 8, day: '1961-06-02T00:00:00+09:00' }],
      });
      // Berlin had no summer time in 1961: +01:00 in June.
      const berlin = await t.gql(query(p), undefined, { 'Time-Zone': 'Europe/Berlin' });
      expect(berlin.body.data[`${p}_events`]).toEqual([{ starts: '1961-06-02T00:30:00+01:00', starts_tz: '1961-06-02T00:30:00+01:00', hour: 0, day: '1961-06-02T00:00:00+01:00' }]);
      const utc = await t.gql(query(p));
      expect(utc.body.data[`${p}_events`]).toEqual([{ starts: '1961-06-01T23:30:00Z', starts_tz: '1961-06-01T23:30:00Z', hour: 23, day: '1961-06-01T00:00:00Z' }]);
    });

    it(`${p}: a filter on the naive column compares instants`, async () => {
      const hit = await t.gql(`{ ${p}_events(filter: {starts: {gte: "1961-06-02T08:30:00+09:00"}}) { id } }`);
      expect(hit.body.data[`${p}_events`]).toEqual([{ id: 1 }]);
      const miss = await t.gql(`{ ${p}_events(filter: {starts: {gt: "1961-06-02T08:30:00+09:00"}}) { id } }`);
      expect(miss.body.data[`${p}_events`]).toEqual([]);
    });
  }

  it('my: a DATETIME served as Timestamp is UTC too', async () => {
    const r = await t.gql('{ my_events { starts starts_tz } }');
    expect(r.body.data, r.text).toEqual({ my_events: [{ starts: '1961-06-01T23:30:00Z', starts_tz: '1971-06-01T23:30:00Z' }] });
  });
});

describe('declarations the database cannot carry', () => {
  const tables: Record<string, () => string> = { duck_bad: () => 'main.events', pg_bad: () => 'public.events', my_bad: () => `${myDb.name}.events` };
  for (const [name, tableOf] of Object.entries(tables)) {
    it(`${name}: refused at load, naming file:line, the column, both types and the scalar that fits`, async () => {
      const table = tableOf();
      const s = await status(name);
      expect(s).toMatch(/^failed: /);
      const line = (n: number) => new RegExp(`schema\\.graphql:${n}\\)`);
      const problems = s.slice('failed: '.length).split('; ');
      const about = (field: string) => problems.find((p) => p.startsWith(`field "${field}" of "events"`)) ?? '';
      expect(about('name')).toMatch(line(3));
      expect(about('name')).toContain(`column "name" of table "${table}" is`);
      expect(about('name')).toMatch(/is (VARCHAR|character varying|varchar\(20\)), which cannot carry the declared Int: declare it String$/);
      expect(about('starts')).toMatch(line(4));
      expect(about('starts')).toMatch(/is (TIMESTAMP|timestamp without time zone|datetime), which cannot carry the declared Date: declare it DateTime \(or Timestamp, read as UTC\)$/);
      expect(about('day')).toMatch(/is (DATE|date), which cannot carry the declared Boolean: declare it Date$/);
      expect(about('price')).toMatch(/is (DECIMAL\(10,2\)|numeric|decimal\(10,2\)), which cannot carry the declared Int: declare it Float$/);
      expect(about('ends')).toMatch(line(7));
      expect(about('ends')).toContain(`column "ends" of table "${table}" does not exist`);
      // A computed field whose expression the database cannot run (here: no column qty).
      expect(about('total')).toMatch(line(8));
      expect(about('total')).toContain(`its @sql expression does not run on table "${table}": `);
      expect(problems.find((p) => p.startsWith('table '))).toMatch(new RegExp(`^table "${table.replace('events', 'ghosts').replace('.', '\\.')}" of "ghosts" \\(.*schema\\.graphql:11\\) does not exist in the database$`));
      // The source is not served; the good sources are.
      const r = await t.gql(`{ ${name}_events { id } }`);
      expect(r.body.errors?.[0]?.message).toContain(`Cannot query field "${name}_events"`);
    });
  }

  it('a BIGINT served as Int loads, with a warning in data_source_status', async () => {
    for (const name of ['duck', 'pg', 'my']) {
      const s = await status(name);
      expect(s).toMatch(/^loaded with 1 warning: field "n" of "events" \(.*schema\.graphql:7\): column "n" of table "[a-z0-9_.]*events" is (BIGINT|bigint|bigint\(20\)), declared Int: a value beyond 2\^31-1 fails the query; BigInt fits$/);
    }
  });
});
