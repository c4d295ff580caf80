// Geometry SQL of the DuckDB dialect. DuckDB has no spatial extension offline, so geometry columns
// are VARCHAR (WKT, EWKT, GeoJSON or hex WKB) and the svc_geo_* scalar functions of
// src/sources/duckdb/geo/functions.ts stand in for PostGIS. Arguments are bound parameters.
import type { GeoMeasureExpr, GeoTransformExpr } from '../../planner/ir/expr.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { checkMeasurement, type GeometryPredicates, geometryPredicate, transformSteps } from '../geometry-args.js';
import { parseGeometry, storedText } from '../../shared/geo/codec.js';
import { GeoError } from '../../shared/geo/types.js';

type Bind = (value: unknown) => string;

/** A geometry text as the wire's GeoJSON object. */
export const geoJsonOf = (expr: string): string => `CAST(svc_geojson(${expr}) AS JSON)`;

/**
 * A client's geometry (GeoJSON object or text) as the text bound for it: WKT, which is also what
 * svc stores. Reading it here makes a bad value a request error before any SQL runs.
 */
export function geometryText(value: unknown): string {
  try {
    return storedText(parseGeometry(value));
  } catch (e) {
    if (e instanceof GeoError) throw new PublicError(ErrorCode.BadUserInput, `invalid Geometry value: ${e.message}`);
    throw e;
  }
}

const PREDICATES: GeometryPredicates = {
  eq: 'svc_geo_equals',
  intersects: 'svc_geo_intersects',
  contains: 'svc_geo_contains',
  st_within: 'svc_geo_within',
};

/** One geometry filter (SPEC §4.1); undefined for is_null, which the base compiler writes. */
export function geometryFilter(op: string, left: string, right: () => string): string | undefined {
  const fn = geometryPredicate(op, PREDICATES);
  return fn && `${fn}(${left}, ${right()})`;
}

/** The transforms of a Geometry field, as GeoJSON text; the steps travel as one JSON parameter. */
export function geometryTransforms(expr: string, e: GeoTransformExpr, bind: Bind): string {
  const spec = { transforms: transformSteps(e), from: e.from, to: e.to, buffer: e.buffer, simplifyFactor: e.simplifyFactor };
  return `svc_geo_transform(${expr}, ${bind(JSON.stringify(spec))})`;
}

/** A resolution written into SQL as a literal: an integer from 0 to 15 or nothing. */
export function h3Resolution(r: number): number {
  if (!Number.isInteger(r) || r < 0 || r > 15) throw new PublicError(ErrorCode.BadUserInput, `h3: resolution must be an integer from 0 to 15, not ${r}`);
  return r;
}

export function geometryMeasurement(expr: string, e: GeoMeasureExpr, bind: Bind): string {
  checkMeasurement(e);
  const g = e.transform ? `svc_geo_transform(${expr}, ${bind(JSON.stringify({ transforms: ['Transform'], from: e.from, to: e.to }))})` : expr;
  return `svc_geo_measure(${g}, ${bind(e.type)})`;
}

/** `union`, `extent` and `intersection` over the group's non-null values; undefined for other functions. */
export function geometryAggregate(fn: string, arg: string | undefined, filter: (extra: string) => string): string | undefined {
  if (fn !== 'union' && fn !== 'extent' && fn !== 'intersection') return undefined;
  if (!arg) throw new PublicError(ErrorCode.BadUserInput, `aggregation "${fn}" needs a geometry field`);
  // The functions answer GeoJSON text already.
  return `CAST(svc_geo_${fn}(list(${arg})${filter(`${arg} IS NOT NULL`)}) AS JSON)`;
}
