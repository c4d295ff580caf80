// Geometry on PostgreSQL through PostGIS (SPEC §3.4, §4.1): GeoJSON objects on output; a GeoJSON
// object, GeoJSON text, WKT, EWKT or hex (E)WKB on input. The value is always a bound parameter.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { type GeometryPredicates, geometryPredicate } from '../geometry-args.js';

/** SRID of input geometries without one of their own (GeoJSON's default too). */
export const DEFAULT_SRID = 4326;

/** How a client value reaches the database: the function that reads it and the text to bind. */
export interface GeometryInput {
  readonly reader: 'geojson' | 'wkt' | 'native';
  readonly text: string;
}

/** Classifies a Geometry value given by a client. */
export function geometryInput(value: unknown): GeometryInput {
  if (value && typeof value === 'object') return { reader: 'geojson', text: JSON.stringify(value) };
  if (typeof value !== 'string' || !value.trim()) throw new PublicError(ErrorCode.BadUserInput, 'a Geometry value must be a GeoJSON object or a WKT string');
  const text = value.trim();
  if (text.startsWith('{')) return { reader: 'geojson', text };
  // EWKT (`SRID=3857;POINT(1 2)`) and hex (E)WKB carry their own SRID; the geometry type reads them.
  if (/^SRID=/i.test(text) || /^[0-9a-f]+$/i.test(text)) return { reader: 'native', text };
  return { reader: 'wkt', text };
}

/**
 * SQL of a geometry operand. `bind` adds a value as a parameter and returns its placeholder.
 * GeoJSON without a `crs` is 4326 to PostGIS; `srid` (the catalog's `@geometry_info(srid:)`)
 * relabels it and gives WKT its SRID.
 */
export function geometrySql(input: GeometryInput, srid: number, bind: (v: unknown) => string): string {
  const p = bind(input.text);
  switch (input.reader) {
    case 'geojson':
      return srid === DEFAULT_SRID ? `ST_GeomFromGeoJSON(${p}::text)` : `ST_SetSRID(ST_GeomFromGeoJSON(${p}::text), ${bind(srid)}::integer)`;
    case 'wkt':
      return `ST_GeomFromText(${p}::text, ${bind(srid)}::integer)`;
    case 'native':
      return `${p}::text::geometry`;
  }
}

const PREDICATES: GeometryPredicates = {
  eq: 'ST_Equals',
  intersects: 'ST_Intersects',
  contains: 'ST_Contains',
  st_within: 'ST_Within',
};

/**
 * One geometry filter, `left` being a geometry or geography column: geography is compared as
 * geometry (ST_Contains, ST_Within and ST_Equals exist for geometry only). Undefined for is_null.
 */
export function geometryFilter(op: string, left: string, right: () => string): string | undefined {
  const fn = geometryPredicate(op, PREDICATES);
  return fn && `${fn}((${left})::geometry, ${right()})`;
}

/** A geometry or geography value as a GeoJSON object (ST_AsGeoJSON adds a short crs unless 4326). */
export function geoJsonOf(expr: string): string {
  return `ST_AsGeoJSON(${expr})::json`;
}

/**
 * `union` and `extent` of Geometry aggregations (SPEC §4.2) as GeoJSON; undefined for other
 * functions. `filter` is the aggregate's FILTER clause (or empty). The extent keeps the SRID of the
 * values (ST_Extent returns a box without one). PostGIS has no aggregate intersection.
 */
export function geometryAggregate(fn: string, arg: string | undefined, filter: string): string | undefined {
  if (fn !== 'union' && fn !== 'extent' && fn !== 'intersection') return undefined;
  if (!arg) throw new PublicError(ErrorCode.BadUserInput, `aggregation "${fn}" needs a geometry field`);
  const g = `(${arg})::geometry`;
  if (fn === 'union') return geoJsonOf(`ST_Union(${g})${filter}`);
  if (fn === 'extent') return geoJsonOf(`ST_SetSRID(ST_Extent(${g})${filter}::geometry, min(ST_SRID(${g}))${filter})`);
  // PostGIS has no intersection aggregate: fold ST_Intersection over the collected geometries.
  const all = `(array_agg(${g})${filter})`;
  return geoJsonOf(`(WITH RECURSIVE _fold(i, acc) AS (SELECT 1, ${all}[1] UNION ALL SELECT _fold.i + 1, ST_Intersection(_fold.acc, ${all}[_fold.i + 1]) FROM _fold WHERE _fold.i < count(${g})${filter}) SELECT acc FROM _fold ORDER BY i DESC LIMIT 1)`);
}
