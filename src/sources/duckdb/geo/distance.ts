// `_spatial(type: DWITHIN, buffer:)` on DuckDB sources: whether two geometries lie within a distance
// in metres of each other, as PostGIS's ST_DWithin on geography answers it. Coordinates are taken
// to WGS84; the distance between parts is the least distance from a vertex of one to a segment (or
// point) of the other, measured on a local equirectangular plane around that vertex: exact enough
// at the distances a spatial join is asked about (well under 1% below a few hundred kilometres).
import { converter, mapPositions } from './ops.js';
import { intersects } from './predicates.js';
import { parts } from './shapes.js';
import type { Geo, Position } from '../../../shared/geo/types.js';

const WGS84 = 4326;
const R = 6_371_008.8;
const rad = Math.PI / 180;

/** Distance in metres from p to the segment a-b, on the plane tangent at p. */
function toSegment(p: Position, a: Position, b: Position): number {
  const k = Math.cos(p[1]! * rad);
  const xy = (q: Position): [number, number] => [(q[0]! - p[0]!) * rad * R * k, (q[1]! - p[1]!) * rad * R];
  const [ax, ay] = xy(a);
  const [bx, by] = xy(b);
  const dx = bx - ax;
  const dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

interface Shape {
  readonly vertices: Position[];
  /** Segments of lines and rings; a lone point is a segment of length zero. */
  readonly segments: [Position, Position][];
}

function shape(g: Geo): Shape {
  const geometry = g.srid === WGS84 ? g.geometry : mapPositions(g.geometry, converter(g.srid, WGS84));
  const { points, lines, polygons } = parts(geometry);
  const paths = [...lines, ...polygons.flat()];
  const vertices = [...points, ...paths.flat()];
  const segments: [Position, Position][] = points.map((p) => [p, p]);
  for (const path of paths) for (let i = 1; i < path.length; i++) segments.push([path[i - 1]!, path[i]!]);
  if (paths.some((p) => p.length === 1)) for (const p of paths) if (p.length === 1) segments.push([p[0]!, p[0]!]);
  return { vertices, segments };
}

function nearest(from: Shape, to: Shape, limit: number): number {
  let best = Infinity;
  for (const v of from.vertices) {
    for (const [a, b] of to.segments) {
      best = Math.min(best, toSegment(v, a, b));
      if (best <= limit) return best;
    }
  }
  return best;
}

/** True when `a` and `b` are within `metres` of each other (touching or overlapping counts). */
export function withinDistance(a: Geo, b: Geo, metres: number): boolean {
  if (a.srid === b.srid && intersects(a, b)) return true;
  const sa = shape(a);
  const sb = shape(b);
  return nearest(sa, sb, metres) <= metres || nearest(sb, sa, metres) <= metres;
}
