// Geometry transforms and measurements of DuckDB sources. Expected values are PostGIS 3.3.2 /
// GEOS 3.11.1 / PROJ 9.1.1 answers (ST_AsText, ST_AsGeoJSON, ST_Area... of the same inputs),
// copied as literals: the tests do not need PostGIS.
import type { Geometry, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { measure, transform } from '../../src/sources/duckdb/geo/ops.js';
import { type Geo, GeoError, type TransformSpec } from '../../src/shared/geo/types.js';

const point = (x: number, y: number): Geometry => ({ type: 'Point', coordinates: [x, y] });
const multiPoint = (...c: Position[]): Geometry => ({ type: 'MultiPoint', coordinates: c });
const line = (...c: Position[]): Geometry => ({ type: 'LineString', coordinates: c });
const polygon = (...rings: Position[][]): Geometry => ({ type: 'Polygon', coordinates: rings });
const collection = (...geometries: Geometry[]): Geometry => ({ type: 'GeometryCollection', geometries });

const SQUARE_RINGS: Position[][] = [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]];
const SQUARE = polygon(...SQUARE_RINGS);
const HOLED = polygon([[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[1, 1], [1, 4], [4, 4], [4, 1], [1, 1]]);
const SEGMENT = line([0, 0], [3, 4]);
const PATH = line([0, 1], [3, 4], [3, 10]);

const run = (geometry: Geometry, transforms: string[], args: Omit<TransformSpec, 'transforms'> = {}): Geo | null =>
  transform({ geometry, srid: 4326 }, { transforms, ...args });
const shape = (geometry: Geometry, transforms: string[], args: Omit<TransformSpec, 'transforms'> = {}): Geometry | null =>
  run(geometry, transforms, args)?.geometry ?? null;

/** Every coordinate within 1e-9 (absolute or relative) of PostGIS's. */
function expectCoordinates(actual: unknown, expected: unknown): void {
  if (typeof expected === 'number') {
    expect(typeof actual).toBe('number');
    expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
    return;
  }
  expect(Array.isArray(actual)).toBe(true);
  expect((actual as unknown[]).length).toBe((expected as unknown[]).length);
  (expected as unknown[]).forEach((e, i) => expectCoordinates((actual as unknown[])[i], e));
}

const expectRelative = (actual: number, expected: number, tolerance = 1e-6) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));

const area = (g: Geometry | null) => measure({ geometry: g!, srid: 4326 }, 'Area');

describe('transform: Transform', () => {
  it('projects POINT(1 2) from 4326 to 3857 and back', () => {
    const out = run(point(1, 2), ['Transform'], { to: 3857 })!;
    expect(out.srid).toBe(3857);
    expect(out.geometry.type).toBe('Point');
    expectCoordinates((out.geometry as { coordinates: Position }).coordinates, [111319.49079327357, 222684.20850554405]);
    const back = transform(out, { transforms: ['Transform'], to: 4326 })!;
    expectCoordinates((back.geometry as { coordinates: Position }).coordinates, [0.9999999999999998, 2.000000000000005]);
  });

  it('projects every position of lines and collections, honouring "from" over the value SRID', () => {
    const l = run(line([-10, -20], [30, 45]), ['Transform'], { to: 3857 })!;
    expectCoordinates((l.geometry as { coordinates: Position[] }).coordinates, [[-1113194.9079327357, -2273030.9269876895], [3339584.723798207, 5621521.486192066]]);
    const gc = run(collection(point(1000000, 2000000), polygon([[0, 0], [100000, 0], [100000, 100000], [0, 0]])), ['Transform'], { from: 3857, to: 4326 })!;
    expect(gc.srid).toBe(4326);
    const [p, q] = (gc.geometry as { geometries: { coordinates: unknown }[] }).geometries;
    expectCoordinates(p!.coordinates, [8.983152841195214, 17.678914238335743]);
    expectCoordinates(q!.coordinates, [[[0, 0], [0.8983152841195214, 0], [0.8983152841195214, 0.8982784828192633], [0, 0]]]);
  });

  it('knows EPSG:4269, 3395 and the WGS84 UTM zones', () => {
    const c = (to: number, x: number, y: number) => (run(point(x, y), ['Transform'], { to })!.geometry as { coordinates: Position }).coordinates;
    expectCoordinates(c(4269, -100, 40), [-100, 40]);
    expectCoordinates(c(3395, 10, 50), [1113194.9079327357, 6413524.59416364]);
    expectCoordinates(c(32633, 14.5, 50.1), [464240.9241105748, 5549868.957357526]);
    expectCoordinates(c(32733, 14.5, -30.1), [451824.27352172375, 6670028.33059191]);
  });

  it('rejects missing or unknown SRIDs', () => {
    expect(() => run(point(1, 2), ['Transform'])).toThrow(GeoError);
    expect(() => run(point(1, 2), ['Transform'])).toThrow('geometry "to" needs an SRID');
    expect(() => run(point(1, 2), ['Transform'], { to: 3.5 })).toThrow('geometry "to" needs an SRID');
    expect(() => run(point(1, 2), ['Transform'], { to: 3857, from: -1 })).toThrow('geometry "from" needs an SRID');
    expect(() => run(point(1, 2), ['Transform'], { to: 2154 })).toThrow('unknown SRID 2154: only 4326, 4269, 3857, 3395 and UTM 326xx/327xx are known on duckdb sources');
    expect(() => run(point(1, 2), ['Transform'], { from: 27700, to: 4326 })).toThrow('unknown SRID 27700');
  });
});

describe('transform: Centroid', () => {
  const centroid = (g: Geometry) => (shape(g, ['Centroid']) as { coordinates: Position }).coordinates;

  it('weights polygons by area, holes subtracting', () => {
    expectCoordinates(centroid(HOLED), [5.247252747252747, 5.247252747252747]);
    expectCoordinates(centroid(SQUARE), [2, 2]);
    expectCoordinates(centroid({ type: 'MultiPolygon', coordinates: [SQUARE_RINGS, [[[10, 10], [12, 10], [12, 12], [10, 10]]]] }), [3.037037037037037, 2.962962962962963]);
  });

  it('weights lines by length and averages points', () => {
    expectCoordinates(centroid(line([0, 0], [3, 4], [3, 10])), [2.318181818181818, 4.727272727272728]);
    expectCoordinates(centroid(multiPoint([0, 0], [3, 4], [3, 10])), [2, 4.666666666666667]);
    expectCoordinates(centroid(point(3, 4)), [3, 4]);
  });

  it('uses the highest dimension with extent, as GEOS', () => {
    const unit = polygon([[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]);
    expectCoordinates(centroid(collection(point(100, 100), line([0, 0], [2, 0]), unit)), [0.5, 0.5]);
    expectCoordinates(centroid(collection(point(100, 100), line([0, 0], [2, 0]))), [1, 0]);
    expectCoordinates(centroid(polygon([[0, 0], [2, 0], [4, 0], [0, 0]])), [2, 0]);
    expectCoordinates(centroid(line([1, 1], [1, 1])), [1, 1]);
  });

  it('gives POINT EMPTY for empty input', () => {
    expect(shape(collection(), ['Centroid'])).toEqual({ type: 'Point', coordinates: [] });
  });
});

describe('transform: Buffer', () => {
  it('draws a point as a clockwise 32-gon from its east point', () => {
    const b = shape(point(0, 0), ['Buffer'], { buffer: 1 }) as { type: string; coordinates: Position[][] };
    expect(b.type).toBe('Polygon');
    expect(b.coordinates[0]).toHaveLength(33);
    expectCoordinates(b.coordinates[0]!.slice(0, 3), [[1, 0], [0.98078528040323, -0.195090322016128], [0.923879532511287, -0.38268343236509]]);
    expectRelative(area(b as Geometry), 3.121445152258052, 1e-12);
  });

  it('sweeps lines with round caps and joins', () => {
    expectRelative(area(shape(SEGMENT, ['Buffer'], { buffer: 1 })), 13.121445152258051);
    expectRelative(area(shape(line([0, 0], [10, 0], [10, 10]), ['Buffer'], { buffer: 1 })), 42.90180644032257);
    expectRelative(area(shape(multiPoint([0, 0], [1, 0]), ['Buffer'], { buffer: 1 })), 5.027745581368957);
    // Joins at any angle, reversals and closed lines take GEOS's arcs.
    expectRelative(area(shape(line([0, 0], [3, 4], [6, 0]), ['Buffer'], { buffer: 1 })), 22.708858328371328);
    expectRelative(area(shape(line([0, 0], [4, 0], [0, 0]), ['Buffer'], { buffer: 1 })), 11.12144515225805);
    expectRelative(area(shape(line([0, 0], [4, 0], [8, 0.1]), ['Buffer'], { buffer: 1 })), 19.12394280985006);
    expectRelative(area(shape(line([0, 0], [4, 0], [4, 4], [0, 4], [0, 0]), ['Buffer'], { buffer: 1 })), 31.121445152258048);
    expectRelative(area(shape(collection(point(0, 0), line([1, 0], [5, 2]), polygon([[3, 3], [6, 3], [6, 6], [3, 3]])), ['Buffer'], { buffer: 0.7 })), 21.851447960150438);
  });

  it('grows and shrinks polygons', () => {
    expectRelative(area(shape(SQUARE, ['Buffer'], { buffer: 1 })), 35.12144515225805);
    expect(shape(SQUARE, ['Buffer'], { buffer: -1 })).toEqual(polygon([[1, 1], [1, 3], [3, 3], [3, 1], [1, 1]]));
    expectRelative(area(shape(HOLED, ['Buffer'], { buffer: 0.5 })), 116.78036128806453);
    const shrunk = shape(HOLED, ['Buffer'], { buffer: -0.5 })!;
    expect(shrunk.type).toBe('MultiPolygon');
    expectRelative(area(shrunk), 65.21963871193549);
    expectRelative(area(shape(polygon([[0, 0], [4, 1], [1, 3], [0, 0]]), ['Buffer'], { buffer: 0.5 })), 11.7258190269315);
    expectRelative(area(shape(polygon([[0, 0], [4, 1], [1, 3], [0, 0]]), ['Buffer'], { buffer: -0.2 })), 3.537472097963504);
  });

  it('gives POLYGON EMPTY when nothing is left', () => {
    const empty = { type: 'Polygon', coordinates: [] };
    expect(shape(SQUARE, ['Buffer'], { buffer: -3 })).toEqual(empty);
    expect(shape(point(0, 0), ['Buffer'], { buffer: 0 })).toEqual(empty);
    expect(shape(SEGMENT, ['Buffer'], { buffer: -1 })).toEqual(empty);
  });

  it('is appended when "buffer" is given without the step, and needs a number', () => {
    expect(shape(SQUARE, [], { buffer: -1 })).toEqual(polygon([[1, 1], [1, 3], [3, 3], [3, 1], [1, 1]]));
    expect(() => run(SQUARE, ['Buffer'])).toThrow('geometry "buffer" needs a number');
  });
});

describe('transform: Simplify and SimplifyTopology', () => {
  const wiggly = line([0, 0], [1, 0.1], [2, -0.1], [3, 5], [4, 6], [5, 7.05], [6, 8]);
  const notched = polygon([[0, 0], [1, 0.1], [2, 0], [2, 2], [0, 2], [0, 0]]);
  const unit = polygon([[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]);

  it('runs Douglas-Peucker and drops what collapses (ST_Simplify)', () => {
    expect(shape(wiggly, ['Simplify'], { simplifyFactor: 0.5 })).toEqual(line([0, 0], [2, -0.1], [3, 5], [6, 8]));
    expect(shape(notched, ['Simplify'], { simplifyFactor: 0.5 })).toEqual(polygon([[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]));
    expect(shape(polygon([[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[1, 1], [1, 2], [2, 2], [2, 1], [1, 1]]), ['Simplify'], { simplifyFactor: 2 }))
      .toEqual(polygon([[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]));
    expect(shape(unit, ['Simplify'], { simplifyFactor: 10 })).toBeNull();
    expect(shape(line([0, 0], [0, 0.1], [0, 0]), ['Simplify'], { simplifyFactor: 10 })).toBeNull();
    expect(shape(line([1, 1], [1, 1]), ['Simplify'], { simplifyFactor: 10 })).toEqual(line([1, 1], [1, 1]));
    expect(shape(collection(point(0, 0), unit), ['Simplify'], { simplifyFactor: 10 })).toEqual(collection(point(0, 0)));
    expect(shape(multiPoint([0, 0], [0, 0.1]), ['Simplify'], { simplifyFactor: 10 })).toEqual(multiPoint([0, 0], [0, 0.1]));
  });

  it('keeps rings of at least 4 positions (ST_SimplifyPreserveTopology)', () => {
    expect(shape(wiggly, ['SimplifyTopology'], { simplifyFactor: 0.5 })).toEqual(line([0, 0], [2, -0.1], [3, 5], [6, 8]));
    expect(shape(notched, ['SimplifyTopology'], { simplifyFactor: 0.5 })).toEqual(polygon([[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]));
    expect(shape(unit, ['SimplifyTopology'], { simplifyFactor: 10 })).toEqual(unit);
    expect(shape(polygon([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [0, 2], [0, 0]]), ['SimplifyTopology'], { simplifyFactor: 10 }))
      .toEqual(polygon([[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]));
    expect(shape(line([0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [0, 2], [0, 0]), ['SimplifyTopology'], { simplifyFactor: 10 }))
      .toEqual(line([0, 0], [2, 0], [2, 2], [0, 2], [0, 0]));
    expect(shape(polygon([[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 3], [2, 3], [0, 3], [0, 0]]), ['SimplifyTopology'], { simplifyFactor: 10 }))
      .toEqual(polygon([[0, 0], [3, 0], [3, 3], [0, 3], [0, 0]]));
  });

  it('is appended when "simplify_factor" is given without the step, and needs a number', () => {
    expect(shape(wiggly, [], { simplifyFactor: 0.5 })).toEqual(line([0, 0], [2, -0.1], [3, 5], [6, 8]));
    expect(shape(unit, ['SimplifyTopology'], { simplifyFactor: 10 })).toEqual(unit);
    expect(() => run(wiggly, ['Simplify'])).toThrow('geometry "simplify_factor" needs a number');
    expect(() => run(wiggly, ['SimplifyTopology'])).toThrow('geometry "simplify_factor" needs a number');
  });
});

describe('transform: StartPoint, EndPoint, Reverse, FlipCoordinates', () => {
  it('takes start and end points as PostGIS 3.3 does', () => {
    expect(shape(PATH, ['StartPoint'])).toEqual(point(0, 1));
    expect(shape(PATH, ['EndPoint'])).toEqual(point(3, 10));
    // Since PostGIS 3.2 ST_StartPoint answers for any geometry; ST_EndPoint only for LineStrings.
    expect(shape(SQUARE, ['StartPoint'])).toEqual(point(0, 0));
    expect(shape(multiPoint([0, 1], [3, 4]), ['StartPoint'])).toEqual(point(0, 1));
    expect(shape(collection(point(9, 9), PATH), ['StartPoint'])).toEqual(point(9, 9));
    expect(shape(SQUARE, ['EndPoint'])).toBeNull();
    expect(shape({ type: 'MultiLineString', coordinates: [[[0, 1], [3, 4]]] }, ['EndPoint'])).toBeNull();
    expect(shape(point(1, 1), ['EndPoint'])).toBeNull();
    expect(shape(line(), ['StartPoint'])).toBeNull();
  });

  it('keeps null through later steps', () => {
    expect(run(SQUARE, ['EndPoint', 'Buffer', 'Centroid'], { buffer: 1 })).toBeNull();
  });

  it('reverses lines and rings, not points', () => {
    expect(shape(PATH, ['Reverse'])).toEqual(line([3, 10], [3, 4], [0, 1]));
    expect(shape(HOLED, ['Reverse'])).toEqual(polygon([[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]], [[1, 1], [4, 1], [4, 4], [1, 4], [1, 1]]));
    expect(shape(collection(multiPoint([0, 1], [3, 4]), line([0, 0], [1, 1])), ['Reverse']))
      .toEqual(collection(multiPoint([0, 1], [3, 4]), line([1, 1], [0, 0])));
  });

  it('swaps x and y', () => {
    expect(shape(PATH, ['FlipCoordinates'])).toEqual(line([1, 0], [4, 3], [10, 3]));
    expect(shape(polygon([[0, 1], [4, 1], [4, 4], [0, 1]]), ['FlipCoordinates'])).toEqual(polygon([[1, 0], [1, 4], [4, 4], [1, 0]]));
    expect(shape(point(1, 2), ['FlipCoordinates'])).toEqual(point(2, 1));
  });
});

describe('transform: ConvexHull and Envelope', () => {
  it('builds hulls as GEOS: clockwise from the lowest vertex, no collinear vertices', () => {
    expect(shape(SQUARE, ['ConvexHull'])).toEqual(polygon([[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]]));
    expect(shape(HOLED, ['ConvexHull'])).toEqual(polygon([[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]]));
    expect(shape(line([3, 1], [0, 0], [1, 5], [2, 2]), ['ConvexHull'])).toEqual(polygon([[0, 0], [1, 5], [3, 1], [0, 0]]));
    expect(shape(multiPoint([5, 5], [1, 1], [3, 0], [0, 3], [2, 2], [4, 4], [1, 4]), ['ConvexHull']))
      .toEqual(polygon([[3, 0], [1, 1], [0, 3], [1, 4], [5, 5], [3, 0]]));
    expect(shape(multiPoint([-1, -1], [4, 0], [2, 6], [-3, 2]), ['ConvexHull'])).toEqual(polygon([[-1, -1], [-3, 2], [2, 6], [4, 0], [-1, -1]]));
    expect(shape(multiPoint([0, 5], [0, 0], [3, 1], [3, -2]), ['ConvexHull'])).toEqual(polygon([[3, -2], [0, 0], [0, 5], [3, 1], [3, -2]]));
    expect(shape(multiPoint([0, 0], [4, 0], [4, 4], [0, 4], [2, 2], [0, 2], [4, 2]), ['ConvexHull'])).toEqual(polygon([[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]]));
    expect(shape(collection(point(9, 9), line([0, 1], [3, 4]), polygon([[0, 0], [1, 0], [1, 1], [0, 0]])), ['ConvexHull']))
      .toEqual(polygon([[0, 0], [0, 1], [3, 4], [9, 9], [1, 0], [0, 0]]));
  });

  it('gives lines and points for degenerate hulls', () => {
    expect(shape(line([3, 3], [0, 0], [1, 1]), ['ConvexHull'])).toEqual(line([0, 0], [3, 3]));
    expect(shape(multiPoint([3, 0], [0, 3], [1, 2]), ['ConvexHull'])).toEqual(line([3, 0], [0, 3]));
    expect(shape(multiPoint([0, 5], [0, 0], [0, 3]), ['ConvexHull'])).toEqual(line([0, 0], [0, 5]));
    expect(shape(multiPoint([3, 3], [0, 0]), ['ConvexHull'])).toEqual(line([3, 3], [0, 0]));
    expect(shape(multiPoint([0, 3], [3, 0], [0, 3]), ['ConvexHull'])).toEqual(line([0, 3], [3, 0]));
    expect(shape(multiPoint([1, 1], [1, 1]), ['ConvexHull'])).toEqual(point(1, 1));
    expect(shape(point(1, 2), ['ConvexHull'])).toEqual(point(1, 2));
  });

  it('boxes geometries, degenerate boxes as lines and points', () => {
    expect(shape(SEGMENT, ['Envelope'])).toEqual(polygon([[0, 0], [0, 4], [3, 4], [3, 0], [0, 0]]));
    expect(shape(HOLED, ['Envelope'])).toEqual(polygon([[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]]));
    expect(shape(line([1, 2], [1, 5]), ['Envelope'])).toEqual(line([1, 2], [1, 5]));
    expect(shape(line([1, 2], [4, 2]), ['Envelope'])).toEqual(line([1, 2], [4, 2]));
    expect(shape(point(1, 2), ['Envelope'])).toEqual(point(1, 2));
  });
});

describe('transform: steps', () => {
  it('applies steps in order, keeping the SRID unless transformed', () => {
    const out = run(SQUARE, ['Centroid', 'Transform'], { to: 3857 })!;
    expect(out.srid).toBe(3857);
    expectCoordinates((out.geometry as { coordinates: Position }).coordinates, [222638.98158654713, 222684.20850554405]);
    expect(run(SQUARE, ['Envelope', 'Reverse'])).toEqual({ geometry: polygon([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]), srid: 4326 });
  });

  it('rejects unknown steps whatever the value', () => {
    expect(() => run(SQUARE, ['Rotate'])).toThrow('unknown geometry transform "Rotate"');
    expect(() => run(SQUARE, ['EndPoint', 'Rotate'])).toThrow('unknown geometry transform "Rotate"');
  });
});

describe('measure', () => {
  const m = (g: Geometry, type: string, srid = 4326) => measure({ geometry: g, srid }, type);

  it('measures planar areas, lengths and perimeters', () => {
    expect([m(SQUARE, 'Area'), m(SQUARE, 'Length'), m(SQUARE, 'Perimeter')]).toEqual([16, 0, 16]);
    expect([m(SEGMENT, 'Area'), m(SEGMENT, 'Length'), m(SEGMENT, 'Perimeter')]).toEqual([0, 5, 0]);
    expect([m(HOLED, 'Area'), m(HOLED, 'Length'), m(HOLED, 'Perimeter')]).toEqual([91, 0, 52]);
    const both = collection(SQUARE, SEGMENT);
    expect([m(both, 'Area'), m(both, 'Length'), m(both, 'Perimeter')]).toEqual([16, 5, 16]);
    expect(m(point(1, 2), 'Area')).toBe(0);
  });

  it('measures on the WGS84 spheroid as PostGIS geography does', () => {
    expectRelative(m(SQUARE, 'AreaSpheroid'), 196869599070.80536, 1e-9);
    expect(m(SQUARE, 'LengthSpheroid')).toBe(0);
    expectRelative(m(SQUARE, 'PerimeterSpheroid'), 1774086.6712937024, 1e-9);
    expect(m(SEGMENT, 'AreaSpheroid')).toBe(0);
    expectRelative(m(SEGMENT, 'LengthSpheroid'), 554058.9237526914, 1e-9);
    expect(m(SEGMENT, 'PerimeterSpheroid')).toBe(0);
    expectRelative(m(HOLED, 'AreaSpheroid'), 1117185171421.3696, 1e-9);
    expectRelative(m(HOLED, 'PerimeterSpheroid'), 5751774.120761696, 1e-9);
    expectRelative(m(polygon([[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]]), 'AreaSpheroid'), 196869599070.80536, 1e-9);
  });

  it('keeps PostGIS geography quirks on collections', () => {
    const both = collection(SQUARE, SEGMENT);
    expectRelative(m(both, 'AreaSpheroid'), 196869599070.80536, 1e-9);
    expectRelative(m(both, 'LengthSpheroid'), 2328145.5950463936, 1e-9);
    expectRelative(m(both, 'PerimeterSpheroid'), 2328145.5950463936, 1e-9);
    expect(m({ type: 'MultiPolygon', coordinates: [SQUARE_RINGS] }, 'LengthSpheroid')).toBe(0);
    expect(m({ type: 'MultiLineString', coordinates: [[[0, 0], [3, 4]]] }, 'PerimeterSpheroid')).toBe(0);
  });

  it('reads other SRIDs as lon/lat after transforming to 4326', () => {
    expectRelative(m(polygon([[0, 0], [400000, 0], [400000, 400000], [0, 400000], [0, 0]]), 'AreaSpheroid', 3857), 158775834322.34537, 1e-9);
    expectRelative(m(line([0, 0], [300000, 400000]), 'LengthSpheroid', 3857), 497539.2628136704, 1e-9);
    expect(() => m(SQUARE, 'AreaSpheroid', 2154)).toThrow('unknown SRID 2154');
  });

  it('rejects unknown measurements', () => {
    expect(() => m(SQUARE, 'Volume')).toThrow('unknown geometry measurement "Volume"');
    expect(() => m(SQUARE, 'VolumeSpheroid')).toThrow('unknown geometry measurement "VolumeSpheroid"');
  });
});

describe('buffer of large folded outlines', () => {
  it('refuses a part the clipping fallback would take seconds on, instead of blocking the server', () => {
    // A 300-vertex zigzag buffered by more than its teeth: the offset curve loops over itself.
    const zigzag = Array.from({ length: 300 }, (_, i) => [i, i % 2]);
    const g = { geometry: { type: 'LineString' as const, coordinates: zigzag }, srid: 4326 };
    expect(() => transform(g, { transforms: ['Buffer'], buffer: 5 })).toThrow(/300-vertex part folds over itself.*up to 150 vertices/);
    // Few vertices still take the fallback and get an answer.
    const small = { geometry: { type: 'LineString' as const, coordinates: zigzag.slice(0, 20) }, srid: 4326 };
    expect(transform(small, { transforms: ['Buffer'], buffer: 5 })!.geometry.type).toBe('Polygon');
  });
});
