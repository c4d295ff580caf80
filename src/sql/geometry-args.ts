// Arguments of geometry transforms and measurements (SPEC §4), checked when a request is
// compiled, whatever the dialect: a bad request fails before it reaches a database.
import type { GeoMeasureExpr, GeoTransformExpr } from '../planner/ir/expr.js';
import { ErrorCode, PublicError } from '../shared/errors.js';

export const TRANSFORMS = new Set(['Transform', 'Centroid', 'Buffer', 'Simplify', 'SimplifyTopology', 'StartPoint', 'EndPoint', 'Reverse', 'FlipCoordinates', 'ConvexHull', 'Envelope']);
export const MEASUREMENTS = new Set(['Area', 'AreaSpheroid', 'Length', 'LengthSpheroid', 'Perimeter', 'PerimeterSpheroid']);

/** A finite number argument, as SQL literal text (GraphQL gave us a number, never text). */
export function geoNumber(v: number | undefined, what: string): string {
  if (v === undefined || !Number.isFinite(v)) throw new PublicError(ErrorCode.BadUserInput, `geometry ${what} needs a number`);
  return String(v);
}

export function geoSrid(v: number | undefined, what: string): string {
  if (v === undefined || !Number.isInteger(v) || v <= 0) throw new PublicError(ErrorCode.BadUserInput, `geometry ${what} needs an SRID`);
  return String(v);
}

/** The steps in order; `buffer` / `simplify_factor` alone imply their transform. Checks each step's arguments. */
export function transformSteps(e: GeoTransformExpr): string[] {
  const steps = [...e.transforms];
  if (e.buffer !== undefined && !steps.includes('Buffer')) steps.push('Buffer');
  if (e.simplifyFactor !== undefined && !steps.some((s) => s.startsWith('Simplify'))) steps.push('Simplify');
  for (const step of steps) {
    if (!TRANSFORMS.has(step)) throw new PublicError(ErrorCode.BadUserInput, `unknown geometry transform "${step}"`);
    if (step === 'Transform') checkReprojection(e);
    if (step === 'Buffer') geoNumber(e.buffer, '"buffer"');
    if (step.startsWith('Simplify')) geoNumber(e.simplifyFactor, '"simplify_factor"');
  }
  return steps;
}

/** `from` (optional) and `to` of a Transform, or of a measurement with `transform: true`. */
export function checkReprojection(e: { readonly from?: number; readonly to?: number }): void {
  if (e.from !== undefined) geoSrid(e.from, '"from"');
  geoSrid(e.to, '"to"');
}

export function checkMeasurement(e: GeoMeasureExpr): void {
  if (!MEASUREMENTS.has(e.type)) throw new PublicError(ErrorCode.BadUserInput, `unknown geometry measurement "${e.type}"`);
  if (e.transform) checkReprojection(e);
}

/** Geometry filter operators (SPEC §4.1, besides is_null) -> the dialect's function for each. */
export type GeometryPredicates = Readonly<Record<'eq' | 'intersects' | 'contains' | 'st_within', string>>;

/** The dialect's function for a geometry filter operator; undefined for is_null (the base compiler's). */
export function geometryPredicate(op: string, functions: GeometryPredicates): string | undefined {
  if (op === 'is_null') return undefined;
  const fn = (functions as Readonly<Record<string, string>>)[op];
  if (!fn) throw new PublicError(ErrorCode.BadUserInput, `filter operator "${op}" is not supported for Geometry`);
  return fn;
}
