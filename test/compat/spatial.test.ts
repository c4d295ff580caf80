// hugr's "Spatial Queries (_spatial)" and "H3 Hexagonal Clustering" pages (issue 32) on the northwind fixture's stores (points) and
// zones (polygons), a DuckDB source: svc's own geometry functions stand in for DuckDB's spatial
// extension (DESIGN.md §1). Zones: South (0..5), North (8..12), Empty (20..21), Strip (x 3..9, y -1..9);
// stores: Harbour (1 1), Hill (10 10), Quay (1.5 1), Ridge (30 30).
import { latLngToCell } from 'h3-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { data, startNorthwind } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind();
}, 60_000);
afterAll(() => t?.close());

const ids = (rows: { id: number }[] | null | undefined) => (rows ?? []).map((r) => r.id);
const perZone = (zones: any[], pick: (z: any) => unknown) => zones.map((z) => [z.name, pick(z)]);

describe('docs/5-graphql/1-queries/9-spatial.md', () => {
  it('relationship types: WITHIN, CONTAINS, INTERSECTS, DISJOIN, DWITHIN (buffer in metres)', async () => {
    const d = await data(t, `{
      zones(order_by: [{field: "id"}]) {
        id name boundary
        inside: _spatial(field: "boundary", type: WITHIN) { stores(field: "location", order_by: [{field: "id"}]) { id name } }
        crossing: _spatial(field: "boundary", type: INTERSECTS) { zones(field: "boundary", order_by: [{field: "id"}]) { id } }
        apart: _spatial(field: "boundary", type: DISJOIN) { zones(field: "boundary", order_by: [{field: "id"}]) { id } }
      }
      stores(order_by: [{field: "id"}]) {
        id
        _spatial(field: "location", type: CONTAINS) { zones(field: "boundary") { name } }
        near: _spatial(field: "location", type: DWITHIN, buffer: 100000) { stores(field: "location", order_by: [{field: "id"}]) { id } }
      }
    }`);
    expect(perZone(d.zones, (z) => ids(z.inside.stores))).toEqual([['South', [1, 3]], ['North', [2]], ['Empty', []], ['Strip', []]]);
    expect(perZone(d.zones, (z) => ids(z.crossing.zones))).toEqual([['South', [1, 4]], ['North', [2, 4]], ['Empty', [3]], ['Strip', [1, 2, 4]]]);
    expect(perZone(d.zones, (z) => ids(z.apart.zones))).toEqual([['South', [2, 3]], ['North', [1, 3]], ['Empty', [1, 2, 4]], ['Strip', [3]]]);
    expect(d.zones[0].boundary.type).toBe('Polygon');
    // About 55 km between Harbour and Quay; the others are far apart.
    expect(d.stores.map((s: any) => [s.id, s._spatial.zones?.map((z: any) => z.name) ?? [], ids(s.near.stores)])).toEqual([
      [1, ['South'], [1, 3]], [2, ['North'], [2]], [3, ['South'], [1, 3]], [4, [], [4]],
    ]);
  });

  it('the reverse pairs match nothing, as in PostGIS: a store point containing a zone, a zone within a store point', async () => {
    // turf has no rule for a point or line containing something of higher dimension: these answered
    // "geometry filter "contains" is not supported for Point and Polygon on duckdb sources".
    const d = await data(t, `{
      zones(order_by: [{field: "id"}]) { id _spatial(field: "boundary", type: CONTAINS) { stores(field: "location") { id } } }
      stores(order_by: [{field: "id"}]) { id _spatial(field: "location", type: WITHIN) { zones(field: "boundary") { id } } }
      points: stores(filter: {location: {contains: {type: "Polygon", coordinates: [[[0, 0], [5, 0], [5, 5], [0, 5], [0, 0]]]}}}) { id }
      lines: zones(filter: {boundary: {st_within: {type: "LineString", coordinates: [[0, 0], [9, 9]]}}}) { id }
    }`);
    expect(d.zones.map((z: any) => z._spatial.stores)).toEqual([null, null, null, null]);
    expect(d.stores.map((s: any) => s._spatial.zones)).toEqual([null, null, null, null]);
    expect(d.points).toEqual([]);
    expect(d.lines).toEqual([]);
  });

  it('filters (before the spatial match, through relations too), order_by and limit before, nested_* per parent', async () => {
    const d = await data(t, `{
      zones(filter: {id: {in: [1, 2]}}, order_by: [{field: "id"}]) {
        id name
        shops: _spatial(field: "boundary", type: WITHIN) { stores(field: "location", filter: {_and: [{store_type: {in: ["shop", "kiosk"]}} {revenue: {gte: 50}}]}) { id } }
        first: _spatial(field: "boundary", type: WITHIN) { stores(field: "location", order_by: [{field: "revenue", direction: ASC}], limit: 2) { id revenue } }
        top: _spatial(field: "boundary", type: WITHIN) { stores(field: "location", nested_order_by: [{field: "revenue", direction: DESC}], nested_limit: 1, nested_offset: 0) { id revenue } }
      }
    }`);
    expect(perZone(d.zones, (z) => ids(z.shops.stores))).toEqual([['South', [3]], ['North', [2]]]);
    // The two lowest revenues overall are Ridge (10, in no zone) and Hill (50).
    expect(perZone(d.zones, (z) => ids(z.first.stores))).toEqual([['South', []], ['North', [2]]]);
    expect(perZone(d.zones, (z) => ids(z.top.stores))).toEqual([['South', [1]], ['North', [2]]]);
  });

  it('inner: true keeps only parents with spatial matches; default keeps all', async () => {
    const d = await data(t, `{
      all: zones(order_by: [{field: "id"}]) { id _spatial(field: "boundary", type: WITHIN) { stores(field: "location") { id } } }
      matched: zones(order_by: [{field: "id"}]) { id _spatial(field: "boundary", type: WITHIN) { stores(field: "location", filter: {store_type: {eq: "shop"}}, inner: true) { id } } }
    }`);
    expect(ids(d.all)).toEqual([1, 2, 3, 4]);
    expect(ids(d.matched)).toEqual([1, 2]);
  });

  it('aggregates spatial matches: single row, filtered, in buckets', async () => {
    const d = await data(t, `{
      zones(filter: {id: {in: [1, 3]}}, order_by: [{field: "id"}]) {
        id name
        _spatial(field: "boundary", type: WITHIN) {
          stores_aggregation(field: "location") { _rows_count revenue { sum avg } }
          shops: stores_aggregation(field: "location", filter: {store_type: {eq: "shop"}}) { _rows_count revenue { sum } }
          stores_bucket_aggregation(field: "location", order_by: [{field: "aggregations.revenue.sum", direction: DESC}]) { key { store_type } aggregations { _rows_count revenue { sum } } }
        }
      }
    }`);
    expect(d.zones[0]._spatial).toEqual({
      stores_aggregation: { _rows_count: 2, revenue: { sum: 170, avg: 85 } },
      shops: { _rows_count: 1, revenue: { sum: 70 } },
      stores_bucket_aggregation: [
        { key: { store_type: 'outlet' }, aggregations: { _rows_count: 1, revenue: { sum: 100 } } },
        { key: { store_type: 'shop' }, aggregations: { _rows_count: 1, revenue: { sum: 70 } } },
      ],
    });
    expect(d.zones[1]._spatial.stores_aggregation).toBeNull();
  });

  it('_spatial with _join inside, and nested _spatial levels', async () => {
    const d = await data(t, `{
      zones(filter: {id: {eq: 1}}) {
        _spatial(field: "boundary", type: WITHIN) {
          stores(field: "location", order_by: [{field: "id"}]) { id _join(fields: ["store_type"]) { stores(fields: ["store_type"], order_by: [{field: "id"}]) { id } } }
        }
        overlapping: _spatial(field: "boundary", type: INTERSECTS) {
          zones(field: "boundary", order_by: [{field: "id"}]) { id _spatial(field: "boundary", type: WITHIN) { stores(field: "location", order_by: [{field: "id"}]) { id } } }
        }
      }
    }`);
    const [z] = d.zones;
    expect(z._spatial.stores.map((s: any) => [s.id, ids(s._join.stores)])).toEqual([[1, [1, 4]], [3, [2, 3]]]);
    expect(z.overlapping.zones.map((o: any) => [o.id, ids(o._spatial.stores)])).toEqual([[1, [1, 3]], [4, []]]);
  });

  it('the page\'s DISJOINT is hugr\'s DISJOIN; _spatial in aggregations and bucket keys is not offered (documented differences)', async () => {
    const disjoint = await t.gql('{ zones { _spatial(field: "boundary", type: DISJOINT) { zones(field: "boundary") { id } } } }');
    expect(disjoint.body.errors[0].message).toMatch(/DISJOINT/);
    const inAgg = await t.gql('{ zones_aggregation { _rows_count _spatial(field: "boundary", type: WITHIN) { stores_aggregation(field: "location") { _rows_count } } } }');
    expect(inAgg.body.errors[0].message).toBe('Cannot query field "_spatial" on type "_zones_aggregation".');
    const inKey = await t.gql('{ stores_bucket_aggregation { key { _spatial(field: "location", type: CONTAINS) { zones(field: "boundary") { name } } } aggregations { _rows_count } } }');
    expect(inKey.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('geometry transforms on the field (hugr\'s schema: transforms, buffer) and measurements', async () => {
    const d = await data(t, `{
      stores_by_pk(id: 1) {
        location
        grown: location(transforms: [Buffer], buffer: 1)
        _area_measurement(type: Area)
        _spatial(field: "location", type: INTERSECTS) { zones(field: "boundary") { id } }
      }
    }`);
    expect(d.stores_by_pk.location).toEqual({ type: 'Point', coordinates: [1, 1] });
    expect(d.stores_by_pk.grown.type).toBe('Polygon');
    expect(d.stores_by_pk._area_measurement).toBe(16);
    expect(ids(d.stores_by_pk._spatial.zones)).toEqual([1]);
  });
});

describe('docs/5-graphql/1-queries/10-h3-clustering.md', () => {
  // Each row counts in the cell of its geometry's centroid (docs/system.md), computed here with h3-js.
  const cellOf = (lng: number, lat: number, res: number) => latLngToCell(lat, lng, res);
  const STORES: [number, number, string, number][] = [[1, 1, 'outlet', 100], [10, 10, 'shop', 50], [1.5, 1, 'shop', 70], [30, 30, 'outlet', 10]];

  it('single-row and bucket aggregations per cell; inner keeps the cells with rows', async () => {
    const d = await data(t, `{
      h3(resolution: 6) {
        cell resolution
        data {
          stores: stores_aggregation(field: "location", inner: true) { _rows_count revenue { sum avg } }
          by_type: stores_bucket_aggregation(field: "location", inner: true) { key { store_type } aggregations { _rows_count revenue { sum } } }
          zones: zones_aggregation(field: "boundary") { _rows_count }
        }
      }
    }`);
    const expected = new Map(STORES.map(([lng, lat, type, revenue]) => [cellOf(lng, lat, 6), { type, revenue }]));
    expect(d.h3.map((c: any) => c.cell).sort()).toEqual([...expected.keys()].sort());
    for (const c of d.h3) {
      const s = expected.get(c.cell)!;
      expect(c.resolution).toBe(6);
      expect(c.data.stores).toEqual({ _rows_count: 1, revenue: { sum: s.revenue, avg: s.revenue } });
      expect(c.data.by_type).toEqual([{ key: { store_type: s.type }, aggregations: { _rows_count: 1, revenue: { sum: s.revenue } } }]);
    }
    // The North zone's centroid (10 10) is Hill's cell; no zone centroid lies in the other stores' cells.
    const hill = d.h3.find((c: any) => c.cell === cellOf(10, 10, 6));
    expect(hill.data.zones).toEqual({ _rows_count: 1 });
    expect(d.h3.find((c: any) => c.cell === cellOf(1, 1, 6)).data.zones).toBeNull();
  });

  it('filters before aggregating; coarser resolutions gather more rows in a cell', async () => {
    const d = await data(t, `{
      h3(resolution: 2) {
        cell
        data { shops: stores_aggregation(field: "location", filter: {store_type: {eq: "shop"}}, inner: true) { _rows_count revenue { sum } } }
      }
    }`);
    const cells = new Map<string, number>();
    for (const [lng, lat, type, revenue] of STORES) if (type === 'shop') cells.set(cellOf(lng, lat, 2), (cells.get(cellOf(lng, lat, 2)) ?? 0) + revenue);
    expect(new Map(d.h3.map((c: any) => [c.cell, c.data.shops.revenue.sum]))).toEqual(cells);
  });

  it('divide_values and distribution_by / distribution_by_bucket are not offered (documented difference)', async () => {
    const divide = await t.gql('{ h3(resolution: 6) { cell data { zones_aggregation(field: "boundary", divide_values: false) { _rows_count } } } }');
    expect(divide.body.errors[0].message).toMatch(/divide_values/);
    const dist = await t.gql('{ h3(resolution: 6) { cell distribution_by(numerator: "a", denominator: "b") { value } } }');
    expect(dist.body.errors[0].message).toMatch(/distribution_by/);
  });
});
