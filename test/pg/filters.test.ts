// Filter operators on PostgreSQL (SPEC §4.1): JSON, list scalars, ranges and geometry, each with
// a case that matches and one that does not.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/pg.js';
import { data, fixtureDatabase, registerSource } from './support.js';

let db: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  db = await fixtureDatabase('types.sql');
  t = await startApp();
  expect((await registerSource(t, { name: 'pgf', path: db.url, catalog: join(FIXTURES, 'pg/types'), prefix: 'f' })).success).toBe(true);
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

/** Ids of the rows of `object` matching `filter` (a GraphQL input value written as text). */
async function ids(object: 'f_kinds' | 'f_spans', filter: string): Promise<number[]> {
  const d = await data(t, `{ ${object}(filter: ${filter}, order_by: [{field: "id"}]) { id } }`);
  return d[object].map((r: { id: number }) => r.id);
}

type Case = [string, number[]];

const KINDS: Record<string, Case[]> = {
  'JSON (jsonb and json columns)': [
    ['{raw: {eq: {x: "y", n: null}}}', [1]],
    ['{raw: {eq: {x: "y"}}}', []],
    ['{doc: {eq: []}}', [2]],
    ['{doc: {has: "a"}}', [1]],
    ['{doc: {has: "zzz"}}', []],
    ['{raw: {has: "x"}}', [1]],
    ['{doc: {has_all: ["a", "b"]}}', [1]],
    ['{doc: {has_all: ["a", "q"]}}', []],
    ['{doc: {contains: {b: {c: [1]}}}}', [1]],
    ['{doc: {contains: {a: 2}}}', []],
    ['{raw: {contains: {x: "y"}}}', [1]],
    ['{raw: {contains: {x: "z"}}}', []],
    ['{doc: {is_null: true}}', [3]],
    ['{raw: {is_null: false}}', [1, 2]],
  ],
  'list scalars': [
    ['{tags: {eq: ["red", "green"]}}', [1]],
    ['{tags: {eq: ["green", "red"]}}', []],
    ['{tags: {eq: []}}', [2]],
    ['{tags: {contains: ["green"]}}', [1]],
    ['{tags: {contains: ["green", "blue"]}}', []],
    ['{tags: {intersects: ["blue", "red"]}}', [1]],
    ['{tags: {intersects: ["blue"]}}', []],
    ['{nums: {contains: [3, 1]}}', [1]],
    ['{nums: {intersects: [9]}}', []],
    ['{nums: {eq: [1, 2, 3]}}', [1]],
    ['{tags: {is_null: true}}', [3]],
    ['{nums: {is_null: false}}', [1, 2]],
  ],
  'integer ranges': [
    ['{ir: {eq: "[1,5)"}}', [1]],
    ['{ir: {eq: "[1,4]"}}', [1]],
    ['{ir: {eq: "[1,6)"}}', []],
    ['{ir: {includes: "[2,4)"}}', [1]],
    ['{ir: {includes: "[3,100)"}}', [2]],
    ['{ir: {includes: "[0,2)"}}', []],
    ['{ir: {intersects: "[4,10)"}}', [1, 2]],
    ['{ir: {intersects: "[-5,1)"}}', []],
    ['{ir: {contains: 4}}', [1, 2]],
    ['{ir: {contains: 1000}}', [2]],
    ['{ir: {contains: 0}}', []],
    ['{ir: {excludes: 1}}', [2]],
    ['{ir: {excludes: 4}}', []],
    ['{ir: {upper: 5}}', [1]],
    ['{ir: {upper: 6}}', []],
    ['{ir: {lower: 3}}', [2]],
    ['{ir: {lower: 2}}', []],
    ['{br: {upper_inf: false}}', [1, 2]],
    ['{ir: {upper_inf: true}}', [2]],
    ['{br: {lower_inf: true}}', [2]],
    ['{ir: {lower_inf: true}}', []],
    ['{br: {contains: "-5"}}', [2]],
    ['{br: {contains: "9223372036854775806"}}', []],
    ['{ir: {is_null: true}}', [3]],
    ['{ir: {is_null: false}}', [1, 2]],
  ],
  'range literals as documented: spaces, open ends written empty or as ∞ (issue 18)': [
    ['{ir: {includes: "[2, 4]"}}', [1]],
    ['{ir: {includes: " (1, 4) "}}', [1]],
    ['{ir: {intersects: "[4, )"}}', [1, 2]],
    ['{ir: {intersects: "[5,∞)"}}', [2]],
    ['{ir: {intersects: "[5,+inf)"}}', [2]],
    ['{ir: {intersects: "(-∞,2]"}}', [1]],
    ['{ir: {intersects: "(-infinity, 0]"}}', []],
    ['{ir: {eq: "EMPTY"}}', []],
    ['{br: {includes: "(-∞, -5]"}}', [2]],
  ],
  'geometry and geography': [
    ['{geom: {eq: {type: "Point", coordinates: [1, 2]}}}', [1]],
    ['{geom: {eq: "POINT(1 3)"}}', []],
    ['{geom: {eq: "POLYGON((4 0, 4 4, 0 4, 0 0, 4 0))"}}', [2]],
    ['{geom: {eq: "SRID=4326;POINT(1 2)"}}', [1]],
    ['{geom: {intersects: {type: "Point", coordinates: [1, 2]}}}', [1, 2]],
    ['{geom: {intersects: "LINESTRING(-1 -1, -2 -2)"}}', []],
    ['{geom: {contains: "POINT(1 1)"}}', [2]],
    ['{geom: {contains: "POINT(5 5)"}}', []],
    ['{geom: {st_within: "POLYGON((0 0, 3 0, 3 3, 0 3, 0 0))"}}', [1]],
    ['{geom: {st_within: "POLYGON((10 10, 11 10, 11 11, 10 10))"}}', []],
    ['{geog: {intersects: "POINT(10 20)"}}', [1]],
    ['{geog: {st_within: "POLYGON((0 0, 30 0, 30 30, 0 30, 0 0))"}}', [1]],
    ['{geog: {contains: "POINT(10 21)"}}', []],
    ['{geog: {is_null: true}}', [2, 3]],
    ['{geom: {is_null: false}}', [1, 2]],
  ],
  'scalars of PostgreSQL types': [
    ['{span: {gt: "PT3H"}}', [2]],
    ['{span: {lte: "PT2H"}}', [1]],
    ['{big: {gt: 9000000000000000000}}', [2]],
    ['{amount: {lt: 0}}', [2]],
  ],
};

const SPANS: Case[] = [
  ['{r: {upper_inclusive: true}}', [1]],
  ['{r: {upper_inclusive: false}}', [2, 3]],
  ['{r: {lower_inclusive: true}}', [2]],
  ['{r: {lower_inclusive: false}}', [1, 3]],
  ['{r: {upper_inf: true}}', [2]],
  ['{r: {lower_inf: false}}', [1, 2, 3]],
  ['{r: {contains: "2025-01-07T00:00:00Z"}}', [1, 2]],
  ['{r: {contains: "2025-01-01T00:00:00Z"}}', []],
  ['{r: {excludes: "2025-01-02T00:00:00+01:00"}}', [2, 3]],
  ['{r: {upper: "2025-01-10T01:00:00+01:00"}}', [1]],
  ['{r: {lower: "2025-01-05T00:00:00Z"}}', [2]],
  ['{r: {lower: "2025-01-01T00:00:01Z"}}', []],
  ['{r: {eq: "empty"}}', [3]],
  ['{r: {includes: "[2025-01-06T00:00:00Z,2025-01-08T00:00:00Z]"}}', [1, 2]],
  ['{r: {intersects: "[2025-02-01T00:00:00Z,)"}}', [2]],
  ['{n: {contains: 5}}', [1]],
  ['{n: {includes: "[2,3)"}}', [1]],
  ['{r: {intersects: "[2025-02-01T00:00:00Z, ∞)"}}', [2]],
  ['{r: {intersects: "(-infinity, 2025-01-02T00:00:00Z)"}}', [1]],
  ['{r: {includes: "[2025-01-06T00:00:00Z, 2025-01-08T00:00:00Z]"}}', [1, 2]],
];

describe('PostgreSQL filters', () => {
  for (const [group, cases] of Object.entries(KINDS)) {
    describe(group, () => {
      for (const [filter, expected] of cases) {
        it(`${filter} -> [${expected}]`, async () => {
          expect(await ids('f_kinds', filter)).toEqual(expected);
        });
      }
    });
  }
  describe('range bounds', () => {
    for (const [filter, expected] of SPANS) {
      it(`${filter} -> [${expected}]`, async () => {
        expect(await ids('f_spans', filter)).toEqual(expected);
      });
    }
  });

  it('refuses a range it cannot read with its own message, before the database sees it', async () => {
    for (const [filter, scalar] of [['{ir: {includes: "[1;3]"}}', 'IntRange'], ['{br: {intersects: "[a,b)"}}', 'BigIntRange'], ['{ir: {eq: "1..3"}}', 'IntRange']]) {
      const r = await t.gql(`{ f_kinds(filter: ${filter}) { id } }`);
      expect(r.status).toBe(200);
      expect(r.body.errors?.[0]?.message).toMatch(new RegExp(`^invalid ${scalar} value .*: write \\[lower,upper\\], \\(lower,upper\\)`));
      expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it('answers a tstzrange as PostgreSQL writes it (as hugr answers), and takes that text back as a filter value', async () => {
    const { f_spans_by_pk: row } = await data(t, '{ f_spans_by_pk(id: 2) { r } }');
    expect(row.r).toMatch(/^\["\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00",\)$/);
    expect(await ids('f_spans', `{r: {eq: ${JSON.stringify(row.r)}}}`)).toEqual([2]);
  });

  it('renders an empty range as "empty"', async () => {
    expect((await data(t, '{ f_spans_by_pk(id: 3) { r n } }')).f_spans_by_pk).toEqual({ r: 'empty', n: 'empty' });
  });

  it('refuses invalid geometry text and geometry of another SRID with a client error', async () => {
    const bad = await t.gql('{ f_kinds(filter: {geom: {eq: "NOT A SHAPE"}}) { id } }');
    expect(bad.body.errors?.[0]?.message).toMatch(/^pgf: invalid geometry value \(GeoJSON or WKT expected, one SRID\)/);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('QUERY_FAILED');
    const srid = await t.gql('{ f_kinds(filter: {geom: {intersects: "SRID=3857;POINT(1 2)"}}) { id } }');
    expect(srid.body.errors?.[0]?.message).toMatch(/^pgf: invalid geometry value \(GeoJSON or WKT expected, one SRID\)/);
  });

  it('binds every operand as a parameter (no value in the SQL text)', async () => {
    const seen: string[] = [];
    const stop = t.runtime.executor.observe((source, sql) => { if (source === 'pgf') seen.push(sql); });
    await ids('f_kinds', '{geom: {contains: "POINT(1 1)"}, ir: {contains: 4}, doc: {has: "a\'b"}}');
    stop();
    expect(seen.at(-1), seen.at(-1)).not.toMatch(/POINT|a''b|[^$\d]4\b/);
  });
});
