// A Geometry field's transforms and measurements (SPEC §4) on DuckDB values, with the semantics of
// the PostGIS functions the PostgreSQL compiler emits for them, so both sources answer alike.
import { geodesic, proj4 } from './libraries.js';
import { buffer } from './buffer.js';
import { centroid, convexHull, envelope, simplify } from './derived.js';
import { parts } from './shapes.js';
import { type Geo, GeoError, type Geometry, type Position, type TransformSpec } from '../../../shared/geo/types.js';

const WGS84 = 4326;

/** proj4 definitions of the SRIDs DuckDB sources can transform between (4326, 4269, 3857 are built in). */
function projection(srid: number): string {
  if (srid === 4326 || srid === 4269 || srid === 3857) return `EPSG:${srid}`;
  if (srid === 3395) return '+proj=merc +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs';
  const zone = srid % 100;
  if ((srid - zone === 32600 || srid - zone === 32700) && zone >= 1 && zone <= 60) {
    return `+proj=utm +zone=${zone}${srid > 32700 ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;
  }
  throw new GeoError(`unknown SRID ${srid}: only 4326, 4269, 3857, 3395 and UTM 326xx/327xx are known on duckdb sources`);
}

type Mapper = (p: Position) => Position;

// Building a converter parses both definitions: once per pair, not per row.
const converters = new Map<string, Mapper>();

export function converter(from: number, to: number): Mapper {
  const key = `${from}>${to}`;
  let map = converters.get(key);
  if (!map) {
    const projector = proj4()(projection(from), projection(to));
    map = (p) => {
      const [x, y] = projector.forward([p[0]!, p[1]!]);
      if (!Number.isFinite(x) || !Number.isFinite(y)) throw new GeoError(`a coordinate has no position in SRID ${to}`);
      return p.length > 2 ? [x, y, ...p.slice(2)] : [x, y];
    };
    converters.set(key, map);
  }
  return map;
}

export function mapPositions(g: Geometry, f: Mapper): Geometry {
  switch (g.type) {
    case 'Point': return g.coordinates.length ? { type: 'Point', coordinates: f(g.coordinates) } : g;
    case 'MultiPoint': return { type: 'MultiPoint', coordinates: g.coordinates.map(f) };
    case 'LineString': return { type: 'LineString', coordinates: g.coordinates.map(f) };
    case 'MultiLineString': return { type: 'MultiLineString', coordinates: g.coordinates.map((l) => l.map(f)) };
    case 'Polygon': return { type: 'Polygon', coordinates: g.coordinates.map((r) => r.map(f)) };
    case 'MultiPolygon': return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map((r) => r.map(f))) };
    case 'GeometryCollection': return { type: 'GeometryCollection', geometries: g.geometries.map((c) => mapPositions(c, f)) };
  }
}

function reverse(g: Geometry): Geometry {
  const r = (l: Position[]) => [...l].reverse();
  switch (g.type) {
    case 'Point': case 'MultiPoint': return g;
    case 'LineString': return { type: 'LineString', coordinates: r(g.coordinates) };
    case 'MultiLineString': return { type: 'MultiLineString', coordinates: g.coordinates.map(r) };
    case 'Polygon': return { type: 'Polygon', coordinates: g.coordinates.map(r) };
    case 'MultiPolygon': return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map(r)) };
    case 'GeometryCollection': return { type: 'GeometryCollection', geometries: g.geometries.map(reverse) };
  }
}

/** The first position of any geometry (PostGIS ≥ 3.2 ST_StartPoint), null when empty. */
function startPoint(g: Geometry): Geometry | null {
  switch (g.type) {
    case 'Point': return g.coordinates.length ? g : null;
    case 'GeometryCollection': {
      for (const c of g.geometries) { const p = startPoint(c); if (p) return p; }
      return null;
    }
    default: {
      const { points, lines, polygons } = parts(g);
      const p = points[0] ?? lines[0]?.[0] ?? polygons[0]?.[0]?.[0];
      return p ? { type: 'Point', coordinates: p } : null;
    }
  }
}

/** ST_EndPoint: the last position of a LineString; null for any other type. */
function endPoint(g: Geometry): Geometry | null {
  const p = g.type === 'LineString' ? g.coordinates[g.coordinates.length - 1] : undefined;
  return p ? { type: 'Point', coordinates: p } : null;
}

const isSrid = (n: unknown): n is number => Number.isInteger(n) && (n as number) > 0;
const isNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

type Step = (g: Geo) => Geo | null;

/** The spec's steps, arguments checked up front so an error does not depend on the rows. */
function compile(spec: TransformSpec): Step[] {
  const names = [...(spec.transforms ?? [])];
  if (spec.buffer != null && !names.includes('Buffer')) names.push('Buffer');
  if (spec.simplifyFactor != null && !names.includes('Simplify') && !names.includes('SimplifyTopology')) names.push('Simplify');
  const same = (f: (g: Geometry) => Geometry | null): Step => (g) => {
    const geometry = f(g.geometry);
    return geometry && { geometry, srid: g.srid };
  };
  return names.map((name): Step => {
    switch (name) {
      case 'Transform': {
        const { from, to } = spec;
        if (from != null && !isSrid(from)) throw new GeoError('geometry "from" needs an SRID');
        if (!isSrid(to)) throw new GeoError('geometry "to" needs an SRID');
        return (g) => {
          const source = from ?? g.srid;
          return { geometry: source === to ? g.geometry : mapPositions(g.geometry, converter(source, to)), srid: to };
        };
      }
      case 'Buffer': {
        const d = spec.buffer;
        if (!isNumber(d)) throw new GeoError('geometry "buffer" needs a number');
        return same((g) => buffer(g, d));
      }
      case 'Simplify':
      case 'SimplifyTopology': {
        const t = spec.simplifyFactor;
        if (!isNumber(t)) throw new GeoError('geometry "simplify_factor" needs a number');
        return same((g) => simplify(g, t, name === 'SimplifyTopology'));
      }
      case 'Centroid': return same(centroid);
      case 'ConvexHull': return same(convexHull);
      case 'Envelope': return same(envelope);
      case 'StartPoint': return same(startPoint);
      case 'EndPoint': return same(endPoint);
      case 'Reverse': return same(reverse);
      case 'FlipCoordinates': return same((g) => mapPositions(g, (p) => [p[1]!, p[0]!, ...p.slice(2)]));
      default: throw new GeoError(`unknown geometry transform "${name}"`);
    }
  });
}

// A statement passes the same spec object for every row.
const compiled = new WeakMap<TransformSpec, Step[]>();

/** Applies a Geometry field's transforms in order; null (SQL NULL) once a step has no value. */
export function transform(g: Geo, spec: TransformSpec): Geo | null {
  let steps = compiled.get(spec);
  if (!steps) compiled.set(spec, (steps = compile(spec)));
  let value: Geo | null = g;
  for (const step of steps) {
    if (value === null) break;
    value = step(value);
  }
  return value;
}

const planarLength = (line: Position[]): number => {
  let s = 0;
  for (let i = 1; i < line.length; i++) s += Math.hypot(line[i]![0]! - line[i - 1]![0]!, line[i]![1]! - line[i - 1]![1]!);
  return s;
};

const planarArea = (ring: Position[]): number => {
  let s = 0;
  for (let i = 1; i < ring.length; i++) s += ring[i - 1]![0]! * ring[i]![1]! - ring[i]![0]! * ring[i - 1]![1]!;
  return Math.abs(s / 2);
};

// One accumulator each, made on the first measurement and cleared per ring: measurements run
// synchronously, never interleaved.
type Accumulator = ReturnType<ReturnType<typeof geodesic>['Geodesic']['WGS84']['Polygon']>;
let accumulators: { polyline: Accumulator; polygon: Accumulator } | undefined;
const accumulator = (kind: 'polyline' | 'polygon'): Accumulator => (accumulators ??= {
  polyline: geodesic().Geodesic.WGS84.Polygon(true), polygon: geodesic().Geodesic.WGS84.Polygon(false),
})[kind];

const geodesicLength = (line: Position[]): number => {
  const polyline = accumulator('polyline');
  polyline.Clear();
  for (const p of line) polyline.AddPoint(p[1]!, p[0]!);
  return polyline.Compute(false, true).perimeter;
};

/** As liblwgeom: the closing position is not added, the area is taken unsigned. */
const geodesicArea = (ring: Position[]): number => {
  const polygon = accumulator('polygon');
  polygon.Clear();
  for (let i = 0; i < ring.length - 1; i++) polygon.AddPoint(ring[i]![1]!, ring[i]![0]!);
  return Math.abs(polygon.Compute(false, true).area ?? 0);
};

const sum = <T>(xs: readonly T[], f: (x: T) => number): number => xs.reduce((s, x) => s + f(x), 0);
const polygonArea = (rings: Position[][], area: (r: Position[]) => number): number =>
  area(rings[0]!) - sum(rings.slice(1), area);

/**
 * A measurement of a Geometry field, as PostGIS ST_Area / ST_Length / ST_Perimeter on geometry
 * (planar, in the SRID's units) or on geography with use_spheroid (metres on WGS84).
 */
export function measure(g: Geo, type: string): number {
  if (type === 'AreaSpheroid' || type === 'LengthSpheroid' || type === 'PerimeterSpheroid') {
    const geometry = g.srid === WGS84 ? g.geometry : mapPositions(g.geometry, converter(g.srid, WGS84));
    const { lines, polygons } = parts(geometry);
    const rings = polygons.flat();
    switch (type) {
      case 'AreaSpheroid': return sum(polygons, (p) => polygonArea(p, geodesicArea));
      // PostGIS's geography length skips polygonal types but counts rings inside collections, and
      // its perimeter counts the lines of a collection: kept so the answers agree.
      case 'LengthSpheroid':
        return geometry.type === 'Polygon' || geometry.type === 'MultiPolygon' ? 0 : sum([...lines, ...rings], geodesicLength);
      case 'PerimeterSpheroid':
        return ['Polygon', 'MultiPolygon', 'GeometryCollection'].includes(geometry.type) ? sum([...lines, ...rings], geodesicLength) : 0;
    }
  }
  const { lines, polygons } = parts(g.geometry);
  switch (type) {
    case 'Area': return sum(polygons, (p) => polygonArea(p, planarArea));
    case 'Length': return sum(lines, planarLength);
    case 'Perimeter': return sum(polygons.flat(), planarLength);
    default: throw new GeoError(`unknown geometry measurement "${type}"`);
  }
}
