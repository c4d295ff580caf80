// Geometry transforms and measurement fields (SPEC §4) on PostGIS (DuckDB: test/e2e/geometry.test.ts).
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/pg.js';
import { data, fixtureDatabase, registerSource } from './support.js';

let db: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  db = await fixtureDatabase('types.sql');
  t = await startApp();
  expect(await registerSource(t, { name: 'pgtypes', path: db.url, catalog: join(FIXTURES, 'pg/types'), prefix: 'pt' })).toEqual({ success: true, message: 'data source "pgtypes" loaded' });
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

it('applies transforms in order: centroid, envelope, convex hull, buffer, simplify', async () => {
  const d = await data(t, `{ pt_kinds_by_pk(id: 2) {
    c: geom(transforms: [Centroid])
    e: geom(transforms: [Envelope])
    h: geom(transforms: [ConvexHull, Centroid])
    f: geom(transforms: [Centroid, FlipCoordinates])
    b: _geom_measurement(type: Area)
    buffered: geom(transforms: [Centroid, Buffer], buffer: 1, simplify_factor: 0.5)
  } }`);
  const g = d.pt_kinds_by_pk;
  expect(g.c).toEqual({ type: 'Point', coordinates: [2, 2] });
  expect(g.e).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]]] });
  expect(g.h).toEqual({ type: 'Point', coordinates: [2, 2] });
  expect(g.f).toEqual({ type: 'Point', coordinates: [2, 2] });
  expect(g.b).toBe(16);
  expect(g.buffered.type).toBe('Polygon');
});

it('measures areas, lengths and perimeters, planar and on the spheroid', async () => {
  const d = await data(t, `{ pt_kinds_by_pk(id: 2) {
    area: _geom_measurement(type: Area)
    perimeter: _geom_measurement(type: Perimeter)
    length: _geom_measurement(type: Length)
    sphere: _geom_measurement(type: AreaSpheroid)
    mercator: _geom_measurement(type: Area, transform: true, to: 3857)
  } }`);
  const m = d.pt_kinds_by_pk;
  expect(m.area).toBe(16);
  expect(m.perimeter).toBe(16);
  expect(m.length).toBe(0);
  // 4 x 4 degrees near the equator: about 197,000 square kilometres.
  expect(m.sphere).toBeGreaterThan(1.9e11);
  expect(m.sphere).toBeLessThan(2.0e11);
  expect(m.mercator).toBeGreaterThan(1.9e11);
});

it('transforms between reference systems and reports bad arguments clearly', async () => {
  const d = await data(t, '{ pt_kinds_by_pk(id: 1) { geom(transforms: [Transform], to: 3857) } }');
  expect(d.pt_kinds_by_pk.geom.coordinates[0]).toBeCloseTo(111319.49, 1);
  const r = await t.gql('{ pt_kinds_by_pk(id: 1) { geom(transforms: [Transform]) } }');
  expect(r.body.errors[0].message).toBe('geometry "to" needs an SRID');
});

it('aggregates geometries through the GraphQL surface, with filters and buckets', async () => {
  const d = await data(t, `{
    pt_kinds_aggregation { geom { count union extent intersection } }
    only: pt_kinds_aggregation(filter: { id: { eq: 1 } }) { geom { extent } }
    pt_kinds_bucket_aggregation(order_by: [{ field: "key.id", direction: ASC }]) { key { id } aggregations { geom { union } } }
  }`);
  expect(d.pt_kinds_aggregation.geom).toEqual({
    count: 2,
    union: { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]] },
    extent: { type: 'Polygon', coordinates: [[[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]]] },
    intersection: { type: 'Point', coordinates: [1, 2] },
  });
  expect(d.only.geom.extent).toEqual({ type: 'Point', coordinates: [1, 2] });
  expect(d.pt_kinds_bucket_aggregation.map((b: any) => b.aggregations.geom.union?.type ?? null)).toEqual(['Point', 'Polygon', null]);
});
