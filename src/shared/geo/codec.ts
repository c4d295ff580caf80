// Reading and writing geometry text on DuckDB sources. Geometry columns are VARCHAR there (no
// spatial extension offline): they may hold WKT, EWKT, GeoJSON or hex (E)WKB, and svc writes WKT
// (EWKT when the SRID is not 4326). Output follows PostGIS's ST_AsGeoJSON so both dialects answer
// alike: at most 9 decimals, and a short `crs` member unless the SRID is 4326.
import type Wkx from 'wkx';
import { lazyRequire } from '../lazy-require.js';
import { DEFAULT_SRID, type Geo, GeoError, type Geometry } from './types.js';

// wkx is loaded with the first geometry text (issue 30: most catalogs have none).
export const wkx = lazyRequire<typeof Wkx>('wkx');

const GEOJSON_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

/** `EPSG:3857`, `urn:ogc:def:crs:EPSG::3857` or `urn:ogc:def:crs:OGC:1.3:CRS84` -> SRID. */
function sridOfCrs(crs: unknown): number {
  const name = (crs as { properties?: { name?: unknown } } | undefined)?.properties?.name;
  if (typeof name !== 'string') return DEFAULT_SRID;
  if (/CRS84$/i.test(name)) return DEFAULT_SRID;
  const m = /EPSG:+(\d+)$/i.exec(name);
  if (!m) throw new GeoError(`unknown GeoJSON crs "${name.slice(0, 60)}"`);
  return Number(m[1]);
}

const DEPTH: Readonly<Record<string, number>> = { Point: 1, MultiPoint: 2, LineString: 2, MultiLineString: 3, Polygon: 3, MultiPolygon: 4 };

const isPosition = (p: unknown): boolean => Array.isArray(p) && p.length >= 2 && p.length <= 4 && p.every((n) => typeof n === 'number' && Number.isFinite(n));

/** Whether GeoJSON coordinates nest as the type says, with lines of 2+ positions and closed rings of 4+. */
function validCoordinates(type: string, c: unknown): boolean {
  const list = (v: unknown, each: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(each);
  const line = (l: unknown) => list(l, isPosition) && (l as unknown[]).length >= 2;
  const ring = (r: unknown) => line(r) && (r as unknown[]).length >= 4 && JSON.stringify((r as unknown[])[0]) === JSON.stringify((r as unknown[]).at(-1));
  switch (type) {
    case 'Point': return (Array.isArray(c) && c.length === 0) || isPosition(c);
    case 'MultiPoint': return list(c, isPosition);
    case 'LineString': return line(c) || (Array.isArray(c) && c.length === 0);
    case 'MultiLineString': return list(c, line);
    case 'Polygon': return list(c, ring);
    case 'MultiPolygon': return list(c, (p) => list(p, ring));
    default: return false;
  }
}

function checkGeoJson(o: { type?: unknown; coordinates?: unknown; geometries?: unknown }, depth = 0): void {
  if (typeof o?.type !== 'string' || !GEOJSON_TYPES.has(o.type)) {
    throw new GeoError('a GeoJSON geometry needs a "type" of Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon or GeometryCollection');
  }
  if (o.type === 'GeometryCollection') {
    if (!Array.isArray(o.geometries) || depth > 8) throw new GeoError('a GeoJSON GeometryCollection needs a "geometries" list');
    for (const g of o.geometries) checkGeoJson(g as typeof o, depth + 1);
  } else if (!validCoordinates(o.type, o.coordinates)) {
    const rings = o.type.endsWith('Polygon') ? ' (rings need 4 or more positions and must be closed)' : '';
    throw new GeoError(`invalid ${o.type}: its coordinates must be ${DEPTH[o.type]}-deep lists of numbers${rings}`);
  }
}

function fromGeoJson(value: unknown): Geo {
  const o = value as { type?: unknown; crs?: unknown; coordinates?: unknown; geometries?: unknown };
  if (!o || typeof o !== 'object') throw new GeoError('a GeoJSON geometry must be an object');
  checkGeoJson(o);
  // Only the geometry's own members are kept (a Feature's properties or a bbox are not geometry).
  const strip = (g: typeof o): Geometry => (g.type === 'GeometryCollection' ? { type: 'GeometryCollection', geometries: (g.geometries as (typeof o)[]).map(strip) } : ({ type: g.type, coordinates: g.coordinates } as Geometry));
  return { geometry: strip(o), srid: sridOfCrs(o.crs) };
}

/** One geometry value, as stored or as given by a client (a string, or a GeoJSON object). */
export function parseGeometry(value: unknown): Geo {
  if (value && typeof value === 'object') return fromGeoJson(value);
  if (typeof value !== 'string') throw new GeoError('a Geometry value must be a GeoJSON object or a WKT string');
  const text = value.trim();
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new GeoError('invalid GeoJSON text');
    }
    return fromGeoJson(parsed);
  }
  try {
    const hex = /^[0-9a-f]+$/i.test(text) && text.length % 2 === 0;
    const g = wkx().Geometry.parse(hex ? Buffer.from(text, 'hex') : text.toUpperCase());
    const geometry = g.toGeoJSON() as Geometry;
    checkGeoJson(geometry);
    return { geometry, srid: g.srid || DEFAULT_SRID };
  } catch (e) {
    throw new GeoError(`invalid geometry text "${text.slice(0, 40)}${text.length > 40 ? '…' : ''}": ${(e as Error).message}`);
  }
}

// PostGIS prints at most 9 decimals (ST_AsGeoJSON's default); so do we, and -0 prints as 0.
const round = (n: number): number => Number(n.toFixed(9)) || 0;

function rounded(g: Geometry): Geometry {
  if (g.type === 'GeometryCollection') return { type: g.type, geometries: g.geometries.map(rounded) };
  const walk = (c: unknown): unknown => (typeof c === 'number' ? round(c) : (c as unknown[]).map(walk));
  return { type: g.type, coordinates: walk(g.coordinates) } as Geometry;
}

/** GeoJSON text as PostGIS writes it: `crs` (short form) only when the SRID is not 4326. */
export function geoJsonText(g: Geo): string {
  const { type, ...rest } = rounded(g.geometry);
  const crs = g.srid === DEFAULT_SRID ? {} : { crs: { type: 'name', properties: { name: `EPSG:${g.srid}` } } };
  return JSON.stringify({ type, ...crs, ...rest });
}

/** The text svc stores in a VARCHAR geometry column: WKT, or EWKT when the SRID is not 4326. */
export function storedText(g: Geo): string {
  const w = wkx().Geometry.parseGeoJSON(g.geometry);
  if (g.srid === DEFAULT_SRID) return w.toWkt();
  w.srid = g.srid;
  return w.toEwkt();
}
