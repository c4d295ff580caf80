// Geometry transforms and measurements on PostgreSQL (SPEC §4: GeometryTransform and
// GeometryMeasurementTypes). Numbers come from GraphQL Int/Float arguments and are checked to be
// finite numbers before they are written as literals.
import type { GeoMeasureExpr, GeoTransformExpr } from '../../planner/ir/expr.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';

function num(v: number | undefined, what: string): string {
  if (v === undefined || !Number.isFinite(v)) throw new PublicError(ErrorCode.BadUserInput, `geometry ${what} needs a number`);
  return String(v);
}

function srid(v: number | undefined, what: string): string {
  if (v === undefined || !Number.isInteger(v) || v <= 0) throw new PublicError(ErrorCode.BadUserInput, `geometry ${what} needs an SRID`);
  return String(v);
}

/** Applies the transforms in the order given; `buffer` / `simplify_factor` alone imply their transform. */
export function geometryTransforms(column: string, e: GeoTransformExpr): string {
  let g = `(${column})::geometry`;
  const steps = [...e.transforms];
  if (e.buffer !== undefined && !steps.includes('Buffer')) steps.push('Buffer');
  if (e.simplifyFactor !== undefined && !steps.some((s) => s.startsWith('Simplify'))) steps.push('Simplify');
  for (const step of steps) {
    switch (step) {
      case 'Transform':
        g = e.from !== undefined ? `ST_Transform(ST_SetSRID(${g}, ${srid(e.from, '"from"')}), ${srid(e.to, '"to"')})` : `ST_Transform(${g}, ${srid(e.to, '"to"')})`;
        break;
      case 'Centroid': g = `ST_Centroid(${g})`; break;
      case 'Buffer': g = `ST_Buffer(${g}, ${num(e.buffer, '"buffer"')})`; break;
      case 'Simplify': g = `ST_Simplify(${g}, ${num(e.simplifyFactor, '"simplify_factor"')})`; break;
      case 'SimplifyTopology': g = `ST_SimplifyPreserveTopology(${g}, ${num(e.simplifyFactor, '"simplify_factor"')})`; break;
      case 'StartPoint': g = `ST_StartPoint(${g})`; break;
      case 'EndPoint': g = `ST_EndPoint(${g})`; break;
      case 'Reverse': g = `ST_Reverse(${g})`; break;
      case 'FlipCoordinates': g = `ST_FlipCoordinates(${g})`; break;
      case 'ConvexHull': g = `ST_ConvexHull(${g})`; break;
      case 'Envelope': g = `ST_Envelope(${g})`; break;
      default: throw new PublicError(ErrorCode.BadUserInput, `unknown geometry transform "${step}"`);
    }
  }
  return g;
}

/** Planar measures in the geometry's units (optionally after a transform); *Spheroid in metres. */
export function geometryMeasurement(column: string, e: GeoMeasureExpr): string {
  let g = `(${column})::geometry`;
  if (e.transform) g = e.from !== undefined ? `ST_Transform(ST_SetSRID(${g}, ${srid(e.from, '"from"')}), ${srid(e.to, '"to"')})` : `ST_Transform(${g}, ${srid(e.to, '"to"')})`;
  const geog = `(${column})::geography`;
  switch (e.type) {
    case 'Area': return `ST_Area(${g})`;
    case 'AreaSpheroid': return `ST_Area(${geog}, true)`;
    case 'Length': return `ST_Length(${g})`;
    case 'LengthSpheroid': return `ST_Length(${geog}, true)`;
    case 'Perimeter': return `ST_Perimeter(${g})`;
    case 'PerimeterSpheroid': return `ST_Perimeter(${geog}, true)`;
    default: throw new PublicError(ErrorCode.BadUserInput, `unknown geometry measurement "${e.type}"`);
  }
}
