// Geometry text on DuckDB sources: what svc reads (WKT, EWKT, GeoJSON, hex WKB), what it writes,
// and the shapes of union/extent/intersection that do not need PostGIS to check.
import { describe, expect, it } from 'vitest';
import { extent, intersection, union } from '../../src/sources/duckdb/geo/aggregates.js';
import { geoJsonText, parseGeometry, storedText } from '../../src/shared/geo/codec.js';
import { contains, equals, intersects } from '../../src/sources/duckdb/geo/predicates.js';
import { GeoError } from '../../src/shared/geo/types.js';

const square = (x: number, y: number, s: number) => parseGeometry(`POLYGON((${x} ${y}, ${x + s} ${y}, ${x + s} ${y + s}, ${x} ${y + s}, ${x} ${y}))`);

describe('reading and writing geometry text', () => {
  it('reads WKT, EWKT, GeoJSON (object or text, with a crs) and hex WKB alike', () => {
    const point = { type: 'Point', coordinates: [1, 2] };
    expect(parseGeometry('point(1 2)')).toEqual({ geometry: point, srid: 4326 });
    expect(parseGeometry('SRID=3857;POINT(1 2)')).toEqual({ geometry: point, srid: 3857 });
    expect(parseGeometry(point)).toEqual({ geometry: point, srid: 4326 });
    expect(parseGeometry('{"type":"Point","coordinates":[1,2],"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}}}')).toEqual({ geometry: point, srid: 3857 });
    expect(parseGeometry('0101000000000000000000f03f0000000000000040')).toEqual({ geometry: point, srid: 4326 });
  });

  it('writes WKT (EWKT off 4326) and GeoJSON as PostGIS does: 9 decimals, a short crs', () => {
    expect(storedText(parseGeometry({ type: 'LineString', coordinates: [[0, 0], [1.5, 2]] }))).toBe('LINESTRING(0 0,1.5 2)');
    expect(storedText(parseGeometry('SRID=3857;POINT(1 2)'))).toBe('SRID=3857;POINT(1 2)');
    expect(geoJsonText(parseGeometry('SRID=3857;POINT(1.1234567891234 -0)'))).toBe('{"type":"Point","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"coordinates":[1.123456789,0]}');
  });

  it('names what is wrong with a value it cannot read, without echoing all of it', () => {
    const bad: [unknown, RegExp][] = [
      ['POINT(1', /^invalid geometry text "POINT\(1": /],
      [`POLYGON((0 0, 1 0, 1 1, ${'2 2, '.repeat(50)}0 5))`, /^invalid geometry text "POLYGON\(\(0 0, 1 0, 1 1, 2 2, 2 2, 2 2, 2…": invalid Polygon: .*must be closed\)$/],
      [{ type: 'Point', coordinates: 'x' }, /^invalid Point: its coordinates must be 1-deep lists of numbers$/],
      [{ type: 'Circle' }, /needs a "type" of Point/],
      ['{"type":', /^invalid GeoJSON text$/],
      [42, /must be a GeoJSON object or a WKT string/],
    ];
    for (const [value, message] of bad) {
      expect(() => parseGeometry(value)).toThrow(GeoError);
      expect(() => parseGeometry(value)).toThrow(message);
    }
  });
});

describe('predicates and aggregations', () => {
  it('decides polygon pairs by clipping, holes included', () => {
    const holed = parseGeometry('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2))');
    expect(contains(holed, square(0.5, 0.5, 1))).toBe(true);
    expect(contains(holed, square(3, 3, 1))).toBe(false);
    expect(intersects(holed, square(3, 3, 1))).toBe(false);
    expect(equals(square(0, 0, 2), parseGeometry('POLYGON((2 2, 0 2, 0 0, 2 0, 2 2))'))).toBe(true);
    expect(() => intersects(square(0, 0, 1), parseGeometry('SRID=3857;POINT(0 0)'))).toThrow(/SRIDs differ/);
  });

  it('unions mixed values: points inside polygons vanish, the rest stay in a collection', () => {
    const u = union([square(0, 0, 2), parseGeometry('POINT(1 1)'), parseGeometry('POINT(5 5)'), parseGeometry('LINESTRING(9 9, 10 10)')]);
    expect(u!.geometry.type).toBe('GeometryCollection');
    expect((u!.geometry as any).geometries.map((g: any) => g.type)).toEqual(['Polygon', 'LineString', 'Point']);
    expect(union([])).toBeNull();
  });

  it('folds intersections and gives the extent as a box, a line or a point', () => {
    expect(intersection([square(0, 0, 4), square(2, 2, 4), parseGeometry('MULTIPOINT(3 3, 0 0)')])!.geometry).toEqual({ type: 'Point', coordinates: [3, 3] });
    expect(intersection([square(0, 0, 1), square(5, 5, 1)])!.geometry).toEqual({ type: 'Polygon', coordinates: [] });
    expect(() => intersection([parseGeometry('LINESTRING(0 0, 1 1)'), square(0, 0, 1)])).toThrow(/not supported on duckdb sources/);
    expect(extent([parseGeometry('POINT(1 2)'), parseGeometry('POINT(1 5)')])!.geometry).toEqual({ type: 'LineString', coordinates: [[1, 2], [1, 5]] });
  });
});

it('keeps the type of an empty intersection through further values, as PostGIS does', () => {
  const empty = intersection([square(0, 0, 1), square(5, 5, 1), square(0, 0, 9)]);
  expect(empty!.geometry).toEqual({ type: 'Polygon', coordinates: [] });
});
