// Geometry on both dialects (SPEC §4, §4.1, §4.2): PostGIS on PostgreSQL, JavaScript functions on
// DuckDB. Where GEOS and our clipping may order a polygon's vertices differently (union,
// intersection, buffer, hull), the answers are compared as point sets; the exact shapes of
// simpler answers are in test/golden/{read,aggregate}/geometry.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

type Pos = number[];
interface Geo { type: string; coordinates?: unknown; geometries?: Geo[] }

/** Each ring or line as a sorted set of rounded vertices, so vertex order and start do not matter. */
function shape(g: Geo | null): unknown {
  if (!g) return g;
  if (g.geometries) return { type: g.type, parts: g.geometries.map(shape) };
  const key = (p: Pos) => `${p.map((n) => Math.round(n * 1e6) / 1e6).join(' ')}`;
  const ring = (r: Pos[]) => [...new Set(r.map(key))].sort();
  const c = g.coordinates as any;
  switch (g.type) {
    case 'Point': return { type: g.type, c: c.length ? key(c) : [] };
    case 'MultiPoint': case 'LineString': return { type: g.type, c: ring(c) };
    case 'MultiLineString': case 'Polygon': return { type: g.type, c: c.map(ring).sort() };
    case 'MultiPolygon': return { type: g.type, c: c.map((p: Pos[][]) => p.map(ring).sort()).sort() };
    default: return g;
  }
}

async function both(query: string): Promise<Record<string, any>[]> {
  const answers = [];
  for (const d of dialects.all) {
    const r = await d.app.gql(query);
    expect(r.body.errors, d.name).toBeUndefined();
    answers.push(r.body.data);
  }
  return answers;
}

it('unions and intersects polygons to the same point sets as PostGIS', async () => {
  const [duck, pg] = await both(`{
    all: shop_stores_aggregation { delivery_area { union intersection } }
    overlapping: shop_stores_aggregation(filter: { id: { in: [1, 3] } }) { delivery_area { union intersection } }
    apart: shop_stores_aggregation(filter: { id: { in: [1, 2] } }) { delivery_area { union intersection } }
  }`);
  for (const k of ['all', 'overlapping', 'apart']) {
    expect(shape(duck![k].delivery_area.union), k).toEqual(shape(pg![k].delivery_area.union));
    expect(shape(duck![k].delivery_area.intersection), k).toEqual(shape(pg![k].delivery_area.intersection));
  }
  // Two overlapping squares: an L-shaped octagon; their intersection is the shared square.
  expect(shape(duck!.overlapping.delivery_area.intersection)).toEqual(shape({ type: 'Polygon', coordinates: [[[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]]] }));
  expect(duck!.apart.delivery_area.union.type).toBe('MultiPolygon');
});

it('buffers, hulls, simplifies and reprojects like PostGIS', async () => {
  const [duck, pg] = await both(`{ shop_stores_by_pk(id: 1) {
    hull: delivery_area(transforms: [ConvexHull])
    grown: delivery_area(buffer: 1)
    shrunk: delivery_area(buffer: -1)
    dot: location(transforms: [Buffer], buffer: 0.5)
    collapsed: delivery_area(simplify_factor: 10)
    kept: delivery_area(transforms: [SimplifyTopology], simplify_factor: 0.5)
    mercator: location(transforms: [Transform], to: 3857)
    area: _delivery_area_measurement(type: Area)
  } }`);
  const d = duck!.shop_stores_by_pk;
  const p = pg!.shop_stores_by_pk;
  expect(shape(d.hull)).toEqual(shape(p.hull));
  expect(shape(d.shrunk)).toEqual(shape(p.shrunk));
  // Simplified past its size, a polygon collapses to NULL (PostGIS drops collapsed polygons).
  expect(d.collapsed).toBeNull();
  expect(p.collapsed).toBeNull();
  expect(shape(d.kept)).toEqual(shape(p.kept));
  expect(d.kept.type).toBe('Polygon');
  // Buffers approximate arcs with 8 segments per quarter circle on both sides.
  expect(d.grown.coordinates[0].length).toBe(p.grown.coordinates[0].length);
  expect(d.dot.coordinates[0].length).toBe(p.dot.coordinates[0].length);
  expect(d.mercator.crs).toEqual({ type: 'name', properties: { name: 'EPSG:3857' } });
  expect(d.mercator.coordinates[0]).toBeCloseTo(p.mercator.coordinates[0], 3);
  expect(d.mercator.coordinates[1]).toBeCloseTo(p.mercator.coordinates[1], 3);
  expect(d.area).toBe(16);
});

it('measures on the spheroid as PostGIS does, to a millionth', async () => {
  const [duck, pg] = await both(`{ shop_stores_by_pk(id: 2) {
    area: _delivery_area_measurement(type: AreaSpheroid)
    perimeter: _delivery_area_measurement(type: PerimeterSpheroid)
    mercator: _delivery_area_measurement(type: Area, transform: true, to: 3857)
  } }`);
  for (const k of ['area', 'perimeter', 'mercator']) {
    const [a, b] = [duck!.shop_stores_by_pk[k], pg!.shop_stores_by_pk[k]];
    expect(Math.abs(a - b) / b, k).toBeLessThan(1e-6);
  }
});

it('stores GeoJSON and WKT input and reads it back as GeoJSON, in mutations and filters', async () => {
  for (const d of dialects.all) {
    const r = await d.app.gql(`mutation {
      a: insert_shop_stores(data: { id: 20, name: "Kiosk", location: { type: "Point", coordinates: [2.5, 1.5] } }) { id location }
      b: insert_shop_stores(data: { id: 21, name: "Van", location: "POINT(7 7)", delivery_area: "POLYGON((6 6, 9 6, 9 9, 6 9, 6 6))" }) { delivery_area }
    }`);
    expect(r.body.errors, d.name).toBeUndefined();
    expect(r.body.data.a, d.name).toEqual({ id: 20, location: { type: 'Point', coordinates: [2.5, 1.5] } });
    expect(r.body.data.b.delivery_area, d.name).toEqual({ type: 'Polygon', coordinates: [[[6, 6], [9, 6], [9, 9], [6, 9], [6, 6]]] });
    const q = await d.app.gql('{ shop_stores(filter: { delivery_area: { contains: "POINT(7.5 8.5)" } }) { id } }');
    expect(q.body.data.shop_stores, d.name).toEqual([{ id: 21 }]);
    const u = await d.app.gql('mutation { update_shop_stores(filter: { id: { eq: 20 } }, data: { location: "POINT(0 0)" }) { affected_rows } }');
    expect(u.body.errors, d.name).toBeUndefined();
    const back = await d.app.gql('{ shop_stores_by_pk(id: 20) { location } }');
    expect(back.body.data.shop_stores_by_pk.location, d.name).toEqual({ type: 'Point', coordinates: [0, 0] });
    await d.app.gql('mutation { delete_shop_stores(filter: { id: { in: [20, 21] } }) { affected_rows } }');
  }
});

it('refuses a geometry it cannot read with a clear error, and keeps serving', async () => {
  const duck = dialects.all.find((d) => d.name === 'duckdb')!;
  const r = await duck.app.gql('{ shop_stores(filter: { location: { intersects: "POINT(1" } }) { id } }');
  expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  expect(r.body.errors[0].message).toMatch(/^invalid Geometry value: invalid geometry text "POINT\(1"/);
  const m = await duck.app.gql('mutation { insert_shop_stores(data: { id: 30, name: "X", location: { type: "Point", coordinates: "x" } }) { id } }');
  expect(m.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  const none = await duck.app.gql('{ shop_stores_by_pk(id: 30) { id } }');
  expect(none.body.data.shop_stores_by_pk).toBeNull();
  const bad = await duck.app.gql('{ shop_stores_by_pk(id: 1) { location(transforms: [Transform], to: 999999) } }');
  expect(bad.body.errors[0].message).toMatch(/unknown SRID 999999/);
  const ok = await duck.app.gql('{ shop_stores_by_pk(id: 1) { name } }');
  expect(ok.body.data.shop_stores_by_pk.name).toBe('Camden');
});
