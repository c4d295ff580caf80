// A catalog checked against its database when the source loads (issue 29): a table or column the
// database lacks, or a column whose type cannot carry the declared scalar, is a load error naming
// the catalog file and line, the column and both types, with the scalar that fits. The source does
// not load (its status and /ready say why); the other sources are not affected. Declarations that
// work with a caveat (a BIGINT served as Int) are warnings in data_source_status. Timestamp fields
// over naive timestamps are marked, to be read as instants in UTC (docs/catalogs.md "Timestamps"),
// and columns whose type the database cannot write into JSON (MySQL BIT, YEAR) are marked to be read
// by the dialect (ColumnField.read).
import type { ColumnField, ColumnRead, DataObject, ResolvedCatalog } from '../catalog/model.js';
import { where } from '../catalog/errors.js';
import { type DbColumnKind, judgeColumn } from './column-types.js';
import type { ColumnReader } from './kind.js';
import type { DataSourceRuntime } from './types.js';

export interface DatabaseCheck {
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
  /** `object.field` of Timestamp fields over naive timestamps (read as UTC; see markColumns). */
  readonly naive: ReadonlySet<string>;
  /** `object.field` of columns the dialect reads itself (see markColumns). */
  readonly reads: ReadonlyMap<string, ColumnRead>;
  /** `object.field` of Float fields over 4-byte floats (ColumnField.single). */
  readonly singles: ReadonlySet<string>;
  /** `object.field` of fields over integer or decimal columns (ColumnField.exact). */
  readonly exacts: ReadonlySet<string>;
}

/** Column kinds whose values are exact numbers: their averages cannot overflow (ColumnField.exact). */
const EXACT = new Set(['int32', 'int64', 'int128', 'decimal_int', 'decimal']);

interface DbColumn {
  readonly type: string;
  readonly kind: DbColumnKind;
}

/** The columns of a table by name, or undefined when the database has no such table (or view). */
async function tableColumns(runtime: DataSourceRuntime, reader: ColumnReader, parts: readonly string[]): Promise<Map<string, DbColumn> | undefined> {
  const [table, schema, database] = [...parts].reverse();
  const where = ['table_schema = $1', 'table_name = $2', ...(database !== undefined ? ['table_catalog = $3'] : [])];
  const rows = await runtime.rows(`${reader.sql} WHERE ${where.join(' AND ')}`, [schema ?? '', table ?? '', ...(database !== undefined ? [database] : [])]);
  if (!rows.length) return undefined;
  return new Map(rows.map((r) => [String(r.name), reader.columnOf(r)]));
}

type Out = { problems: string[]; warnings: string[]; naive: Set<string>; reads: Map<string, ColumnRead>; singles: Set<string>; exacts: Set<string> };

/** How a column of this kind, declared as the field is, is read; undefined for a column the database writes into JSON right. */
function readOf(f: ColumnField, kind: DbColumnKind): ColumnRead | undefined {
  if (kind.list) return undefined;
  if (kind.kind === 'bits') return { kind: 'bits', width: kind.width ?? 1, as: f.type === 'String' ? 'text' : 'number' };
  if (kind.kind === 'year') return { kind: 'year' };
  return undefined;
}

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
  const read = readOf(f, column.kind);
  if (read) out.reads.set(`${obj.name}.${f.name}`, read);
  if (f.type === 'Float' && column.kind.single) out.singles.add(`${obj.name}.${f.name}`);
  if (!column.kind.list && EXACT.has(column.kind.kind)) out.exacts.add(`${obj.name}.${f.name}`);
}

/**
 * A field computed by `@sql`: its expression is run once on no rows (`WHERE 1 = 0`), so one that
 * names a column the table lacks, or that the database cannot run, fails the load rather than every
 * query. `[field]` becomes the field's column, as the planner does.
 */
async function checkComputed(runtime: DataSourceRuntime, obj: DataObject, f: ColumnField, parts: readonly string[], table: string, out: Out): Promise<void> {
  const q = (n: string) => runtime.compiler.quoteIdentifier(n);
  // The table is aliased `objects`, the name hugr's catalogs use for the object's own columns.
  const expr = f.sql!.replace(/\[([A-Za-z_][A-Za-z0-9_]*)\]/g, (whole, name: string) => {
    const field = obj.fields.find((x) => x.name === name);
    return field ? `objects.${q(field.column)}` : whole;
  });
  try {
    await runtime.rows(`SELECT (${expr}) AS ${q('v')} FROM ${parts.map(q).join('.')} AS objects WHERE 1 = 0`);
  } catch (e) {
    const why = String((e as Error).message ?? e).split('\n')[0];
    out.problems.push(`field "${f.name}" of "${obj.localName}" ${where(f.loc)}: its @sql expression does not run on table "${table}": ${why}`);
  }
}

/**
 * Checks every table-backed object of a catalog against the database, read as the source's kind
 * says (`capabilities.columns`); a kind without a column reader (http, extension) is not checked.
 */
export async function checkAgainstDatabase(runtime: DataSourceRuntime, catalog: ResolvedCatalog, reader: ColumnReader | undefined): Promise<DatabaseCheck> {
  const out: Out = { problems: [], warnings: [], naive: new Set(), reads: new Map(), singles: new Set(), exacts: new Set() };
  if (!reader) return out;
  for (const obj of catalog.objects) {
    if (obj.sql !== undefined) continue; // @view(sql:) is a query of the catalog, not a database object
    const parts = runtime.tableName(obj);
    // The attached DuckDB file's own name is an internal alias: the user knows schema.table.
    const shown = parts.slice(parts.length === 3 ? 1 : 0).join('.');
    const columns = await tableColumns(runtime, reader, parts);
    if (!columns) {
      out.problems.push(`table "${shown}" of "${obj.localName}" ${where(obj.loc)} does not exist in the database`);
      continue;
    }
    for (const f of obj.fields) if (f.sql === undefined) checkField(obj, f, shown, columns.get(f.column), out);
    for (const f of obj.fields) if (f.sql !== undefined) await checkComputed(runtime, obj, f, parts, shown, out);
  }
  if (!reader.castsNaive) out.naive.clear();
  return out;
}

/**
 * The catalog with its Timestamp fields over naive timestamps marked (ColumnField.naive) and the
 * columns the dialect reads itself marked (ColumnField.read), or as it is.
 */
export function markColumns(catalog: ResolvedCatalog, check: Pick<DatabaseCheck, 'naive' | 'reads' | 'singles' | 'exacts'>): ResolvedCatalog {
  if (!check.naive.size && !check.reads.size && !check.singles.size && !check.exacts.size) return catalog;
  const mark = (o: DataObject, f: ColumnField): ColumnField => {
    const key = `${o.name}.${f.name}`;
    const read = check.reads.get(key);
    const naive = check.naive.has(key);
    const single = check.singles.has(key);
    const exact = check.exacts.has(key);
    return naive || read || single || exact
      ? { ...f, ...(naive ? { naive: true } : {}), ...(read ? { read } : {}), ...(single ? { single: true } : {}), ...(exact ? { exact: true } : {}) }
      : f;
  };
  const objects = catalog.objects.map((o) => {
    const fields = o.fields.map((f) => mark(o, f));
    return fields.every((f, i) => f === o.fields[i]) ? o : { ...o, fields };
  });
  return { ...catalog, objects };
}
