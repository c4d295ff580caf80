// Geometry aggregations of SPEC §4.2 on DuckDB sources: union, extent and intersection over the
// non-null values of a group (DuckDB hands them over as one list). Polygons are combined by
// polygon clipping; points and lines are kept as they are (lines are not noded as GEOS does).
import type { LineString, MultiPoint, Point, Position } from 'geojson';
import { booleanIntersects, intersection as clipIntersection, union as clipUnion } from './libraries.js';
import { envelope } from './derived.js';
import { clip, dimension, isEmpty, parts, polygonal, polygonalCoordinates } from './shapes.js';
import { type Geo, GeoError, type Geometry } from '../../../shared/geo/types.js';

function commonSrid(fn: string, values: readonly Geo[]): number {
  const srid = values[0]!.srid;
  if (values.some((v) => v.srid !== srid)) throw new GeoError(`geometry aggregation "${fn}": the values have different SRIDs`);
  return srid;
}

const byXY = (a: Position, b: Position): number => a[0]! - b[0]! || a[1]! - b[1]!;

function points(list: Position[]): Geometry {
  if (list.length === 1) return { type: 'Point', coordinates: list[0]! };
  return list.length ? { type: 'MultiPoint', coordinates: list } : { type: 'Point', coordinates: [] };
}

function lines(list: Position[][]): Geometry {
  return list.length === 1 ? { type: 'LineString', coordinates: list[0]! } : { type: 'MultiLineString', coordinates: list };
}

const distinct = <T>(items: readonly T[], key: (x: T) => string): T[] => [...new Map(items.map((x) => [key(x), x])).values()];

/** ST_Union: the point set of all values, as the simplest geometry that holds it. */
export function union(values: readonly Geo[]): Geo | null {
  if (!values.length) return null;
  const srid = commonSrid('union', values);
  const all = parts({ type: 'GeometryCollection', geometries: values.map((v) => v.geometry) });
  const area = all.polygons.length ? polygonal(clipUnion(clip([all.polygons[0]!]), ...all.polygons.slice(1).map((p) => clip([p])))) : null;
  const solid = area && !isEmpty(area) ? area : null;
  // Lines inside the polygons, and points on the polygons or lines, add nothing to the point set.
  const keptLines = distinct(all.lines, (l) => JSON.stringify(l)).filter((l) => !(solid && lineInside(solid, l)));
  const lineGeom = keptLines.length ? lines(keptLines) : null;
  const on = (g: Geometry | null, p: Position): boolean => g !== null && booleanIntersects(g, { type: 'Point', coordinates: p });
  const keptPoints = distinct(all.points, (p) => `${p[0]} ${p[1]}`).filter((p) => !on(solid, p) && !on(lineGeom, p)).sort(byXY);
  const kept = [solid, lineGeom, keptPoints.length ? points(keptPoints) : null].filter((g): g is Geometry => g !== null);
  if (!kept.length) return { geometry: area ?? points([]), srid };
  return { geometry: kept.length === 1 ? kept[0]! : { type: 'GeometryCollection', geometries: kept }, srid };
}

/** Whether every vertex of a line lies in the area (good enough to drop lines the area covers). */
function lineInside(area: Geometry, line: Position[]): boolean {
  const l: LineString = { type: 'LineString', coordinates: line };
  return line.every((p) => booleanIntersects(area, { type: 'Point', coordinates: p })) && booleanIntersects(area, l);
}

/** ST_Extent: the bounding box of all values (a point or a line when it is degenerate). */
export function extent(values: readonly Geo[]): Geo | null {
  if (!values.length) return null;
  const srid = commonSrid('extent', values);
  return { geometry: envelope({ type: 'GeometryCollection', geometries: values.map((v) => v.geometry) }), srid };
}

const emptyOf = (dim: number): Geometry => (dim >= 2 ? { type: 'Polygon', coordinates: [] } : dim === 1 ? { type: 'LineString', coordinates: [] } : { type: 'Point', coordinates: [] });

function intersect2(a: Geometry, b: Geometry): Geometry {
  if (isEmpty(a) || isEmpty(b)) return emptyOf(Math.min(dimension(a), dimension(b)));
  const pa = polygonalCoordinates(a);
  const pb = polygonalCoordinates(b);
  if (pa && pb) return polygonal(clipIntersection(clip(pa), clip(pb)));
  if (a.type === 'Point' || a.type === 'MultiPoint') return pointsIn(a, b);
  if (b.type === 'Point' || b.type === 'MultiPoint') return pointsIn(b, a);
  throw new GeoError(`geometry aggregation "intersection" of ${a.type} and ${b.type} is not supported on duckdb sources`);
}

function pointsOf(p: Point | MultiPoint): Position[] {
  if (p.type === 'MultiPoint') return p.coordinates;
  return p.coordinates.length ? [p.coordinates] : [];
}

function pointsIn(p: Point | MultiPoint, other: Geometry): Geometry {
  return points(pointsOf(p).filter((c) => booleanIntersects({ type: 'Point', coordinates: c }, other)));
}

/** ST_Intersection folded over the values in their order. */
export function intersection(values: readonly Geo[]): Geo | null {
  if (!values.length) return null;
  const srid = commonSrid('intersection', values);
  return { geometry: values.slice(1).reduce((acc, v) => intersect2(acc, v.geometry), values[0]!.geometry), srid };
}
