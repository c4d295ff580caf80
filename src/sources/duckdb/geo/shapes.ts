// Small structural helpers over GeoJSON geometries, shared by the geometry functions.
import type { Geometry, MultiPolygon, Position } from 'geojson';
import type { Geom } from 'polyclip-ts';

/** The simple parts of a geometry, multi-types and collections flattened; empty parts left out. */
export interface Parts {
  readonly points: Position[];
  readonly lines: Position[][];
  readonly polygons: Position[][][];
}

export function parts(g: Geometry, into: Parts = { points: [], lines: [], polygons: [] }): Parts {
  switch (g.type) {
    case 'Point':
      if (g.coordinates.length >= 2) into.points.push(g.coordinates);
      break;
    case 'MultiPoint':
      for (const p of g.coordinates) if (p.length >= 2) into.points.push(p);
      break;
    case 'LineString':
      if (g.coordinates.length > 0) into.lines.push(g.coordinates);
      break;
    case 'MultiLineString':
      for (const l of g.coordinates) if (l.length > 0) into.lines.push(l);
      break;
    case 'Polygon':
      if ((g.coordinates[0]?.length ?? 0) > 0) into.polygons.push(g.coordinates);
      break;
    case 'MultiPolygon':
      for (const p of g.coordinates) if ((p[0]?.length ?? 0) > 0) into.polygons.push(p);
      break;
    case 'GeometryCollection':
      for (const c of g.geometries) parts(c, into);
      break;
  }
  return into;
}

/**
 * 0 for points, 1 for lines, 2 for polygons (a collection: its highest), by type, so an empty polygon
 * still intersects to an empty polygon, as in PostGIS.
 */
export const dimension = (g: Geometry): number =>
  g.type === 'GeometryCollection' ? Math.max(-1, ...g.geometries.map(dimension)) : g.type.endsWith('Polygon') ? 2 : g.type.endsWith('LineString') ? 1 : 0;

export function isEmpty(g: Geometry): boolean {
  const p = parts(g);
  return !p.points.length && !p.lines.length && !p.polygons.length;
}

/** Polygon or MultiPolygon as MultiPolygon coordinates; null for anything else. */
export function polygonalCoordinates(g: Geometry): MultiPolygon['coordinates'] | null {
  if (g.type === 'Polygon') return g.coordinates.length ? [g.coordinates] : [];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return null;
}

/** MultiPolygon coordinates as the simplest geometry: Polygon for one part, empty Polygon for none. */
export function polygonal(polygons: MultiPolygon['coordinates']): Geometry {
  if (polygons.length === 1) return { type: 'Polygon', coordinates: polygons[0]! };
  if (!polygons.length) return { type: 'Polygon', coordinates: [] };
  return { type: 'MultiPolygon', coordinates: polygons };
}

/** MultiPolygon coordinates as a polygon-clipping operand (clipping is planar: 2D only). */
export const clip = (polygons: MultiPolygon['coordinates']): Geom =>
  polygons.map((p) => p.map((ring) => ring.map((c) => [c[0]!, c[1]!] as [number, number])));
