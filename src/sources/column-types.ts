// What a database column holds, as far as the declared scalar of a catalog field is concerned
// (issue 29): each dialect's type name reduced to a kind, the scalar that kind is served as, and
// whether a declared scalar can carry it. An unknown type (an extension's, a user-defined one) is
// never refused: only what is known to give wrong answers is.
import type { ScalarName } from '../catalog/model.js';

export type ColumnKind =
  | 'int32' | 'int64' | 'int128' | 'decimal_int' | 'decimal' | 'float' | 'bool' | 'string' | 'uuid' | 'blob'
  | 'date' | 'time' | 'timestamp' | 'timestamptz' | 'interval' | 'json' | 'geometry' | 'vector'
  | 'int_range' | 'bigint_range' | 'ts_range' | 'bits' | 'year' | 'other';

export interface DbColumnKind {
  readonly kind: ColumnKind;
  readonly list: boolean;
  /** The number of binary digits of a `bits` column (MySQL `BIT(n)`). */
  readonly width?: number;
  /** A 4-byte float (PostgreSQL `real`, DuckDB and MySQL `FLOAT`). */
  readonly single?: boolean;
}

// ---- dialect type names -> kinds ----------------------------------------------------------------

const DUCKDB: Readonly<Record<string, ColumnKind>> = {
  TINYINT: 'int32', SMALLINT: 'int32', INTEGER: 'int32', UTINYINT: 'int32', USMALLINT: 'int32',
  UINTEGER: 'int64', BIGINT: 'int64', UBIGINT: 'int128', HUGEINT: 'int128', UHUGEINT: 'int128',
  FLOAT: 'float', DOUBLE: 'float', BOOLEAN: 'bool', VARCHAR: 'string', UUID: 'uuid', BLOB: 'blob', BIT: 'string',
  DATE: 'date', TIME: 'time', 'TIME WITH TIME ZONE': 'time', INTERVAL: 'interval', JSON: 'json', GEOMETRY: 'geometry',
  TIMESTAMP: 'timestamp', TIMESTAMP_S: 'timestamp', TIMESTAMP_MS: 'timestamp', TIMESTAMP_NS: 'timestamp',
  'TIMESTAMP WITH TIME ZONE': 'timestamptz',
};

/** DuckDB's information_schema data_type: `INTEGER`, `DECIMAL(10,2)`, `VARCHAR[]`, `STRUCT(a INTEGER)`. */
export function duckdbKind(dataType: string): DbColumnKind {
  const t = dataType.trim().toUpperCase();
  // A fixed-size array of floats is an embedding (SPEC §3.4 Vector); other arrays are lists.
  if (/^(FLOAT|DOUBLE)\[\d+\]$/.test(t)) return { kind: 'vector', list: false };
  const list = /\[\d*\]$/.exec(t);
  if (list) return { ...duckdbKind(t.slice(0, list.index)), list: true };
  if (/^(STRUCT|MAP|UNION)\b/.test(t)) return { kind: 'json', list: false };
  if (t === 'FLOAT') return { kind: 'float', list: false, single: true };
  const dec = /^(?:DECIMAL|NUMERIC)(?:\(\s*\d+\s*(?:,\s*(\d+)\s*)?\))?$/.exec(t);
  if (dec) return { kind: dec[1] === undefined || dec[1] === '0' ? 'decimal_int' : 'decimal', list: false };
  return { kind: DUCKDB[t] ?? (t.startsWith('ENUM') ? 'string' : 'other'), list: false };
}

const PG: Readonly<Record<string, ColumnKind>> = {
  int2: 'int32', int4: 'int32', int8: 'int64', oid: 'int64', float4: 'float', float8: 'float', bool: 'bool',
  text: 'string', varchar: 'string', bpchar: 'string', name: 'string', char: 'string', citext: 'string', uuid: 'uuid', bytea: 'blob',
  inet: 'string', cidr: 'string', macaddr: 'string', xml: 'string', money: 'string',
  date: 'date', time: 'time', timetz: 'time', timestamp: 'timestamp', timestamptz: 'timestamptz', interval: 'interval',
  json: 'json', jsonb: 'json', geometry: 'geometry', geography: 'geometry', vector: 'vector',
  int4range: 'int_range', int8range: 'bigint_range', tsrange: 'ts_range', tstzrange: 'ts_range',
};

/** PostgreSQL's information_schema `udt_name` (`int4`, `_text` for text[]) and numeric scale. */
export function postgresKind(udtName: string, numericScale: number | null): DbColumnKind {
  const list = udtName.startsWith('_');
  const base = list ? udtName.slice(1) : udtName;
  if (base === 'numeric') return { kind: numericScale === 0 ? 'decimal_int' : 'decimal', list };
  if (base === 'float4') return { kind: 'float', list, single: true };
  return { kind: PG[base] ?? 'other', list };
}

const MYSQL: Readonly<Record<string, ColumnKind>> = {
  tinyint: 'int32', smallint: 'int32', mediumint: 'int32', int: 'int32', integer: 'int32', year: 'year', bigint: 'int64',
  float: 'float', double: 'float', real: 'float',
  char: 'string', varchar: 'string', tinytext: 'string', text: 'string', mediumtext: 'string', longtext: 'string', enum: 'string', set: 'string',
  inet4: 'string', inet6: 'string', uuid: 'uuid', binary: 'blob', varbinary: 'blob', tinyblob: 'blob', blob: 'blob', mediumblob: 'blob', longblob: 'blob',
  // DATETIME is naive; TIMESTAMP is stored in UTC and read in the session's zone (UTC, src/sources/mysql/source.ts).
  date: 'date', time: 'time', datetime: 'timestamp', timestamp: 'timestamptz', json: 'json',
  geometry: 'geometry', point: 'geometry', linestring: 'geometry', polygon: 'geometry', multipoint: 'geometry',
  multilinestring: 'geometry', multipolygon: 'geometry', geometrycollection: 'geometry',
};

/** MySQL / MariaDB information_schema `data_type` and `column_type` (`tinyint(1)`, `int(10) unsigned`). */
export function mysqlKind(dataType: string, columnType: string): DbColumnKind {
  const t = dataType.toLowerCase();
  if (/^tinyint\(1\)/i.test(columnType) || t === 'boolean' || t === 'bool') return { kind: 'bool', list: false };
  if (/unsigned/i.test(columnType)) {
    if (t === 'int' || t === 'integer') return { kind: 'int64', list: false };
    if (t === 'bigint') return { kind: 'int128', list: false };
  }
  if (t === 'decimal' || t === 'numeric') return { kind: /,\s*0\)/.test(columnType) || !/,/.test(columnType) ? 'decimal_int' : 'decimal', list: false };
  if (t === 'float') return { kind: 'float', list: false, single: true };
  // BIT(n) is written into JSON as raw bytes: the dialect reads it as n binary digits (or a number).
  if (t === 'bit') return { kind: 'bits', list: false, width: Number(/\((\d+)\)/.exec(columnType)?.[1] ?? 1) };
  return { kind: MYSQL[t] ?? 'other', list: false };
}

// ---- kinds -> scalars ---------------------------------------------------------------------------

/** The scalar a column of this kind is best served as (the suggestion of a refused declaration). */
const NATURAL: Readonly<Record<ColumnKind, ScalarName | undefined>> = {
  int32: 'Int', int64: 'BigInt', int128: 'BigInt', decimal_int: 'BigInt', decimal: 'Float', float: 'Float', bool: 'Boolean',
  string: 'String', uuid: 'String', blob: 'String', date: 'Date', time: 'Time', timestamp: 'DateTime', timestamptz: 'Timestamp',
  interval: 'Interval', json: 'JSON', geometry: 'Geometry', vector: 'Vector', int_range: 'IntRange', bigint_range: 'BigIntRange',
  ts_range: 'TimestampRange', bits: 'String', year: 'Int', other: undefined,
};

const INTS: readonly ColumnKind[] = ['int32', 'int64', 'int128', 'decimal_int', 'year'];
const NUMBERS: readonly ColumnKind[] = [...INTS, 'decimal', 'float'];
const TEXTUAL: readonly ColumnKind[] = ['string', 'uuid', 'blob'];

/**
 * Kinds each scalar carries without a wrong answer. `Timestamp` carries a naive timestamp: its
 * values are read as UTC (docs/catalogs.md "Timestamps"), as the sessions' time zone is UTC.
 */
const CARRIES: Readonly<Record<ScalarName, readonly ColumnKind[]>> = {
  String: [...TEXTUAL, 'date', 'time', 'timestamp', 'timestamptz', 'interval', ...NUMBERS, 'bool', 'bits'],
  // A bit string declared as a number is read as its unsigned value.
  Int: [...INTS, 'bits'],
  BigInt: [...INTS, 'bits'],
  Float: NUMBERS,
  Boolean: ['bool'],
  Date: ['date'],
  Time: ['time'],
  Timestamp: ['timestamptz', 'timestamp', 'date'],
  DateTime: ['timestamp', 'date', 'timestamptz'],
  Interval: ['interval', 'time'],
  JSON: ['json', 'string', ...NUMBERS, 'bool', 'date', 'time', 'timestamp', 'timestamptz', 'interval', 'uuid', 'geometry', 'vector'],
  Geometry: ['geometry', 'blob', 'string'],
  IntRange: ['int_range'],
  BigIntRange: ['bigint_range', 'int_range'],
  TimestampRange: ['ts_range'],
  H3Cell: ['int64', 'int128', 'string'],
  Vector: ['vector'],
};

/** Accepted, but worth a warning: the values fit only partly, or come back in another JSON type. */
const BEYOND_INT = 'a value beyond 2^31-1 fails the query';
const NOT_TEXT = 'values come back as JSON numbers or booleans, not strings';
const LOOSE: Readonly<Partial<Record<ScalarName, Partial<Record<ColumnKind, string>>>>> = {
  Int: { int64: BEYOND_INT, int128: BEYOND_INT, decimal_int: BEYOND_INT },
  String: Object.fromEntries([...NUMBERS, 'bool'].map((k) => [k, NOT_TEXT])),
  DateTime: { timestamptz: 'the instants are shown as UTC wall-clock times without an offset' },
};

export interface FieldVerdict {
  /** The declaration gives wrong answers or failing queries: the source does not load. */
  readonly error?: string;
  /** It works with a caveat: reported by data_source_status. */
  readonly warning?: string;
}

const shown = (s: ScalarName, list: boolean): string => (list ? `[${s}]` : s);

/** What to declare instead: the kind's own scalar (a naive timestamp may also be a Timestamp read as UTC). */
function suggestion(db: DbColumnKind): string | undefined {
  const natural = NATURAL[db.kind];
  if (!natural) return undefined;
  if (db.kind === 'timestamp') return `${shown('DateTime', db.list)} (or ${shown('Timestamp', db.list)}, read as UTC)`;
  return shown(natural, db.list);
}

/**
 * Is a field declared `declared` (a list when `list`) served right from a column of type `dbType`?
 * The texts continue "column "c" of table "t" is <dbType>".
 */
export function judgeColumn(declared: ScalarName, list: boolean, db: DbColumnKind, dbType: string): FieldVerdict {
  if (db.kind === 'other') return {};
  const instead = suggestion(db);
  const refuse = (why = ''): FieldVerdict => ({ error: `${dbType}${why}, which cannot carry the declared ${shown(declared, list)}${instead ? `: declare it ${instead}` : ''}` });
  // A JSON field takes any column, a list column included (served as a JSON array).
  if (declared === 'JSON') return {};
  // A Vector is stored as a list of numbers where there is no vector type (DuckDB FLOAT[], PostgreSQL real[]).
  if (declared === 'Vector' && !list && db.list && NUMBERS.includes(db.kind)) return {};
  if (db.list !== list) {
    if (list && db.kind === 'json') return {}; // a JSON array served as a list
    return refuse(db.list ? ' (a list)' : ' (not a list)');
  }
  if (!CARRIES[declared].includes(db.kind)) return refuse();
  const loose = LOOSE[declared]?.[db.kind];
  if (loose) return { warning: `${dbType}, declared ${shown(declared, list)}: ${loose}${instead ? `; ${instead} fits` : ''}` };
  return {};
}
