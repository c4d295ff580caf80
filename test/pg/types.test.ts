// Wire formats of every PostgreSQL type (SPEC §3.4) read and written through a source registered
// at run time: exact JSON per type, edge values, NULLs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/pg.js';
import { data, fixtureDatabase, registerSource } from './support.js';
import { join } from 'node:path';

let db: TestDatabase;
let t: TestApp;

const ALL = 'id small big amount exact ratio dbl flag label code uid mood tags nums doc raw ir br tr span day at_time ts naive geom geog';

beforeAll(async () => {
  db = await fixtureDatabase('types.sql');
  t = await startApp();
  expect(await registerSource(t, { name: 'pgtypes', path: db.url, catalog: join(FIXTURES, 'pg/types'), prefix: 'pt' })).toEqual({ success: true, message: 'data source "pgtypes" loaded' });
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('PostgreSQL wire formats', () => {
  it('renders every type of a full row', async () => {
    const d = await data(t, `{ pt_kinds_by_pk(id: 1) { ${ALL} } }`);
    expect(d.pt_kinds_by_pk).toEqual({
      id: 1, small: 7, big: 42, amount: 1234567.891234, exact: expect.anything(), ratio: 1.5, dbl: 0.1, flag: true,
      label: 'plain', code: 'A1', uid: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', mood: 'happy',
      tags: ['red', 'green'], nums: [1, 2, 3],
      doc: { a: 1, b: { c: [1, 2] }, big: expect.anything() }, raw: { x: 'y', n: null },
      ir: '[1,5)', br: '[10,21)', tr: '["2025-01-01 00:00:00+00","2025-02-01 00:00:00+00")', span: 'PT2H',
      day: '2025-03-15', at_time: '09:00:00', ts: '2025-03-15T09:00:00Z', naive: '2025-03-15T09:00:00.250000',
      geom: { type: 'Point', coordinates: [1, 2] }, geog: { type: 'Point', coordinates: [10, 20] },
    });
  });

  it('keeps integers beyond 2^53 exact, in BigInt columns and inside JSON', async () => {
    const r = await t.gql('{ pt_kinds(order_by: [{field: "id"}], limit: 2) { id big exact doc } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.text).toContain('"big":9223372036854775807');
    expect(r.text).toContain('"exact":12345678901234567890123');
    expect(r.text).toContain('"exact":-99999999999999999999999999999999999999');
    expect(r.text).toContain('"big":9007199254740993');
  });

  it('renders edge values: extremes, empty arrays, infinite range bounds, a polygon', async () => {
    const d = await data(t, `{ pt_kinds_by_pk(id: 2) { ${ALL.replace(/\b(big|exact) /g, '')} } }`);
    expect(d.pt_kinds_by_pk).toEqual({
      id: 2, small: -32768, amount: -0.000000000012345, ratio: -3.25, dbl: 1e300, flag: false,
      label: 'edge "quoted"', code: '', uid: '00000000-0000-0000-0000-000000000000', mood: 'sad',
      tags: [], nums: [], doc: [], raw: [1, 'two'],
      ir: '[3,)', br: '(,100)', tr: '["2025-06-01 12:30:00+00",)', span: 'P1DT2H',
      day: '1999-12-31', at_time: '23:59:59.5', ts: '2024-02-29T23:59:59.123456Z', naive: '2000-01-01T00:00:00',
      geom: { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]] }, geog: null,
    });
  });

  it('renders NULL of every type as null', async () => {
    const d = await data(t, `{ pt_kinds_by_pk(id: 3) { ${ALL} } }`);
    const expected = Object.fromEntries(ALL.split(' ').map((k) => [k, null]));
    expect(d.pt_kinds_by_pk).toEqual({ ...expected, id: 3 });
  });

  it('renders timestamp range bounds as PostgreSQL does with the request time zone as its session zone', async () => {
    const r = await t.gql('{ pt_kinds(order_by: [{field: "id"}]) { id tr ts } }', undefined, { 'X-Svc-Timezone': 'Asia/Tokyo' });
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    expect(r.body.data.pt_kinds).toEqual([
      { id: 1, tr: '["2025-01-01 09:00:00+09","2025-02-01 09:00:00+09")', ts: '2025-03-15T18:00:00+09:00' },
      { id: 2, tr: '["2025-06-01 21:30:00+09",)', ts: '2024-03-01T08:59:59.123456+09:00' },
      { id: 3, tr: null, ts: null },
    ]);
    // A zone half an hour off: PostgreSQL writes minutes in the offset only when there are some.
    const k = await t.gql('{ pt_kinds_by_pk(id: 2) { tr } }', undefined, { 'X-Svc-Timezone': 'Asia/Kolkata' });
    expect(k.body.data.pt_kinds_by_pk.tr).toBe('["2025-06-01 18:00:00+05:30",)');
  });

  it('aggregates geometry values as GeoJSON', async () => {
    const d = await data(t, '{ pt_kinds_aggregation { geom { count list any } } }');
    expect(d.pt_kinds_aggregation.geom.count).toBe(2);
    expect(d.pt_kinds_aggregation.geom.list).toHaveLength(2);
    expect(d.pt_kinds_aggregation.geom.list).toContainEqual({ type: 'Point', coordinates: [1, 2] });
  });

  it('writes every type and reads the same values back', async () => {
    const ins = await t.gql(`mutation($big: BigInt, $geom: Geometry) { insert_pt_kinds(data: {
        id: 10, small: 1, big: $big, amount: 2.5, exact: "123456789012345678901", ratio: 0.5, dbl: -1.25, flag: true,
        label: "new", code: "Z9", uid: "11111111-2222-3333-4444-555555555555", mood: "sad",
        tags: ["a", "b"], nums: [], doc: {k: [1, {deep: true}]}, raw: {r: 1},
        ir: "[2,8)", br: "(,5]", tr: "[2025-01-01T10:00:00+02:00,)", span: "P1DT2H30M",
        day: "2025-12-31", at_time: "12:34:56", ts: "2025-05-05T05:05:05+02:00", naive: "2025-05-05T05:05:05",
        geom: $geom, geog: "POINT(-9.1 38.7)"}) { id big exact tags nums doc raw ir br tr span ts geom geog uid mood } }`,
      { big: '9223372036854775806', geom: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } });
    expect(ins.body.errors).toBeUndefined();
    expect(ins.text, ins.text).toContain('"big":9223372036854775806');
    expect(ins.text).toContain('"exact":123456789012345678901');
    expect(ins.body.data.insert_pt_kinds).toMatchObject({
      id: 10, tags: ['a', 'b'], nums: [], doc: { k: [1, { deep: true }] }, raw: { r: 1 },
      ir: '[2,8)', br: '(,6)', tr: '["2025-01-01 08:00:00+00",)', span: 'P1DT2H30M', ts: '2025-05-05T03:05:05Z',
      geom: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, geog: { type: 'Point', coordinates: [-9.1, 38.7] },
      uid: '11111111-2222-3333-4444-555555555555', mood: 'sad',
    });
    const upd = await t.gql('mutation { update_pt_kinds(filter: {id: {eq: 10}}, data: {mood: "happy", uid: "99999999-2222-3333-4444-555555555555", geom: "SRID=4326;POINT(5 5)"}) { affected_rows } }');
    expect(upd.body.errors).toBeUndefined();
    expect(upd.body.data.update_pt_kinds.affected_rows).toBe(1);
    const d = await data(t, '{ pt_kinds_by_pk(id: 10) { mood uid geom } }');
    expect(d.pt_kinds_by_pk).toEqual({ mood: 'happy', uid: '99999999-2222-3333-4444-555555555555', geom: { type: 'Point', coordinates: [5, 5] } });
    const bad = await t.gql('mutation { insert_pt_kinds(data: {id: 11, mood: "angry"}) { id } }');
    expect(bad.body.errors[0].message).toMatch(/pgtypes: invalid input value/);
    await t.gql('mutation { delete_pt_kinds(filter: {id: {eq: 10}}) { affected_rows } }');
  });
});
