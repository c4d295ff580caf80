// Geometry transforms and measurements on PostgreSQL (SPEC §4: GeometryTransform and
// GeometryMeasurementTypes). Numbers come from GraphQL Int/Float arguments and are checked to be
// finite numbers (src/sql/geometry-args.ts) before they are written as literals.
import type { GeoMeasureExpr, GeoTransformExpr } from '../../planner/ir/expr.js';
import { UnreachableCaseError } from '../../shared/errors.js';
import { checkMeasurement, geoNumber, geoSrid, transformSteps } from '../geometry-args.js';

const reproject = (g: string, e: { readonly from?: number; readonly to?: number }): string =>
  e.from !== undefined ? `ST_Transform(ST_SetSRID(${g}, ${geoSrid(e.from, '"from"')}), ${geoSrid(e.to, '"to"')})` : `ST_Transform(${g}, ${geoSrid(e.to, '"to"')})`;

/** Applies the transforms in the order given. */
export function geometryTransforms(column: string, e: GeoTransformExpr): string {
  let g = `(${column})::geometry`;
  for (const step of transformSteps(e)) {
    switch (step) {
      case 'Transform': g = reproject(g, e); break;
      case 'Centroid': g = `ST_Centroid(${g})`; break;
      case 'Buffer': g = `ST_Buffer(${g}, ${geoNumber(e.buffer, '"buffer"')})`; break;
      case 'Simplify': g = `ST_Simplify(${g}, ${geoNumber(e.simplifyFactor, '"simplify_factor"')})`; break;
      case 'SimplifyTopology': g = `ST_SimplifyPreserveTopology(${g}, ${geoNumber(e.simplifyFactor, '"simplify_factor"')})`; break;
      case 'StartPoint': g = `ST_StartPoint(${g})`; break;
      case 'EndPoint': g = `ST_EndPoint(${g})`; break;
      case 'Reverse': g = `ST_Reverse(${g})`; break;
      case 'FlipCoordinates': g = `ST_FlipCoordinates(${g})`; break;
      case 'ConvexHull': g = `ST_ConvexHull(${g})`; break;
      case 'Envelope': g = `ST_Envelope(${g})`; break;
      default: throw new UnreachableCaseError(step as never);
    }
  }
  return g;
}

/** Planar measures in the geometry's units (optionally after a transform); *Spheroid in metres. */
export function geometryMeasurement(column: string, e: GeoMeasureExpr): string {
  checkMeasurement(e);
  const g = e.transform ? reproject(`(${column})::geometry`, e) : `(${column})::geometry`;
  const geog = `(${column})::geography`;
  switch (e.type) {
    case 'Area': return `ST_Area(${g})`;
    case 'AreaSpheroid': return `ST_Area(${geog}, true)`;
    case 'Length': return `ST_Length(${g})`;
    case 'LengthSpheroid': return `ST_Length(${geog}, true)`;
    case 'Perimeter': return `ST_Perimeter(${g})`;
    case 'PerimeterSpheroid': return `ST_Perimeter(${geog}, true)`;
    default: throw new UnreachableCaseError(e.type as never);
  }
}

/**
 * A geometry's centroid in WGS 84 as `x y`, in PostgreSQL's shortest exact float text (the server
 * reads it back with Number() and maps it to an H3 cell; the root h3 query). NULL when empty.
 */
export function centroidKey(column: string): string {
  const c = `ST_Centroid((${column})::geometry)`;
  const p = `(CASE WHEN ST_SRID(${c}) IN (0, 4326) THEN ${c} ELSE ST_Transform(${c}, 4326) END)`;
  return `(CAST(ST_X(${p}) AS float8)::text || ' ' || CAST(ST_Y(${p}) AS float8)::text)`;
}
