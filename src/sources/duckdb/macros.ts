// A DuckDB macro is bound where it is called, not where it was created: a macro of an attached
// database that names its tables bare (`FROM orders`) looks for them in the engine's default
// database and fails ("Table with name orders does not exist"). hugr's catalogs call such macros by
// name (`@function(name: "get_customer_orders")`), so at attach their bodies are read back,
// every bare table qualified with the source's database (DuckDB's own parser: json_serialize_sql /
// json_deserialize_sql, so no SQL is parsed here), and the parameters marked `[$1]`, `[$2]`, ...:
// the planner calls the body in place of the name (src/planner/function.ts).
// The same holds for the SQL a catalog writes itself: hugr's pages write `@view(sql: "SELECT * FROM
// customers ...")` and `@function(sql:)` queries with bare tables, which run in svc's engine, not in
// the source's database; qualifiedTemplate qualifies them when the source loads.
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

const TEMPLATE_MARK = '__svc_template_part_';

/**
 * A catalog SQL template (`@view(sql:)`, `@function(sql:)`: a statement or an expression) with its
 * bare tables qualified with the source's database, its placeholders (`[$from]`, `[$auth.user_id]`,
 * `[id]`, `[$catalog]`) kept as written; undefined when it names no bare table or DuckDB cannot parse
 * it (a placeholder where DuckDB wants a keyword): then the template is used as written. `keep`
 * names (lower case) stay bare (tables of the engine's own database that the source lacks, which
 * such SQL found before); `schemas` (lower case) are the source's own schemas, whose tables
 * (`sales.orders`) are qualified too.
 */
export async function qualifiedTemplate(
  c: DuckDBConnection, database: string, template: string, keep: ReadonlySet<string> = new Set(), schemas: ReadonlySet<string> = new Set(),
): Promise<string | undefined> {
  const parts: string[] = [];
  const marked = template.replace(/\[\$?[A-Za-z_][A-Za-z0-9_.]*\]/g, (m) => `${TEMPLATE_MARK}${parts.push(m) - 1}`);
  // A statement (a view's query), else an expression (a function's `sql` may be one: `(SELECT ...)`).
  let text = await roundTrip(c, marked, database, keep, schemas);
  if (text === null) {
    const select = await roundTrip(c, `SELECT ${marked}`, database, keep, schemas);
    text = typeof select === 'string' && select.startsWith('SELECT ') ? select.slice('SELECT '.length) : undefined;
  }
  if (!text) return undefined;
  const back = text.replace(new RegExp(`"?${TEMPLATE_MARK}(\\d+)"?`, 'g'), (m, i: string) => parts[Number(i)] ?? m);
  // Every placeholder must come back: otherwise DuckDB rewrote one away, and the text stays as written.
  return parts.every((p) => back.includes(p)) ? back : undefined;
}

/** `sql` written back by DuckDB with its bare tables qualified; undefined: none; null: not one statement. */
async function roundTrip(c: DuckDBConnection, sql: string, database: string, keep: ReadonlySet<string>, schemas: ReadonlySet<string>): Promise<string | undefined | null> {
  const tree = JSON.parse(String((await c.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR) AS j', [sql])).getRows()[0]?.[0] ?? '{}'));
  if (tree.error || !Array.isArray(tree.statements) || tree.statements.length !== 1) return null;
  const ctes = new Set<string>(keep);
  collectCtes(tree, ctes);
  if (!qualify(tree, database, [], ctes, schemas)) return undefined;
  return String((await c.runAndReadAll('SELECT json_deserialize_sql($1::JSON) AS s', [JSON.stringify(tree)])).getRows()[0]?.[0] ?? '') || undefined;
}

/**
 * Qualifies bare tables and marks parameters in place; true when a bare table was found. `schemas`
 * (catalog SQL): a table with a schema is qualified only when that schema is one of these, the
 * source's own (`sales.orders`); others (`[$catalog].orders`, `shop.orders`: another attached
 * database) stay as written.
 */
function qualify(node: unknown, database: string, params: readonly string[], ctes: ReadonlySet<string>, schemas?: ReadonlySet<string>): boolean {
  if (!node || typeof node !== 'object') return false;
  let found = false;
  const n = node as Record<string, unknown>;
  // Positions in the text (unsigned 64-bit, beyond what a JSON number keeps here): not needed to write it back.
  if ('query_location' in n) n.query_location = 0;
  if (n.type === 'BASE_TABLE' && n.catalog_name === '' && typeof n.table_name === 'string' && !ctes.has(n.table_name.toLowerCase())
    && (!schemas || !n.schema_name || schemas.has(String(n.schema_name).toLowerCase()))) {
    if (n.schema_name === '' || n.schema_name === undefined) n.schema_name = 'main';
    n.catalog_name = database;
    found = true;
  }
  if (n.class === 'COLUMN_REF' && Array.isArray(n.column_names) && n.column_names.length === 1) {
    const i = params.indexOf(String(n.column_names[0]));
    if (i >= 0) n.column_names = [`${MARK}${i}`];
  }
  for (const v of Object.values(n)) if (qualify(v, database, params, ctes, schemas)) found = true;
  return found;
}
