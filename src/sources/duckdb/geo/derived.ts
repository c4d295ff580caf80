// Shapes derived from a geometry (centroid, convex hull, envelope, simplification), following the
// GEOS and liblwgeom algorithms PostGIS runs, down to ring orientation and start vertex, so that a
// DuckDB source prints what a PostgreSQL one does.
import type { Geometry, Position } from 'geojson';
import { parts } from './shapes.js';

const point = (x: number, y: number): Geometry => ({ type: 'Point', coordinates: [x, y] });
const emptyPoint = (): Geometry => ({ type: 'Point', coordinates: [] });

/**
 * ST_Centroid as GEOS computes it: area-weighted over polygons (triangle fan from the first shell
 * vertex, holes negative) if there is any area, else length-weighted over lines and rings, else
 * the mean of the points (zero-length lines count as their first point).
 */
export function centroid(g: Geometry): Geometry {
  const { points, lines, polygons } = parts(g);
  let area = 0, ax = 0, ay = 0, length = 0, lx = 0, ly = 0, count = 0, px = 0, py = 0;
  const addPoint = (p: Position) => { count++; px += p[0]!; py += p[1]!; };
  const addLine = (line: Position[]) => {
    let len = 0;
    for (let i = 1; i < line.length; i++) {
      const [x1, y1] = line[i - 1]!, [x2, y2] = line[i]!;
      const d = Math.hypot(x2! - x1!, y2! - y1!);
      len += d; lx += d * (x1! + x2!) / 2; ly += d * (y1! + y2!) / 2;
    }
    length += len;
    if (len === 0) addPoint(line[0]!);
  };
  const base = polygons[0]?.[0]?.[0];
  for (const polygon of polygons) {
    polygon.forEach((ring, r) => {
      const [bx, by] = base!;
      let s = 0, cx = 0, cy = 0;
      for (let i = 1; i < ring.length; i++) {
        const [x1, y1] = ring[i - 1]!, [x2, y2] = ring[i]!;
        const c = (x1! - bx!) * (y2! - by!) - (x2! - bx!) * (y1! - by!);
        s += c; cx += c * (bx! + x1! + x2!); cy += c * (by! + y1! + y2!);
      }
      // Shells add and holes subtract whatever way the ring is wound.
      const sign = (r === 0) === (s >= 0) ? 1 : -1;
      area += sign * s; ax += sign * cx; ay += sign * cy;
      addLine(ring);
    });
  }
  for (const line of lines) addLine(line);
  for (const p of points) addPoint(p);
  if (area !== 0) return point(ax / 3 / area, ay / 3 / area);
  if (length > 0) return point(lx / length, ly / length);
  return count > 0 ? point(px / count, py / count) : emptyPoint();
}

/** All positions of a geometry, in order. */
function positions(g: Geometry): Position[] {
  const { points, lines, polygons } = parts(g);
  return [...points, ...lines.flat(), ...polygons.flat(2)];
}

const cross = (o: Position, a: Position, b: Position) =>
  (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
const same = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];
/** GEOS starts hull rings and collinear hulls at the lowest point, leftmost among equals. */
const lower = (a: Position, b: Position) => a[1]! < b[1]! || (a[1] === b[1] && a[0]! < b[0]!);

/**
 * ST_ConvexHull: empty input as is, a Point for one distinct position, a LineString for two (in
 * input order) or for collinear ones (from the lowest to the other extreme), else a clockwise
 * Polygon without collinear vertices starting at its lowest vertex, as GEOS builds it.
 */
export function convexHull(g: Geometry): Geometry {
  const all = positions(g).map((p) => [p[0]!, p[1]!]);
  if (all.length === 0) return g;
  const sorted = [...all].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  const unique = sorted.filter((p, i) => i === 0 || !same(p, sorted[i - 1]!));
  const first = all[0]!;
  if (unique.length === 1) return { type: 'Point', coordinates: first };
  if (unique.length === 2) return { type: 'LineString', coordinates: [first, all.find((p) => !same(p, first))!] };
  // Andrew's monotone chain; popping on cross <= 0 drops collinear vertices.
  const hull: Position[] = [];
  for (const pass of [unique, [...unique].reverse()]) {
    const start = hull.length;
    for (const p of pass) {
      while (hull.length >= start + 2 && cross(hull[hull.length - 2]!, hull[hull.length - 1]!, p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
  }
  if (hull.length < 3) {
    const [a, b] = hull as [Position, Position];
    return { type: 'LineString', coordinates: lower(a, b) ? [a, b] : [b, a] };
  }
  hull.reverse(); // counter-clockwise to clockwise
  const at = hull.reduce((best, p, i) => (lower(p, hull[best]!) ? i : best), 0);
  const ring = [...hull.slice(at), ...hull.slice(0, at)];
  ring.push(ring[0]!);
  return { type: 'Polygon', coordinates: [ring] };
}

/** ST_Envelope: a Point or a LineString when the box is degenerate, else the box clockwise. */
export function envelope(g: Geometry): Geometry {
  const all = positions(g);
  if (all.length === 0) return g;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of all) {
    x0 = Math.min(x0, x!); y0 = Math.min(y0, y!); x1 = Math.max(x1, x!); y1 = Math.max(y1, y!);
  }
  if (x0 === x1 && y0 === y1) return point(x0, y0);
  if (x0 === x1 || y0 === y1) return { type: 'LineString', coordinates: [[x0, y0], [x1, y1]] };
  return { type: 'Polygon', coordinates: [[[x0, y0], [x0, y1], [x1, y1], [x1, y0], [x0, y0]]] };
}

/** Distance from p to the segment a–b (not its line), as both liblwgeom and GEOS measure it. */
function segmentDistance(p: Position, a: Position, b: Position): number {
  const dx = b[0]! - a[0]!, dy = b[1]! - a[1]!;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0]! - a[0]!) * dx + (p[1]! - a[1]!) * dy) / len2));
  return Math.hypot(p[0]! - a[0]! - t * dx, p[1]! - a[1]! - t * dy);
}

/** The vertex strictly between i and j farthest from the segment i–j (the first of equals). */
function farthest(pts: Position[], i: number, j: number): [number, number] {
  let at = i, max = -1;
  for (let k = i + 1; k < j; k++) {
    const d = segmentDistance(pts[k]!, pts[i]!, pts[j]!);
    if (d > max) { max = d; at = k; }
  }
  return [at, max];
}

/** Douglas–Peucker as liblwgeom runs it for ST_Simplify. */
function douglasPeucker(pts: Position[], tolerance: number): Position[] {
  if (pts.length < 3) return pts;
  const keep = new Uint8Array(pts.length);
  keep[0] = keep[pts.length - 1] = 1;
  const stack: [number, number][] = [[0, pts.length - 1]];
  for (let s = stack.pop(); s; s = stack.pop()) {
    const [i, j] = s;
    if (j - i < 2) continue;
    const [k, d] = farthest(pts, i, j);
    if (d > tolerance) { keep[k] = 1; stack.push([i, k], [k, j]); }
  }
  return pts.filter((_, i) => keep[i]);
}

const orientation = (a: Position, b: Position, c: Position) => Math.sign(cross(a, b, c));
const between = (p: Position, a: Position, b: Position) =>
  Math.min(a[0]!, b[0]!) <= p[0]! && p[0]! <= Math.max(a[0]!, b[0]!) && Math.min(a[1]!, b[1]!) <= p[1]! && p[1]! <= Math.max(a[1]!, b[1]!);

const boxesMeet = (p1: Position, p2: Position, q1: Position, q2: Position) =>
  Math.max(p1[0]!, p2[0]!) >= Math.min(q1[0]!, q2[0]!) && Math.max(q1[0]!, q2[0]!) >= Math.min(p1[0]!, p2[0]!) &&
  Math.max(p1[1]!, p2[1]!) >= Math.min(q1[1]!, q2[1]!) && Math.max(q1[1]!, q2[1]!) >= Math.min(p1[1]!, p2[1]!);

/** Whether segments p and q have any point in common. */
export function segmentsTouch(p1: Position, p2: Position, q1: Position, q2: Position): boolean {
  if (!boxesMeet(p1, p2, q1, q2)) return false;
  const d1 = orientation(q1, q2, p1), d2 = orientation(q1, q2, p2);
  if (d1 === 0 && d2 === 0) return true; // collinear, and the boxes overlap
  return d1 * d2 <= 0 && orientation(p1, p2, q1) * orientation(p1, p2, q2) <= 0;
}

/** Whether segments p and q meet anywhere but at an endpoint of both (GEOS's interior intersection). */
export function meetInside(p1: Position, p2: Position, q1: Position, q2: Position): boolean {
  if (!boxesMeet(p1, p2, q1, q2)) return false;
  const d1 = orientation(q1, q2, p1), d2 = orientation(q1, q2, p2), d3 = orientation(p1, p2, q1), d4 = orientation(p1, p2, q2);
  const endOfQ = (x: Position) => same(x, q1) || same(x, q2);
  const endOfP = (x: Position) => same(x, p1) || same(x, p2);
  if (d1 === 0 && d2 === 0) {
    // Collinear: inside unless every shared point is an endpoint of both.
    return [p1, p2].some((x) => between(x, q1, q2) && !endOfQ(x)) || [q1, q2].some((x) => between(x, p1, p2) && !endOfP(x));
  }
  if (d1 * d2 > 0 || d3 * d4 > 0) return false;
  return !((d1 === 0 || d2 === 0) && (d3 === 0 || d4 === 0));
}

/**
 * GEOS's TopologyPreservingSimplifier (3.11) over all lines and rings of one geometry, in order:
 * Douglas–Peucker whose shortcuts may not cross the remaining input segments nor earlier
 * shortcuts, and which, while a line's output is shorter than its minimum (4 for closed lines),
 * splits sections near the top of the recursion whatever the tolerance. Sections run left to
 * right, as the output count depends on it.
 */
function topologySimplifier(lines: Position[][], tolerance: number): (line: Position[]) => Position[] {
  const removed = new Map(lines.map((l) => [l, new Uint8Array(Math.max(0, l.length - 1))]));
  const shortcuts: [Position, Position][] = [];
  const blocked = (line: Position[], i: number, j: number): boolean => {
    const a = line[i]!, b = line[j]!;
    if (shortcuts.some(([p, q]) => meetInside(p, q, a, b))) return true;
    for (const [other, gone] of removed) {
      for (let k = 0; k < other.length - 1; k++) {
        if (gone[k] || (other === line && k >= i && k < j)) continue;
        if (meetInside(other[k]!, other[k + 1]!, a, b)) return true;
      }
    }
    return false;
  };
  return (pts) => {
    if (pts.length < 3) return pts;
    const minSize = same(pts[0]!, pts[pts.length - 1]!) ? 4 : 2;
    const out: Position[] = [pts[0]!];
    const stack: [number, number, number][] = [[0, pts.length - 1, 1]];
    for (let s = stack.pop(); s; s = stack.pop()) {
      const [i, j, depth] = s;
      if (j - i < 2) { out.push(pts[j]!); continue; }
      const [k, d] = farthest(pts, i, j);
      const resultSize = out.length > 1 ? out.length : 0;
      if (d <= tolerance && (resultSize >= minSize || depth + 1 >= minSize) && !blocked(pts, i, j)) {
        removed.get(pts)!.fill(1, i, j);
        shortcuts.push([pts[i]!, pts[j]!]);
        out.push(pts[j]!);
        continue;
      }
      stack.push([k, j, depth + 1], [i, k, depth + 1]);
    }
    return out;
  };
}

/** Rebuilds g with each line and ring replaced; parts whose line maps to null are dropped. */
function mapLines(g: Geometry, line: (l: Position[], ring: boolean) => Position[] | null): Geometry | null {
  const polygon = (p: Position[][]): Position[][] | null => {
    const rings: Position[][] = [];
    for (const r of p) {
      const out = line(r, true);
      if (out) rings.push(out);
      else if (rings.length === 0) return null; // collapsed shell
    }
    return rings;
  };
  const some = <T>(xs: T[], f: (x: T) => T | null): T[] => xs.flatMap((x) => { const y = f(x); return y === null ? [] : [y]; });
  switch (g.type) {
    case 'Point':
    case 'MultiPoint':
      return g;
    case 'LineString': {
      if (g.coordinates.length === 0) return g;
      const c = line(g.coordinates, false);
      return c && { type: 'LineString', coordinates: c };
    }
    case 'MultiLineString': {
      const c = some(g.coordinates.filter((l) => l.length > 0), (l) => line(l, false));
      return c.length > 0 || g.coordinates.length === 0 ? { type: 'MultiLineString', coordinates: c } : null;
    }
    case 'Polygon': {
      if (g.coordinates.length === 0) return g;
      const c = polygon(g.coordinates);
      return c && { type: 'Polygon', coordinates: c };
    }
    case 'MultiPolygon': {
      const c = some(g.coordinates, polygon);
      return c.length > 0 || g.coordinates.length === 0 ? { type: 'MultiPolygon', coordinates: c } : null;
    }
    case 'GeometryCollection': {
      const c = some(g.geometries, (x) => mapLines(x, line));
      return c.length > 0 || g.geometries.length === 0 ? { type: 'GeometryCollection', geometries: c } : null;
    }
  }
}

/**
 * ST_Simplify (Douglas–Peucker; collapsed lines, rings and their polygons dropped, null when
 * nothing is left) or, with `preserveTopology`, ST_SimplifyPreserveTopology (nothing dropped).
 */
export function simplify(g: Geometry, tolerance: number, preserveTopology: boolean): Geometry | null {
  if (preserveTopology) {
    const lines: Position[][] = [];
    mapLines(g, (l) => { lines.push(l); return l; });
    return mapLines(g, topologySimplifier(lines, tolerance));
  }
  return mapLines(g, (l, ring) => {
    const out = douglasPeucker(l, tolerance);
    if (ring) return out.length < 4 ? null : out;
    return out.length < l.length && out.length === 2 && same(out[0]!, out[1]!) ? null : out;
  });
}
