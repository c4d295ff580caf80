// PostgreSQL column types -> svc scalars (SPEC §3.4), for self_defined catalogs. The table is
// written out in docs/postgres.md; a type not listed is served as String with a warning.
import type { ScalarName } from '../../catalog/model.js';

export interface PgTypeInfo {
  /** format_type(atttypid, atttypmod): `geometry(Point,4326)`, `numeric(38,0)`, `text[]`. */
  readonly formatted: string;
  /** The type itself, or a domain's base type (regtype text: `integer`, `public.mood`). */
  readonly base: string;
  /** pg_type.typtype of the base: b base, e enum, r range, d domain, c composite. */
  readonly typtype: string;
  /** pg_type.typcategory of the base: A for arrays. */
  readonly category: string;
  /** Element type name of an array (pg_type.typname: `int4`, `text`). */
  readonly element?: string;
  readonly elementTyptype?: string;
  /** Scale of a numeric with a declared precision. */
  readonly numericScale?: number;
}

export interface PgColumnType {
  readonly scalar: ScalarName;
  readonly list: boolean;
  readonly geometry?: { readonly type: string; readonly srid?: number };
  readonly warning?: string;
}

/** By regtype text (the names format_type and ::regtype use). */
const BY_REGTYPE: Readonly<Record<string, ScalarName>> = {
  smallint: 'Int', integer: 'Int', bigint: 'BigInt', real: 'Float', 'double precision': 'Float', numeric: 'Float',
  boolean: 'Boolean', text: 'String', 'character varying': 'String', character: 'String', name: 'String', '"char"': 'String',
  uuid: 'String', citext: 'String', inet: 'String', cidr: 'String', macaddr: 'String', macaddr8: 'String', bytea: 'String',
  xml: 'String', money: 'String', bit: 'String', 'bit varying': 'String', oid: 'BigInt',
  date: 'Date', 'time without time zone': 'Time', 'timestamp without time zone': 'DateTime', 'timestamp with time zone': 'Timestamp',
  interval: 'Interval', json: 'JSON', jsonb: 'JSON',
  int4range: 'IntRange', int8range: 'BigIntRange', tstzrange: 'TimestampRange',
  geometry: 'Geometry', geography: 'Geometry',
};

/** By pg_type.typname, for array elements. */
const BY_TYPNAME: Readonly<Record<string, ScalarName>> = {
  int2: 'Int', int4: 'Int', int8: 'BigInt', float4: 'Float', float8: 'Float', numeric: 'Float', bool: 'Boolean',
  text: 'String', varchar: 'String', bpchar: 'String', name: 'String', uuid: 'String', citext: 'String',
  date: 'Date', time: 'Time', timestamp: 'DateTime', timestamptz: 'Timestamp', json: 'JSON', jsonb: 'JSON',
};

/** Scalars whose lists the wire format (SPEC §4.1 list scalars) covers. */
const LISTABLE = new Set<ScalarName>(['String', 'Int', 'BigInt', 'Float', 'Boolean', 'Date', 'Time', 'Timestamp', 'DateTime', 'JSON']);

/** `geometry(Point,4326)` -> { type: Point, srid: 4326 }; plain `geometry` -> { type: Geometry }. */
function geometryInfo(formatted: string): { type: string; srid?: number } {
  const m = /\(\s*([A-Za-z]+)\s*(?:,\s*(-?\d+))?\s*\)/.exec(formatted);
  if (!m) return { type: 'Geometry' };
  const srid = m[2] !== undefined ? Number(m[2]) : undefined;
  return { type: m[1]!, ...(srid ? { srid } : {}) };
}

export function mapColumnType(t: PgTypeInfo): PgColumnType {
  const base = t.base.replace(/^[a-z_0-9]+\./, '');
  if (t.category === 'A') {
    if (t.elementTyptype === 'e') return { scalar: 'String', list: true };
    const element = t.element ? BY_TYPNAME[t.element] : undefined;
    if (element && LISTABLE.has(element)) return { scalar: element, list: true };
    // Composite values arrive as JSON objects; other elements as their text.
    if (t.elementTyptype === 'c') return { scalar: 'JSON', list: false };
    return { scalar: 'String', list: true, warning: `type ${t.formatted} has no svc scalar; served as [String]` };
  }
  if (t.typtype === 'e') return { scalar: 'String', list: false };
  if (t.typtype === 'c') return { scalar: 'JSON', list: false };
  if (base === 'numeric' && t.numericScale === 0) return { scalar: 'BigInt', list: false };
  const scalar = BY_REGTYPE[base];
  if (!scalar) return { scalar: 'String', list: false, warning: `type ${t.formatted} has no svc scalar; served as String` };
  if (scalar === 'Geometry') return { scalar, list: false, geometry: geometryInfo(t.formatted) };
  return { scalar, list: false };
}
