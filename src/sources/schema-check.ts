// A catalog checked against its database when the source loads (issue 29): a table or column the
// database lacks, or a column whose type cannot carry the declared scalar, is a load error naming
// the catalog file and line, the column and both types, with the scalar that fits. The source does
// not load (its status and /ready say why); the other sources are not affected. Declarations that
// work with a caveat (a BIGINT served as Int) are warnings in data_source_status. Timestamp fields
// over naive timestamps are marked, to be read as instants in UTC (docs/catalogs.md "Timestamps").
import type { ColumnField, DataObject, ResolvedCatalog } from '../catalog/model.js';
import { where } from '../catalog/errors.js';
import { type DbColumnKind, duckdbKind, judgeColumn, mysqlKind, postgresKind } from './column-types.js';
import type { DataSourceRuntime, Row } from './types.js';

export interface DatabaseCheck {
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
  /** `object.field` of Timestamp fields over naive timestamps (read as UTC; see markNaive). */
  readonly naive: ReadonlySet<string>;
}

/** Sources whose Timestamp fields over naive columns are cast to instants (MySQL sessions read DATETIME in UTC already). */
const CASTS_NAIVE = new Set(['duckdb', 'postgres']);

interface DbColumn {
  readonly type: string;
  readonly kind: DbColumnKind;
}

/** information_schema.columns of one table, as each dialect names its types. */
const COLUMNS_SQL: Readonly<Record<string, string>> = {
  duckdb: 'SELECT column_name AS name, data_type AS type FROM information_schema.columns',
  postgres: 'SELECT column_name AS name, data_type AS type, udt_name AS udt, numeric_scale AS scale FROM information_schema.columns',
  mysql: 'SELECT column_name AS name, data_type AS type, column_type AS udt FROM information_schema.columns',
};

function columnOf(type: string, r: Row): DbColumn {
  const dataType = String(r.type);
  if (type === 'postgres') {
    const udt = String(r.udt);
    // data_type says `ARRAY` or `USER-DEFINED` where udt_name has the type itself.
    const shown = dataType === 'ARRAY' ? `${udt.slice(1)}[]` : dataType === 'USER-DEFINED' ? udt : dataType;
    return { type: shown, kind: postgresKind(udt, r.scale === null || r.scale === undefined ? null : Number(r.scale)) };
  }
  if (type === 'mysql') return { type: String(r.udt), kind: mysqlKind(dataType, String(r.udt)) };
  return { type: dataType, kind: duckdbKind(dataType) };
}

/** The columns of a table by name, or undefined when the database has no such table (or view). */
async function tableColumns(runtime: DataSourceRuntime, parts: readonly string[]): Promise<Map<string, DbColumn> | undefined> {
  const [table, schema, database] = [...parts].reverse();
  const where = ['table_schema = $1', 'table_name = $2', ...(database !== undefined ? ['table_catalog = $3'] : [])];
  const rows = await runtime.rows(`${COLUMNS_SQL[runtime.type]} WHERE ${where.join(' AND ')}`, [schema ?? '', table ?? '', ...(database !== undefined ? [database] : [])]);
  if (!rows.length) return undefined;
  return new Map(rows.map((r) => [String(r.name), columnOf(runtime.type, r)]));
}

type Out = { problems: string[]; warnings: string[]; naive: Set<string> };

function checkField(obj: DataObject, f: ColumnField, table: string, column: DbColumn | undefined, out: Out): void {
  const what = `field "${f.name}" of "${obj.localName}" ${where(f.loc)}: column "${f.column}" of table "${table}"`;
  if (!column) {
    out.problems.push(`${what} does not exist`);
    return;
  }
  if (f.type === 'Timestamp' && !f.list && column.kind.kind === 'timestamp' && !column.kind.list) out.naive.add(`${obj.name}.${f.name}`);
  const verdict = judgeColumn(f.type, f.list, column.kind, column.type);
  if (verdict.error) out.problems.push(`${what} is ${verdict.error}`);
  else if (verdict.warning) out.warnings.push(`${what} is ${verdict.warning}`);
}

/**
 * A field computed by `@sql`: its expression is run once on no rows (`WHERE 1 = 0`), so one that
 * names a column the table lacks, or that the database cannot run, fails the load rather than every
 * query. `[field]` becomes the field's column, as the planner does.
 */
async function checkComputed(runtime: DataSourceRuntime, obj: DataObject, f: ColumnField, parts: readonly string[], table: string, out: Out): Promise<void> {
  const q = (n: string) => runtime.compiler.quoteIdentifier(n);
  const expr = f.sql!.replace(/\[([A-Za-z_][A-Za-z0-9_]*)\]/g, (whole, name: string) => {
    const field = obj.fields.find((x) => x.name === name);
    return field ? `${q('t')}.${q(field.column)}` : whole;
  });
  try {
    await runtime.rows(`SELECT (${expr}) AS ${q('v')} FROM ${parts.map(q).join('.')} AS ${q('t')} WHERE 1 = 0`);
  } catch (e) {
    const why = String((e as Error).message ?? e).split('\n')[0];
    out.problems.push(`field "${f.name}" of "${obj.localName}" ${where(f.loc)}: its @sql expression does not run on table "${table}": ${why}`);
  }
}

/** Checks every table-backed object of a DuckDB, PostgreSQL or MySQL catalog against the database. */
export async function checkAgainstDatabase(runtime: DataSourceRuntime, catalog: ResolvedCatalog): Promise<DatabaseCheck> {
  const out: Out = { problems: [], warnings: [], naive: new Set() };
  if (!(runtime.type in COLUMNS_SQL)) return out;
  for (const obj of catalog.objects) {
    if (obj.sql !== undefined) continue; // @view(sql:) is a query of the catalog, not a database object
    const parts = runtime.tableName(obj);
    // The attached DuckDB file's own name is an internal alias: the user knows schema.table.
    const shown = parts.slice(parts.length === 3 ? 1 : 0).join('.');
    const columns = await tableColumns(runtime, parts);
    if (!columns) {
      out.problems.push(`table "${shown}" of "${obj.localName}" ${where(obj.loc)} does not exist in the database`);
      continue;
    }
    for (const f of obj.fields) if (f.sql === undefined) checkField(obj, f, shown, columns.get(f.column), out);
    for (const f of obj.fields) if (f.sql !== undefined) await checkComputed(runtime, obj, f, parts, shown, out);
  }
  if (!CASTS_NAIVE.has(runtime.type)) out.naive.clear();
  return out;
}

/** The catalog with its Timestamp fields over naive timestamps marked (ColumnField.naive), or as it is. */
export function markNaive(catalog: ResolvedCatalog, naive: ReadonlySet<string>): ResolvedCatalog {
  if (!naive.size) return catalog;
  const objects = catalog.objects.map((o) =>
    o.fields.some((f) => naive.has(`${o.name}.${f.name}`)) ? { ...o, fields: o.fields.map((f) => (naive.has(`${o.name}.${f.name}`) ? { ...f, naive: true } : f)) } : o,
  );
  return { ...catalog, objects };
}
