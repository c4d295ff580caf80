// ST_Buffer with GEOS's defaults (quad_segs 8: round caps and joins), planar, in the geometry's
// own units. Each part is first drawn as GEOS draws its raw offset curve: offset segments, arcs at
// outer turns and line ends divided as GEOS divides them, offset intersections at inner turns.
// When that curve is simple and keeps its orientation it is the outline GEOS returns. When it
// loops or collapses (GEOS then nodes it), the part is instead assembled with polyclip-ts from
// pieces: the simple stretches of that curve, single segments' rectangles, wedges at the turns
// between them, half discs at line ends. Same outline, but orders of magnitude slower.
import type { Geometry, Position } from 'geojson';
import type { Geom } from 'polyclip-ts';
import { difference, union } from './libraries.js';
import { meetInside, segmentsTouch } from './derived.js';
import { parts } from './shapes.js';
import { GeoError } from '../../../shared/geo/types.js';

type XY = [number, number];

/** Largest part buffered through the polygon-clipping fallback (about 0.3 s at 100 vertices). */
const MAX_FOLDED_VERTICES = 150;
/** Rings of one polygon, oriented as polyclip does: shell counter-clockwise, holes clockwise. */
type Poly = XY[][];

const QUADRANT_SEGMENTS = 8;
const QUANTUM = Math.PI / 2 / QUADRANT_SEGMENTS;

/** The inner points of an arc around c from angle `start` turning by `total` (clockwise if negative). */
function arc(ring: XY[], c: XY, r: number, start: number, total: number): void {
  const n = Math.floor(Math.abs(total) / QUANTUM + 0.5);
  const step = total / n;
  for (let i = 1; i < n; i++) {
    const a = start + i * step;
    ring.push([c[0] + r * Math.cos(a), c[1] + r * Math.sin(a)]);
  }
}

/** Clockwise from the east point, as GEOS draws a point's buffer. */
function circle(c: XY, r: number): XY[] {
  const ring: XY[] = [[c[0] + r, c[1]]];
  arc(ring, c, r, 0, -2 * Math.PI);
  ring.push(ring[0]!);
  return ring;
}

interface Side {
  readonly angle: number;
  /** Offset ends: left and right of a (start) and b (end). */
  readonly al: XY; readonly bl: XY; readonly ar: XY; readonly br: XY;
}

function side(a: XY, b: XY, r: number): Side {
  const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy);
  const ux = (r * dx) / len, uy = (r * dy) / len;
  return {
    angle: Math.atan2(dy, dx),
    al: [a[0] - uy, a[1] + ux], bl: [b[0] - uy, b[1] + ux],
    ar: [a[0] + uy, a[1] - ux], br: [b[0] + uy, b[1] - ux],
  };
}

/** The turn from s to t in (-π, π]; a reversal counts as a clockwise half turn, as GEOS rounds it. */
function turn(s: Side, t: Side): number {
  let a = t.angle - s.angle;
  if (a > Math.PI) a -= 2 * Math.PI;
  else if (a <= -Math.PI) a += 2 * Math.PI;
  return Math.abs(a) > Math.PI - 1e-12 ? -Math.PI : a;
}

const signedArea = (ring: XY[]): number => {
  let s = 0;
  for (let i = 1; i < ring.length; i++) s += ring[i - 1]![0] * ring[i]![1] - ring[i]![0] * ring[i - 1]![1];
  return s / 2;
};

const reversed = (ring: XY[]): XY[] => [...ring].reverse();

/** Positions as XY without consecutive repeats (GEOS drops them before buffering). */
function distinct(line: Position[]): XY[] {
  const pts: XY[] = [];
  for (const p of line) {
    const last = pts[pts.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) pts.push([p[0]!, p[1]!]);
  }
  return pts;
}

// --- The raw offset curve, on the left of the path -----------------------------------------

function crossing(a1: XY, a2: XY, b1: XY, b2: XY): XY | null {
  const ax = a2[0] - a1[0], ay = a2[1] - a1[1], bx = b2[0] - b1[0], by = b2[1] - b1[1];
  const d = ax * by - ay * bx;
  if (d === 0) return null;
  const t = ((b1[0] - a1[0]) * by - (b1[1] - a1[1]) * bx) / d;
  const u = ((b1[0] - a1[0]) * ay - (b1[1] - a1[1]) * ax) / d;
  return t < 0 || t > 1 || u < 0 || u > 1 ? null : [a1[0] + t * ax, a1[1] + t * ay];
}

/** GEOS's round join at v: an arc on the outer side, the offsets' crossing on the inner one. */
function offsetJoin(curve: XY[], v: XY, s: Side, t: Side, r: number): void {
  const a = turn(s, t);
  if (a === 0) { curve.push(s.bl); return; }
  if (a < 0) {
    curve.push(s.bl);
    if (Math.hypot(s.bl[0] - t.al[0], s.bl[1] - t.al[1]) < r * 1e-3) return;
    arc(curve, v, r, s.angle + Math.PI / 2, a);
    curve.push(t.al);
    return;
  }
  const x = crossing(s.al, s.bl, t.al, t.bl);
  // Without a crossing the curve loops through v, which fails the simplicity test below.
  if (x) curve.push(x);
  else curve.push(s.bl, v, t.al);
}

/** Drops vertices closer than GEOS's minimum vertex distance to the previous one, and closes the ring. */
function closeCurve(curve: XY[], r: number): XY[] {
  const min = r * 1e-6;
  const out: XY[] = [];
  for (const p of curve) {
    const last = out[out.length - 1];
    if (!last || Math.hypot(p[0] - last[0], p[1] - last[1]) >= min) out.push(p);
  }
  const first = out[0]!, last = out[out.length - 1]!;
  if (out.length > 1 && Math.hypot(first[0] - last[0], first[1] - last[1]) < min) out.pop();
  out.push(first);
  return out;
}

/** Whether the curve's offset of segment s, from p to q, runs the way s does: else it collapsed. */
const forward = (p: XY, q: XY, s: Side) => (q[0] - p[0]) * Math.cos(s.angle) + (q[1] - p[1]) * Math.sin(s.angle) > 0;

/** The offset curve of a ring (without its closing position); null where it collapses. */
function ringCurve(pts: XY[], r: number): XY[] | null {
  const n = pts.length;
  const sides = pts.map((p, i) => side(p, pts[(i + 1) % n]!, r));
  const curve: XY[] = [];
  for (let i = 0; i < n; i++) {
    const mark = curve.length;
    offsetJoin(curve, pts[i]!, sides[(i + n - 1) % n]!, sides[i]!, r);
    if (i > 0 && !forward(curve[mark - 1]!, curve[mark]!, sides[i - 1]!)) return null;
  }
  return forward(curve[curve.length - 1]!, curve[0]!, sides[n - 1]!) ? closeCurve(curve, r) : null;
}

/** Along the left side, round the end, back along the right side, round the start (or straight across). */
function lineCurve(pts: XY[], r: number, round = true): XY[] | null {
  const curve: XY[] = [];
  for (const q of [pts, reversed(pts)]) {
    const sides = q.slice(1).map((b, i) => side(q[i]!, b, r));
    curve.push(sides[0]!.al);
    for (let i = 1; i <= sides.length; i++) {
      const mark = curve.length;
      if (i < sides.length) offsetJoin(curve, q[i]!, sides[i - 1]!, sides[i]!, r);
      else curve.push(sides[i - 1]!.bl);
      if (!forward(curve[mark - 1]!, curve[mark]!, sides[i - 1]!)) return null;
    }
    const last = sides[sides.length - 1]!;
    if (round) arc(curve, q[q.length - 1]!, r, last.angle + Math.PI / 2, -Math.PI);
  }
  return closeCurve(curve, r);
}

/** No two segments of the rings meet, except neighbours at their shared vertex. */
function simple(rings: XY[][]): boolean {
  const segs: { a: XY; b: XY; ring: number; k: number; x0: number; x1: number }[] = [];
  if (rings.some((ring) => ring.length < 4)) return false;
  rings.forEach((ring, i) => {
    for (let k = 1; k < ring.length; k++) {
      const a = ring[k - 1]!, b = ring[k]!;
      segs.push({ a, b, ring: i, k, x0: Math.min(a[0], b[0]), x1: Math.max(a[0], b[0]) });
    }
  });
  segs.sort((s, t) => s.x0 - t.x0);
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    for (let j = i + 1; j < segs.length && segs[j]!.x0 <= s.x1; j++) {
      const t = segs[j]!;
      const last = rings[s.ring]!.length - 1;
      const neighbours = s.ring === t.ring && (Math.abs(s.k - t.k) === 1 || Math.abs(s.k - t.k) === last - 1);
      if (neighbours ? meetInside(s.a, s.b, t.a, t.b) : segmentsTouch(s.a, s.b, t.a, t.b)) return false;
    }
  }
  return true;
}

const inside = (p: XY, ring: XY[]): boolean => {
  let c = false;
  for (let i = 1; i < ring.length; i++) {
    const [x1, y1] = ring[i - 1]!, [x2, y2] = ring[i]!;
    if (y1 > p[1] !== y2 > p[1] && p[0] < x1 + ((p[1] - y1) * (x2 - x1)) / (y2 - y1)) c = !c;
  }
  return c;
};

/**
 * A polygon's buffer from the offset curves of its rings, each ring turned so that the side to
 * grow into is on its left; null when the curves cross, fold or nest in a way that needs noding.
 */
function offsetPolygon(polygon: XY[][], distance: number): Poly | null {
  const r = Math.abs(distance);
  // Growing: shell clockwise, holes counter-clockwise; shrinking the other way round.
  const curves = polygon.map((ring, i) => {
    const open = ring.slice(0, -1);
    const clockwise = (i === 0) === (distance > 0);
    return ringCurve((signedArea(ring) < 0) === clockwise ? open : reversed(open), r);
  });
  if (!curves.every((c): c is XY[] => c !== null) || !simple(curves)) return null;
  const shellSign = distance > 0 ? -1 : 1;
  if (curves.some((c, i) => Math.sign(signedArea(c)) !== (i === 0 ? shellSign : -shellSign))) return null;
  const [shell, ...holes] = curves;
  if (distance < 0 && holes.some((h, i) => !inside(h[0]!, shell!) || holes.some((o, j) => i !== j && inside(h[0]!, o)))) return null;
  return distance > 0 ? curves.map(reversed) : curves;
}

// --- Pieces for polyclip-ts, when the offset curve does not do -----------------------------

/**
 * The rounded outer corner at v between segments s and t. Its apex is set back from v into the
 * inner side: v lies on the ends of both rectangles, and edges through almost the same points are
 * what polyclip fails on.
 */
function wedge(into: XY[][], v: XY, s: Side, t: Side, r: number): void {
  const a = turn(s, t);
  if (a === 0) return;
  const inward = s.angle + a / 2 + (a < 0 ? -Math.PI / 2 : Math.PI / 2);
  const ring: XY[] = [[v[0] + (r / 2) * Math.cos(inward), v[1] + (r / 2) * Math.sin(inward)]];
  if (a < 0) { ring.push(s.bl); arc(ring, v, r, s.angle + Math.PI / 2, a); ring.push(t.al); }
  else { ring.push(s.br); arc(ring, v, r, s.angle - Math.PI / 2, a); ring.push(t.ar); }
  ring.push(ring[0]!);
  into.push(ring);
}

const STRETCH = 32;

/**
 * Pieces whose union sweeps a disc of radius r along a path (around it when `closed`): stretches
 * of the flat-ended offset outline where that is simple, halved down to single segments'
 * rectangles where it is not, wedges where stretches meet, half discs at open ends.
 */
function pieces(pts: XY[], r: number, closed: boolean): Geom[] {
  // polyclip's cost grows much faster than the vertex count (seconds per row at 1000 vertices),
  // and it runs on the server's event loop: past a bound the request is refused instead.
  if (pts.length > MAX_FOLDED_VERTICES) {
    throw new GeoError(`Buffer: at this distance the outline of a ${pts.length}-vertex part folds over itself, which duckdb sources compute for up to ${MAX_FOLDED_VERTICES} vertices; simplify it first (simplify_factor) or use a PostgreSQL source`);
  }
  const out: XY[][] = [];
  if (pts.length === 1) return [[circle(pts[0]!, r)]];
  const sides = pts.slice(1).map((b, i) => side(pts[i]!, b, r));
  const stretch = (i: number, j: number): void => {
    const s = sides[i]!;
    if (j - i === 1) { out.push([s.al, s.bl, s.br, s.ar, s.al]); return; }
    const curve = lineCurve(pts.slice(i, j + 1), r, false);
    if (curve && simple([curve])) { out.push(curve); return; }
    const m = (i + j) >> 1;
    stretch(i, m);
    stretch(m, j);
    wedge(out, pts[m]!, sides[m - 1]!, sides[m]!, r);
  };
  for (let i = 0; i < sides.length; i += STRETCH) {
    const j = Math.min(i + STRETCH, sides.length);
    stretch(i, j);
    if (j < sides.length) wedge(out, pts[j]!, sides[j - 1]!, sides[j]!, r);
  }
  const first = sides[0]!, last = sides[sides.length - 1]!;
  if (closed) {
    wedge(out, pts[0]!, last, first, r);
  } else {
    const end: XY[] = [last.bl];
    arc(end, pts[pts.length - 1]!, r, last.angle + Math.PI / 2, -Math.PI);
    end.push(last.br, last.bl);
    const start: XY[] = [first.ar];
    arc(start, pts[0]!, r, first.angle - Math.PI / 2, -Math.PI);
    start.push(first.al, first.ar);
    out.push(end, start);
  }
  return out.map((ring) => [ring]);
}

/**
 * polyclip-ts now and then cannot close a ring on near-degenerate input (about 1 in 100 random
 * self-crossing lines); the same operation grouped differently fails on other inputs, so each
 * grouping is tried in turn.
 */
function firstOf(attempts: (() => Poly[])[]): Poly[] {
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // next grouping
    }
  }
  throw new GeoError('geometry buffer could not be computed for this value');
}

const halves = (gs: Geom[]): Poly[] =>
  gs.length === 1 ? union(gs[0]!) : union(halves(gs.slice(0, gs.length >> 1)), halves(gs.slice(gs.length >> 1)));

const unionAll = (gs: Geom[]): Poly[] => gs.length === 0 ? [] : firstOf([
  () => union(gs[0]!, ...gs.slice(1)),
  () => halves(gs),
  () => gs.slice(1).reduce<Poly[]>((acc, g) => union(acc, g), union(gs[0]!)),
]);

// --- Parts and their union -----------------------------------------------------------------

function lineBuffer(line: Position[], r: number): Poly[] {
  const pts = distinct(line);
  if (pts.length === 1) return [[reversed(circle(pts[0]!, r))]];
  const closed = pts.length >= 4 && pts[0]![0] === pts[pts.length - 1]![0] && pts[0]![1] === pts[pts.length - 1]![1];
  if (!closed) {
    const curve = lineCurve(pts, r);
    if (curve && simple([curve])) return [[reversed(curve)]];
  }
  return unionAll(pieces(pts, r, closed));
}

function polygonBuffer(polygon: Position[][], distance: number): Poly[] {
  const [shell, ...holes] = polygon.map(distinct);
  if (shell!.length < 4) return [];
  const rings = [shell!, ...holes.filter((ring) => ring.length >= 4)];
  const fast = offsetPolygon(rings, distance);
  if (fast) return [fast];
  const r = Math.abs(distance);
  const swept = rings.flatMap((ring) => pieces(ring, r, true));
  if (distance > 0) return unionAll([rings, ...swept]);
  return firstOf([
    () => difference(rings, ...swept),
    () => difference(rings, unionAll(swept)),
    () => swept.reduce<Poly[]>((acc, s) => difference(acc, s), difference(rings)),
  ]);
}

/** Whether any two parts' bounding boxes meet, so that they need a union. */
function overlapping(polys: Poly[]): boolean {
  const boxes = polys.map((p) => {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const [x, y] of p[0]!) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    return [x0, x1, y0, y1] as const;
  }).sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i]!;
    for (let j = i + 1; j < boxes.length && boxes[j]![0] <= a[1]; j++) if (boxes[j]![2] <= a[3] && a[2] <= boxes[j]![3]) return true;
  }
  return false;
}

/** GEOS orients buffer shells clockwise and holes counter-clockwise. */
function polygonal(polys: Poly[]): Geometry {
  const oriented = polys.map((p) => p.map(reversed));
  if (oriented.length === 0) return { type: 'Polygon', coordinates: [] };
  return oriented.length === 1 ? { type: 'Polygon', coordinates: oriented[0]! } : { type: 'MultiPolygon', coordinates: oriented };
}

/** Polygon, MultiPolygon when in parts, POLYGON EMPTY when nothing is left (distance ≤ 0 on points and lines). */
export function buffer(g: Geometry, distance: number): Geometry {
  const { points, lines, polygons } = parts(g);
  const r = Math.abs(distance);
  if (distance === 0) return polygonal(unionAll(polygons.map((p) => p.map(distinct))));
  const polys: Poly[] = polygons.flatMap((p) => polygonBuffer(p, distance));
  if (distance > 0) {
    for (const p of points) polys.push([reversed(circle([p[0]!, p[1]!], r))]);
    for (const l of lines) polys.push(...lineBuffer(l, r));
  }
  if (points.length === 1 && lines.length === 0 && polygons.length === 0) return { type: 'Polygon', coordinates: [circle([points[0]![0]!, points[0]![1]!], r)] };
  return polygonal(polys.length > 1 && overlapping(polys) ? unionAll(polys) : polys);
}
