// hugr's data types page (docs/4-engine-configuration/3-schema-definition/1-data-types.md, issue 32):
// Time values as `HH:MM:SS` on every dialect, and PostgreSQL's range types with the page's operators:
// a range *contains* a value and *includes* another range (hugr's IntRangeFilter: contains: Int,
// includes: IntRange), range input as "[lower, upper]" with RFC 3339 bounds, and range values
// answered as PostgreSQL writes them (hugr reads them through PostgreSQL's own text).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { startSources, type Sources } from '../support/sources.js';
import { data } from './support.js';

const TIME_SCHEMA = 'type shifts @table(name: "shifts") {\n  id: Int! @pk\n  starts: Time\n}\n';

let s: Sources;
let my: TestMysqlDatabase;

beforeAll(async () => {
  my = await createMysqlDatabase('svc_compat_types');
  await my.exec("CREATE TABLE shifts (id INT PRIMARY KEY, starts TIME(6)); INSERT INTO shifts VALUES (1, '09:00:00'), (2, '17:30:00.5'), (3, NULL);");
  s = await startSources({
    name: 'svc_compat_types',
    pgSql: [
      'CREATE TABLE shifts (id integer PRIMARY KEY, starts time, period tstzrange, seats int4range);',
      "INSERT INTO shifts VALUES (1, '09:00:00', '[2025-01-01 00:00:00+00,2025-02-01 00:00:00+00)', '[1,10)'),",
      "  (2, '17:30:00.5', '[2025-03-01 00:00:00+00,)', '[20,30)'), (3, NULL, NULL, NULL);",
    ].join('\n'),
    sources: [
      {
        name: 'duck',
        yaml: 'type: duckdb\npath: duck.duckdb\ncreate: true\nseed: seed.sql\nprefix: duck\n',
        schema: TIME_SCHEMA,
        seed: "CREATE TABLE shifts (id INTEGER PRIMARY KEY, starts TIME); INSERT INTO shifts VALUES (1, '09:00:00'), (2, '17:30:00.5'), (3, NULL);",
      },
      {
        name: 'pg',
        yaml: 'type: postgres\npath: "[$PG]"\nprefix: pg\n',
        schema: 'type shifts @table(name: "shifts") {\n  id: Int! @pk\n  starts: Time\n  period: TimestampRange\n  seats: IntRange\n}\n',
      },
      { name: 'my', yaml: `type: mysql\npath: "${my.url}"\nprefix: my\n`, schema: TIME_SCHEMA },
    ],
  });
}, 90_000);

afterAll(async () => {
  await s?.close();
  await my?.drop();
});

const ids = async (query: string): Promise<number[]> => Object.values(await data(s.app, query))[0].map((r: { id: number }) => r.id);

describe('Time values are HH:MM:SS (fractions only when present) on every dialect', () => {
  for (const dialect of ['duck', 'pg', 'my']) {
    it(dialect, async () => {
      const d = await data(s.app, `{ ${dialect}_shifts(order_by: [{field: "id"}]) { id starts } }`);
      expect(d[`${dialect}_shifts`]).toEqual([{ id: 1, starts: '09:00:00' }, { id: 2, starts: '17:30:00.5' }, { id: 3, starts: null }]);
      expect(await ids(`{ ${dialect}_shifts(filter: {starts: {gte: "12:00:00"}}) { id } }`)).toEqual([2]);
    });
  }
});

describe('PostgreSQL ranges as the page documents them', () => {
  it('contains: the range contains a value (a timestamp, an integer)', async () => {
    expect(await ids('{ pg_shifts(filter: {period: {contains: "2025-01-15T00:00:00Z"}}) { id } }')).toEqual([1]);
    expect(await ids('{ pg_shifts(filter: {seats: {contains: 25}}) { id } }')).toEqual([2]);
  });

  it('includes: the range includes another range, written "[lower, upper]" with RFC 3339 bounds', async () => {
    expect(await ids('{ pg_shifts(filter: {period: {includes: "[2025-01-02T00:00:00Z, 2025-01-03T00:00:00Z]"}}, order_by: [{field: "id"}]) { id } }')).toEqual([1]);
    expect(await ids('{ pg_shifts(filter: {seats: {includes: "[2, 5]"}}) { id } }')).toEqual([1]);
    // Bounds in single quotes, as hugr's range parser reads them.
    expect(await ids("{ pg_shifts(filter: {period: {includes: \"['2025-01-02T00:00:00Z', '2025-01-03T00:00:00Z')\"}}) { id } }")).toEqual([1]);
    expect(await ids("{ pg_shifts(filter: {seats: {includes: \"['2','5']\"}}) { id } }")).toEqual([1]);
    // hugr's structured forms: a list (both bounds included) and {lower, upper, type}, as literals and variables.
    expect(await ids('{ pg_shifts(filter: {seats: {includes: [2, 9]}}) { id } }')).toEqual([1]);
    expect(await ids('{ pg_shifts(filter: {seats: {includes: [2, 10]}}) { id } }')).toEqual([]);
    expect(await ids('{ pg_shifts(filter: {seats: {includes: {lower: 2, upper: 10, type: "[)"}}}) { id } }')).toEqual([1]);
    const v = await data(s.app, 'query($r: TimestampRange) { pg_shifts(filter: {period: {includes: $r}}) { id } }', { r: { lower: '2025-03-02T00:00:00Z', upper: null, type: '[)' } });
    expect(v.pg_shifts).toEqual([{ id: 2 }]);
  });

  it('intersects, upper, lower, upper_inf and lower_inclusive', async () => {
    expect(await ids('{ pg_shifts(filter: {period: {intersects: "[2025-01-31T00:00:00Z, 2025-03-02T00:00:00Z)"}}, order_by: [{field: "id"}]) { id } }')).toEqual([1, 2]);
    expect(await ids('{ pg_shifts(filter: {seats: {upper: 10}}) { id } }')).toEqual([1]);
    expect(await ids('{ pg_shifts(filter: {seats: {lower: 20}}) { id } }')).toEqual([2]);
    expect(await ids('{ pg_shifts(filter: {period: {upper_inf: true}}) { id } }')).toEqual([2]);
    expect(await ids('{ pg_shifts(filter: {period: {lower_inclusive: true}}, order_by: [{field: "id"}]) { id } }')).toEqual([1, 2]);
  });

  it('answers range values as PostgreSQL writes them', async () => {
    const d = await data(s.app, '{ pg_shifts(order_by: [{field: "id"}]) { id period seats } }');
    expect(d.pg_shifts).toEqual([
      { id: 1, period: '["2025-01-01 00:00:00+00","2025-02-01 00:00:00+00")', seats: '[1,10)' },
      { id: 2, period: '["2025-03-01 00:00:00+00",)', seats: '[20,30)' },
      { id: 3, period: null, seats: null },
    ]);
  });
});
