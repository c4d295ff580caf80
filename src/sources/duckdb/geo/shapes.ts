// Small structural helpers over GeoJSON geometries, shared by the geometry functions.
import type { Geometry, MultiPolygon, Position } from 'geojson';
import type { Geom } from 'polyclip-ts';

/** Every position of a geometry, collections included. */
export function* positions(g: Geometry): Generator<Position> {
  switch (g.type) {
    case 'Point': if (g.coordinates.length) yield g.coordinates; return;
    case 'MultiPoint': case 'LineString': yield* g.coordinates; return;
    case 'MultiLineString': case 'Polygon': for (const l of g.coordinates) yield* l; return;
    case 'MultiPolygon': for (const p of g.coordinates) for (const r of p) yield* r; return;
    case 'GeometryCollection': for (const c of g.geometries) yield* positions(c); return;
  }
}

export function isEmpty(g: Geometry): boolean {
  return positions(g).next().done === true;
}

/** The parts of a geometry that are not collections. */
export function* atoms(g: Geometry): Generator<Exclude<Geometry, { type: 'GeometryCollection' }>> {
  if (g.type === 'GeometryCollection') for (const c of g.geometries) yield* atoms(c);
  else yield g;
}

/** Polygon or MultiPolygon as MultiPolygon coordinates; null for anything else. */
export function polygonalCoordinates(g: Geometry): MultiPolygon['coordinates'] | null {
  if (g.type === 'Polygon') return g.coordinates.length ? [g.coordinates] : [];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return null;
}

/** MultiPolygon coordinates as the simplest geometry: Polygon for one part, empty Polygon for none. */
export function polygonal(parts: MultiPolygon['coordinates']): Geometry {
  if (parts.length === 1) return { type: 'Polygon', coordinates: parts[0]! };
  if (!parts.length) return { type: 'Polygon', coordinates: [] };
  return { type: 'MultiPolygon', coordinates: parts };
}

/** MultiPolygon coordinates as a polygon-clipping operand (clipping is planar: 2D only). */
export const clip = (parts: MultiPolygon['coordinates']): Geom =>
  parts.map((p) => p.map((ring) => ring.map((c) => [c[0]!, c[1]!] as [number, number])));
