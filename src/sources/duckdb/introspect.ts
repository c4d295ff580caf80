// `self_defined: true` on DuckDB: the catalog is read from the attached database's own description
// (duckdb_tables, duckdb_views, duckdb_columns, duckdb_constraints of its `main` schema) into
// catalog SDL, built by the same code as for PostgreSQL and MySQL. The type table is in docs/catalogs.md.
import type { ScalarName } from '../../catalog/model.js';
import { catalogSdl, type DbColumnType, type IntrospectedCatalog } from '../introspect-sdl.js';
import type { DuckDbSource } from './source.js';

const BY_TYPE: Readonly<Record<string, ScalarName>> = {
  TINYINT: 'Int', SMALLINT: 'Int', INTEGER: 'Int', UTINYINT: 'Int', USMALLINT: 'Int',
  BIGINT: 'BigInt', UINTEGER: 'BigInt', UBIGINT: 'BigInt', HUGEINT: 'BigInt', UHUGEINT: 'BigInt',
  FLOAT: 'Float', DOUBLE: 'Float',
  VARCHAR: 'String', UUID: 'String', BIT: 'String',
  BOOLEAN: 'Boolean', DATE: 'Date', TIME: 'Time',
  // A naive TIMESTAMP holds no zone: DateTime, as PostgreSQL's `timestamp without time zone`.
  TIMESTAMP: 'DateTime', 'TIMESTAMP_S': 'DateTime', 'TIMESTAMP_MS': 'DateTime', 'TIMESTAMP_NS': 'DateTime',
  'TIMESTAMP WITH TIME ZONE': 'Timestamp', INTERVAL: 'Interval', JSON: 'JSON',
};

/** Scalars whose lists the wire format covers (as for PostgreSQL arrays). */
const LISTABLE = new Set<ScalarName>(['String', 'Int', 'BigInt', 'Float', 'Boolean', 'Date', 'Time', 'Timestamp', 'DateTime', 'JSON']);

/** A column's svc scalar from duckdb_columns().data_type (`INTEGER`, `DECIMAL(10,2)`, `VARCHAR[]`, `STRUCT(...)`). */
export function mapDuckDbType(dataType: string): DbColumnType {
  const t = dataType.trim().toUpperCase();
  const list = /^(.*)\[\d*\]$/.exec(t);
  if (list) {
    const element = mapDuckDbType(list[1]!);
    if (!element.list && !element.warning && LISTABLE.has(element.scalar)) return { scalar: element.scalar, list: true };
    return { scalar: 'JSON', list: false };
  }
  const decimal = /^DECIMAL\(\s*\d+\s*,\s*(\d+)\s*\)$/.exec(t);
  if (decimal) return { scalar: decimal[1] === '0' ? 'BigInt' : 'Float', list: false };
  // Nested values arrive as JSON objects.
  if (/^(STRUCT|MAP|UNION)\(/.test(t)) return { scalar: 'JSON', list: false };
  if (/^ENUM\(/.test(t)) return { scalar: 'String', list: false };
  const scalar = BY_TYPE[t];
  if (scalar) return { scalar, list: false };
  return { scalar: 'String', list: false, warning: `type ${dataType} has no svc scalar; served as String` };
}

const RELATIONS_SQL = `SELECT table_name AS name, 'r' AS kind FROM duckdb_tables() WHERE database_name = $1 AND schema_name = 'main' AND NOT temporary
  UNION ALL SELECT view_name, 'v' FROM duckdb_views() WHERE database_name = $1 AND schema_name = 'main' AND NOT internal AND NOT temporary
  ORDER BY name`;
const COLUMNS_SQL = `SELECT table_name AS rel, column_name AS name, column_index AS num, is_nullable AS nullable, data_type
  FROM duckdb_columns() WHERE database_name = $1 AND schema_name = 'main' ORDER BY table_name, column_index`;
const KEYS_SQL = `SELECT constraint_name AS name, constraint_type AS type, table_name AS owner, constraint_column_names AS cols,
    referenced_table AS target, referenced_column_names AS target_cols
  FROM duckdb_constraints() WHERE database_name = $1 AND schema_name = 'main' AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')
  ORDER BY table_name, constraint_index`;

const names = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** Reads the `main` schema of the DuckDB database attached as the source. */
export async function introspectDuckDb(source: DuckDbSource, sourceName: string): Promise<IntrospectedCatalog> {
  const db = source.name;
  const tables = await source.rows(RELATIONS_SQL, [db]);
  const oid = new Map(tables.map((t, i) => [String(t.name), i + 1]));
  const columnRows = await source.rows(COLUMNS_SQL, [db]);
  const num = new Map(columnRows.map((c) => [`${String(c.rel)}.${String(c.name)}`, Number(c.num)]));
  const columns = columnRows.map((c) => ({
    rel: oid.get(String(c.rel)) ?? 0, name: String(c.name), num: Number(c.num), notNull: c.nullable === false, type: mapDuckDbType(String(c.data_type)),
  }));
  const constraints = (await source.rows(KEYS_SQL, [db])).map((k) => {
    const owner = String(k.owner);
    const target = k.target === null || k.target === undefined ? undefined : String(k.target);
    return {
      name: String(k.name ?? `${owner}_key`), type: k.type === 'PRIMARY KEY' ? 'p' : 'f', owner: oid.get(owner) ?? 0,
      target: target === undefined ? 0 : (oid.get(target) ?? -1),
      ownerCols: names(k.cols).map((c) => num.get(`${owner}.${c}`) ?? 0), targetCols: names(k.target_cols).map((c) => num.get(`${target}.${c}`) ?? 0),
    };
  });
  const relations = tables.map((t) => ({ oid: oid.get(String(t.name))!, name: String(t.name), kind: String(t.kind) }));
  return catalogSdl({ relations, columns, constraints }, 'DuckDB', 'main', sourceName);
}
