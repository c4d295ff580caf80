// `self_defined: true` on MySQL / MariaDB (SPEC §3.1): the catalog is read from the database's
// information_schema (tables, views, columns, primary and foreign keys) into catalog SDL, built by
// the same code as for PostgreSQL. The type table is written out in docs/mysql.md.
import type { ScalarName } from '../../catalog/model.js';
import { catalogSdl, type DbColumnType, type IntrospectedCatalog } from '../introspect-sdl.js';
import type { MysqlSource } from './source.js';

const BY_TYPE: Readonly<Record<string, ScalarName>> = {
  tinyint: 'Int', smallint: 'Int', mediumint: 'Int', int: 'Int', integer: 'Int', year: 'Int', bigint: 'BigInt',
  float: 'Float', double: 'Float', real: 'Float',
  char: 'String', varchar: 'String', tinytext: 'String', text: 'String', mediumtext: 'String', longtext: 'String', enum: 'String', set: 'String',
  uuid: 'String', inet4: 'String', inet6: 'String', bit: 'String',
  date: 'Date', time: 'Time', datetime: 'DateTime', timestamp: 'Timestamp', json: 'JSON',
};

/** A column's svc scalar from information_schema.columns (`data_type`, `column_type`). */
export function mapMysqlType(dataType: string, columnType: string, json: boolean): DbColumnType {
  const t = dataType.toLowerCase();
  // MariaDB stores JSON as LONGTEXT with a json_valid check; MySQL has a json type.
  if (json || t === 'json') return { scalar: 'JSON', list: false };
  if (/^tinyint\(1\)/i.test(columnType) || t === 'boolean' || t === 'bool') return { scalar: 'Boolean', list: false };
  // An unsigned int goes past 2^31-1, an unsigned bigint past 2^63-1: both are BigInt (exact).
  if ((t === 'bigint' || t === 'int' || t === 'integer') && /unsigned/i.test(columnType)) return { scalar: 'BigInt', list: false };
  if (t === 'decimal' || t === 'numeric') return { scalar: /,\s*0\)/.test(columnType) || !/,/.test(columnType) ? 'BigInt' : 'Float', list: false };
  const scalar = BY_TYPE[t];
  if (scalar) return { scalar, list: false };
  return { scalar: 'String', list: false, warning: `type ${columnType} has no svc scalar; served as String` };
}

const TABLES_SQL = `SELECT table_name AS name, table_type AS kind FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`;
const COLUMNS_SQL = `SELECT table_name AS rel, column_name AS name, ordinal_position AS num, is_nullable AS nullable, data_type, column_type
  FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`;
/** MariaDB's JSON columns: a CHECK (json_valid(`col`)) the server adds itself. */
const JSON_CHECKS_SQL = `SELECT table_name AS rel, check_clause AS clause FROM information_schema.check_constraints WHERE constraint_schema = $1 AND check_clause LIKE 'json_valid(%'`;
const KEYS_SQL = `SELECT k.constraint_name AS name, t.constraint_type AS type, k.table_name AS owner, k.column_name AS col,
    k.referenced_table_name AS target, k.referenced_column_name AS target_col
  FROM information_schema.key_column_usage k
  JOIN information_schema.table_constraints t
    ON t.constraint_schema = k.constraint_schema AND t.table_name = k.table_name AND t.constraint_name = k.constraint_name
  WHERE k.table_schema = $1 AND t.constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')
  ORDER BY k.table_name, k.constraint_name, k.ordinal_position`;

export async function introspectMysql(source: MysqlSource, sourceName: string): Promise<IntrospectedCatalog> {
  const db = source.defaultSchema;
  const tables = await source.rows(TABLES_SQL, [db]);
  const oid = new Map(tables.map((t, i) => [String(t.name), i + 1]));
  const jsonColumns = new Set((await source.rows(JSON_CHECKS_SQL, [db])).map((r) => `${String(r.rel)}.${/json_valid\([`"]?([^`")]+)[`"]?\)/i.exec(String(r.clause))?.[1] ?? ''}`));
  const columnRows = await source.rows(COLUMNS_SQL, [db]);
  const num = new Map(columnRows.map((c) => [`${String(c.rel)}.${String(c.name)}`, Number(c.num)]));
  const columns = columnRows.map((c) => ({
    rel: oid.get(String(c.rel)) ?? 0, name: String(c.name), num: Number(c.num), notNull: c.nullable === 'NO',
    type: mapMysqlType(String(c.data_type), String(c.column_type), jsonColumns.has(`${String(c.rel)}.${String(c.name)}`)),
  }));
  const grouped = new Map<string, { name: string; type: string; owner: number; target: number; ownerCols: number[]; targetCols: number[] }>();
  for (const k of await source.rows(KEYS_SQL, [db])) {
    const key = `${String(k.owner)}.${String(k.name)}`;
    let c = grouped.get(key);
    if (!c) {
      c = { name: String(k.name), type: k.type === 'PRIMARY KEY' ? 'p' : 'f', owner: oid.get(String(k.owner)) ?? 0, target: k.target ? (oid.get(String(k.target)) ?? -1) : 0, ownerCols: [], targetCols: [] };
      grouped.set(key, c);
    }
    c.ownerCols.push(num.get(`${String(k.owner)}.${String(k.col)}`) ?? 0);
    if (k.target) c.targetCols.push(num.get(`${String(k.target)}.${String(k.target_col)}`) ?? 0);
  }
  const relations = tables.map((t) => ({ oid: oid.get(String(t.name))!, name: String(t.name), kind: t.kind === 'VIEW' ? 'v' : 'r' }));
  return catalogSdl({ relations, columns, constraints: [...grouped.values()] }, 'MySQL', db, sourceName);
}
