// The cell a row counts in for the root `h3` query (SPEC §4.5): the H3 cell of its geometry's
// centroid in WGS 84. The PostgreSQL dialect takes the same centroid (ST_Centroid, then ST_Transform)
// and the server maps it with the same h3-js call, so both dialects put a row in the same cell.
import { centroid } from './derived.js';
import { converter } from './ops.js';
import { DEFAULT_SRID, type Geo } from '../../../shared/geo/types.js';
import { h3 } from '../../../shared/h3.js';

/** The cell at `resolution`, or null for an empty geometry (it lies in no cell). */
export function h3CellOf(g: Geo, resolution: number): string | null {
  const c = centroid(g.geometry);
  if (c.type !== 'Point' || c.coordinates.length < 2) return null;
  const [x, y] = g.srid === DEFAULT_SRID || g.srid === 0 ? c.coordinates : converter(g.srid, DEFAULT_SRID)(c.coordinates);
  return h3().latLngToCell(y!, x!, resolution);
}
