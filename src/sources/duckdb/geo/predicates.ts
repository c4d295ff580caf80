// Geometry filters of SPEC §4.1 on DuckDB sources: eq (ST_Equals), intersects, contains and
// st_within, with PostGIS's meaning. Polygonal pairs are decided by polygon clipping (holes
// count); other pairs by turf's predicates.
import { booleanContains, booleanEqual, booleanIntersects, difference } from './libraries.js';
import { type Geo, GeoError, type Geometry } from '../../../shared/geo/types.js';
import { clip, dimension, isEmpty, polygonalCoordinates } from './shapes.js';

/** Runs a turf predicate, turning its "geometry not supported" into a client-facing error. */
function turf(name: string, a: Geometry, b: Geometry, fn: () => boolean): boolean {
  try {
    return fn();
  } catch (e) {
    if (e instanceof GeoError) throw e;
    throw new GeoError(`geometry filter "${name}" is not supported for ${a.type} and ${b.type} on duckdb sources`);
  }
}

function sameSrid(op: string, a: Geo, b: Geo): void {
  if (a.srid !== b.srid) throw new GeoError(`geometry filter "${op}": SRIDs differ (${a.srid} and ${b.srid})`);
}

export function intersects(a: Geo, b: Geo): boolean {
  sameSrid('intersects', a, b);
  if (isEmpty(a.geometry) || isEmpty(b.geometry)) return false;
  return turf('intersects', a.geometry, b.geometry, () => booleanIntersects(a.geometry, b.geometry));
}

/** `a` contains `b`: no point of b lies outside a, and their interiors meet (ST_Contains). */
export function contains(a: Geo, b: Geo): boolean {
  sameSrid('contains', a, b);
  if (isEmpty(a.geometry) || isEmpty(b.geometry)) return false;
  // A point cannot contain a line or an area, nor a line an area (PostGIS: false). turf has no rule
  // for these pairs and threw, so `_spatial(field: "location", type: WITHIN) { stores(field: "area") }`
  // failed instead of matching nothing.
  if (dimension(b.geometry) > dimension(a.geometry)) return false;
  const pa = polygonalCoordinates(a.geometry);
  const pb = polygonalCoordinates(b.geometry);
  if (pa && pb) return difference(clip(pb), clip(pa)).length === 0;
  return turf('contains', a.geometry, b.geometry, () => booleanContains(a.geometry, b.geometry));
}

export function within(a: Geo, b: Geo): boolean {
  return contains(b, a);
}

/** Topological equality (ST_Equals): the same point set, whatever the vertex order. */
export function equals(a: Geo, b: Geo): boolean {
  sameSrid('eq', a, b);
  if (isEmpty(a.geometry) && isEmpty(b.geometry)) return true;
  try {
    if (a.geometry.type === b.geometry.type && booleanEqual(a.geometry, b.geometry)) return true;
    return contains(a, b) && contains(b, a);
  } catch {
    return false;
  }
}
