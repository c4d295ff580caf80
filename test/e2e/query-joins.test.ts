// `_join(fields:)` and `_spatial(field:, type:, buffer:)` within one source, on DuckDB (the
// JavaScript geometry functions) and PostgreSQL (PostGIS): SPEC §4, issue 19 item 3.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoSources, type TwoSources } from '../support/two-sources.js';

const CATALOG = `type zones @table(name: "zones") {
  id: Int! @pk
  name: String
  area: Geometry
}

type places @table(name: "places") {
  id: Int! @pk
  name: String
  zone_id: Int
  spot: Geometry
}
`;
const rows = `INSERT INTO zones VALUES (1, 'north', 'POLYGON((0 10, 10 10, 10 20, 0 20, 0 10))'), (2, 'south', 'POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))');
INSERT INTO places VALUES (1, 'a', 1, 'POINT(5 15)'), (2, 'b', 2, 'POINT(5 5)'), (3, 'c', 2, 'POINT(20 5)'), (4, 'd', NULL, 'POINT(10.001 5)');`;
const DUCK = `CREATE TABLE zones (id INTEGER PRIMARY KEY, name VARCHAR, area VARCHAR);
CREATE TABLE places (id INTEGER PRIMARY KEY, name VARCHAR, zone_id INTEGER, spot VARCHAR);
${rows}`;
const PG = `CREATE EXTENSION IF NOT EXISTS postgis;
CREATE TABLE zones (id int PRIMARY KEY, name text, area geometry(Geometry, 4326));
CREATE TABLE places (id int PRIMARY KEY, name text, zone_id int, spot geometry(Geometry, 4326));
${rows.replaceAll(/'((?:POLYGON|POINT)[^']*)'/g, "ST_GeomFromText('$1', 4326)")}`;

let t: TwoSources;
const statements: string[] = [];
beforeAll(async () => {
  t = await startTwoSources({ name: 'svc_qjoins', catalog: CATALOG, duckSql: DUCK, pgSql: PG });
  t.app.runtime.executor.observe((_source, sql) => statements.push(sql));
}, 60_000);
afterAll(() => t?.close());

async function data(query: string) {
  statements.length = 0;
  const r = await t.app.gql(query);
  expect(r.body.errors, r.text).toBeUndefined();
  return r.body.data;
}

for (const p of ['duck', 'pg']) {
  describe(p, () => {
    it('_join by fields: rows, aggregations and buckets of any object, in one statement', async () => {
      const d = await data(`{ ${p}_zones(order_by: [{field: "id"}]) { id _join(fields: ["id"]) {
        ${p}_places(fields: ["zone_id"], order_by: [{field: "id"}]) { id name }
        ${p}_places_aggregation(fields: ["zone_id"]) { _rows_count }
        ${p}_places_bucket_aggregation(fields: ["zone_id"]) { key { name } aggregations { _rows_count } }
      } } }`);
      expect(d[`${p}_zones`]).toEqual([
        { id: 1, _join: { [`${p}_places`]: [{ id: 1, name: 'a' }], [`${p}_places_aggregation`]: { _rows_count: 1 }, [`${p}_places_bucket_aggregation`]: [{ key: { name: 'a' }, aggregations: { _rows_count: 1 } }] } },
        { id: 2, _join: { [`${p}_places`]: [{ id: 2, name: 'b' }, { id: 3, name: 'c' }], [`${p}_places_aggregation`]: { _rows_count: 2 }, [`${p}_places_bucket_aggregation`]: expect.arrayContaining([{ key: { name: 'b' }, aggregations: { _rows_count: 1 } }, { key: { name: 'c' }, aggregations: { _rows_count: 1 } }]) } },
      ]);
      expect(statements.length).toBe(1);
    });

    it('_join with inner and a filter', async () => {
      const d = await data(`{ ${p}_places(order_by: [{field: "id"}]) { id _join(fields: ["zone_id"]) { ${p}_zones(fields: ["id"], inner: true, filter: {name: {eq: "south"}}) { name } } } }`);
      expect(d[`${p}_places`]).toEqual([{ id: 2, _join: { [`${p}_zones`]: [{ name: 'south' }] } }, { id: 3, _join: { [`${p}_zones`]: [{ name: 'south' }] } }]);
    });

    it('_spatial WITHIN, CONTAINS, INTERSECTS and DISJOIN', async () => {
      const d = await data(`{ ${p}_zones(order_by: [{field: "name"}]) { name
        within: _spatial(field: "area", type: WITHIN) { ${p}_places(field: "spot", order_by: [{field: "name"}]) { name } }
        apart: _spatial(field: "area", type: DISJOIN) { ${p}_places(field: "spot", order_by: [{field: "name"}]) { name } }
        touching: _spatial(field: "area", type: INTERSECTS) { ${p}_places_aggregation(field: "spot") { _rows_count } }
      } }`);
      expect(d[`${p}_zones`]).toEqual([
        { name: 'north', within: { [`${p}_places`]: [{ name: 'a' }] }, apart: { [`${p}_places`]: [{ name: 'b' }, { name: 'c' }, { name: 'd' }] }, touching: { [`${p}_places_aggregation`]: { _rows_count: 1 } } },
        { name: 'south', within: { [`${p}_places`]: [{ name: 'b' }] }, apart: { [`${p}_places`]: [{ name: 'a' }, { name: 'c' }, { name: 'd' }] }, touching: { [`${p}_places_aggregation`]: { _rows_count: 1 } } },
      ]);
      const c = await data(`{ ${p}_places(order_by: [{field: "name"}]) { name _spatial(field: "spot", type: CONTAINS) { ${p}_zones(field: "area") { name } } } }`);
      expect(c[`${p}_places`].map((x: any) => x._spatial[`${p}_zones`]?.map((z: any) => z.name) ?? null)).toEqual([['north'], ['south'], null, null]);
      expect(statements.length).toBe(1);
    });

    it('_spatial DWITHIN takes a buffer in metres', async () => {
      const d = await data(`{ ${p}_zones(order_by: [{field: "name"}]) { name _spatial(field: "area", type: DWITHIN, buffer: 200) { ${p}_places(field: "spot", order_by: [{field: "name"}]) { name } } } }`);
      expect(d[`${p}_zones`]).toEqual([
        { name: 'north', _spatial: { [`${p}_places`]: [{ name: 'a' }] } },
        { name: 'south', _spatial: { [`${p}_places`]: [{ name: 'b' }, { name: 'd' }] } },
      ]);
    });

    it('bad arguments are refused with a clear error', async () => {
      const r = await t.app.gql(`{ ${p}_zones { _spatial(field: "name", type: WITHIN) { ${p}_places(field: "spot") { id } } } }`);
      expect(r.body.errors[0].message).toBe(`_spatial(field:): "name" of "${p}_zones" is not a Geometry field`);
      const j = await t.app.gql(`{ ${p}_zones { _join(fields: ["id"]) { ${p}_places(fields: ["zone_id", "id"]) { id } } } }`);
      expect(j.body.errors[0].message).toMatch(/names 1 fields of ".*_zones" but ".*_places" names 2/);
    });
  });
}
