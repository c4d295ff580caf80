// SPEC §3.1: tables and columns a catalog names but the database lacks are warnings, reported by
// data_source_status and describe_data_source_schema(log: true), not load failures: the source is
// served, and a query reaching a missing column fails with its own precise error.
import type { ResolvedCatalog } from '../catalog/model.js';
import type { DataSourceRuntime } from './types.js';

/** One warning per data object whose table is missing, or per missing column of a present table. */
export async function missingInDatabase(runtime: DataSourceRuntime, catalog: ResolvedCatalog): Promise<string[]> {
  const warnings: string[] = [];
  for (const obj of catalog.objects) {
    if (obj.sql !== undefined) continue; // @view(sql:) is a query of the catalog, not a database object
    const parts = runtime.tableName(obj);
    const [table, schema, database] = [...parts].reverse();
    const where = ['table_schema = $1', 'table_name = $2', ...(database !== undefined ? ['table_catalog = $3'] : [])];
    const rows = await runtime.rows(`SELECT column_name FROM information_schema.columns WHERE ${where.join(' AND ')}`, [schema ?? '', table ?? '', ...(database !== undefined ? [database] : [])]);
    const shown = parts.slice(database !== undefined ? 1 : 0).join('.');
    if (!rows.length) {
      warnings.push(`table "${shown}" of "${obj.localName}" does not exist in the database`);
      continue;
    }
    const present = new Set(rows.map((r) => String(r.column_name)));
    for (const f of obj.fields) {
      if (f.sql === undefined && !present.has(f.column)) warnings.push(`column "${f.column}" of "${obj.localName}" does not exist in table "${shown}"`);
    }
  }
  return warnings;
}
