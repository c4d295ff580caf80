// The SQL a catalog writes itself, made to run where the source's statements run, when the source
// loads: hugr's catalogs write `@view(sql: "SELECT * FROM customers ...")` and `@function(sql:)`
// with bare tables, which name the source's database there but not in svc's embedded engine, where
// a DuckDB source is one attached database among others (DataSourceRuntime.qualifySql).
import type { ResolvedCatalog } from '../catalog/model.js';
import type { DataSourceRuntime } from './types.js';

export async function qualifyCatalogSql(runtime: DataSourceRuntime, catalog: ResolvedCatalog): Promise<ResolvedCatalog> {
  if (!runtime.qualifySql) return catalog;
  const own = <T extends { source: string; sql?: string }>(x: T): boolean => x.source === runtime.name && x.sql !== undefined;
  const templates = [...catalog.objects.filter(own), ...catalog.functions.filter(own)].map((x) => x.sql!);
  const done = await runtime.qualifySql(templates);
  if (!done.size) return catalog;
  const swap = <T extends { source: string; sql?: string }>(x: T): T => {
    const sql = own(x) ? done.get(x.sql!) : undefined;
    return sql === undefined ? x : { ...x, sql };
  };
  return { ...catalog, objects: catalog.objects.map(swap), functions: catalog.functions.map(swap) };
}
