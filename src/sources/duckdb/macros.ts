// A DuckDB macro is bound where it is called, not where it was created: a macro of an attached
// database that names its tables bare (`FROM orders`) looks for them in the engine's default
// database and fails ("Table with name orders does not exist"). hugr's catalogs call such macros by
// name (`@function(name: "get_customer_orders")`), so at attach their bodies are read back,
// every bare table qualified with the source's database (DuckDB's own parser: json_serialize_sql /
// json_deserialize_sql, so no SQL is parsed here), and the parameters marked `[$1]`, `[$2]`, ...:
// the planner calls the body in place of the name (src/planner/function.ts).
import type { DuckDBConnection } from '@duckdb/node-api';

const MARK = '__svc_macro_arg_';

/** The bodies of the database's own macros whose tables are named bare, by macro name. */
export async function macroBodies(c: DuckDBConnection, database: string): Promise<ReadonlyMap<string, string>> {
  const rows = (await c.runAndReadAll(
    `SELECT function_name AS name, function_type AS kind, parameters, macro_definition AS body FROM duckdb_functions()
      WHERE database_name = $1 AND function_type IN ('macro', 'table_macro') AND macro_definition IS NOT NULL`,
    [database],
  )).getRowObjectsJS() as { name: string; kind: string; parameters: string[] | null; body: string }[];
  const out = new Map<string, string>();
  for (const r of rows) {
    // A macro DuckDB cannot give back is called by name, as before: never a reason to refuse the source.
    const text = await qualified(c, database, r).catch(() => undefined);
    if (text) out.set(r.name, text.replace(new RegExp(`"?${MARK}(\\d+)"?`, 'g'), (_m, i: string) => `[$${Number(i) + 1}]`));
  }
  return out;
}

async function qualified(c: DuckDBConnection, database: string, r: { kind: string; parameters: string[] | null; body: string }): Promise<string | undefined> {
  const select = r.kind === 'table_macro' ? r.body : `SELECT ${r.body}`;
  const tree = JSON.parse(String((await c.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR) AS j', [select])).getRows()[0]?.[0] ?? '{}'));
  if (tree.error || !Array.isArray(tree.statements)) return undefined;
  const ctes = new Set<string>();
  collectCtes(tree, ctes);
  if (!qualify(tree, database, (r.parameters ?? []).map(String), ctes)) return undefined;
  return String((await c.runAndReadAll('SELECT json_deserialize_sql($1::JSON) AS s', [JSON.stringify(tree)])).getRows()[0]?.[0] ?? '') || undefined;
}

function collectCtes(node: unknown, into: Set<string>): void {
  if (!node || typeof node !== 'object') return;
  const map = (node as { cte_map?: { map?: { key?: string }[] } }).cte_map?.map;
  for (const e of map ?? []) if (e.key) into.add(e.key.toLowerCase());
  for (const v of Object.values(node)) collectCtes(v, into);
}

/** Qualifies bare tables and marks parameters in place; true when a bare table was found. */
function qualify(node: unknown, database: string, params: readonly string[], ctes: ReadonlySet<string>): boolean {
  if (!node || typeof node !== 'object') return false;
  let found = false;
  const n = node as Record<string, unknown>;
  // Positions in the text (unsigned 64-bit, beyond what a JSON number keeps here): not needed to write it back.
  if ('query_location' in n) n.query_location = 0;
  if (n.type === 'BASE_TABLE' && n.catalog_name === '' && typeof n.table_name === 'string' && !ctes.has(n.table_name.toLowerCase())) {
    if (n.schema_name === '' || n.schema_name === undefined) n.schema_name = 'main';
    n.catalog_name = database;
    found = true;
  }
  if (n.class === 'COLUMN_REF' && Array.isArray(n.column_names) && n.column_names.length === 1) {
    const i = params.indexOf(String(n.column_names[0]));
    if (i >= 0) n.column_names = [`${MARK}${i}`];
  }
  for (const v of Object.values(n)) if (qualify(v, database, params, ctes)) found = true;
  return found;
}
