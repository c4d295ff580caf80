// Geometry values inside the DuckDB stand-in for PostGIS (DESIGN.md §1): GeoJSON geometries in
// memory, with the SRID they are expressed in. Every function of this folder is pure and
// synchronous: DuckDB calls them per chunk of rows from its scalar functions.
import type { Geometry, Position } from 'geojson';

export type { Geometry, Position };

/** SRID of values that carry none (GeoJSON's own default, and PostGIS's for our inputs). */
export const DEFAULT_SRID = 4326;

export interface Geo {
  readonly geometry: Geometry;
  readonly srid: number;
}

/**
 * A value or argument the geometry functions cannot work with. Its message reaches the client
 * (as a query error of the source), so it names the problem and never echoes large inputs.
 */
export class GeoError extends Error {
  override readonly name = 'GeoError';
}

/** Arguments of a Geometry field's transforms (SPEC §4), as in the IR's GeoTransformExpr. */
export interface TransformSpec {
  readonly transforms: readonly string[];
  readonly from?: number;
  readonly to?: number;
  readonly buffer?: number;
  readonly simplifyFactor?: number;
}
