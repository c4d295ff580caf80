// core.meta (seed 001) over HTTP: every view answers what the engine itself answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
/** The engine's own answer, asked directly. */
const engine = (sql: string) => t.runtime.engine.withConnection(async (c) => (await c.runAndReadAll(sql)).getRowObjectsJson());

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('core.meta', () => {
  it('lists the tables the engine lists, with their ids and sizes', async () => {
    const r = await t.gql('{ core { meta { tables(order_by: [{field: "database_name"}, {field: "name"}]) { id name database_name schema_name column_count has_primary_key } } } }');
    expect(r.body.errors).toBeUndefined();
    const want = await engine('SELECT table_oid AS id, table_name AS name, database_name, schema_name, column_count, has_primary_key FROM duckdb_tables() ORDER BY database_name, table_name');
    expect(r.body.data.core.meta.tables).toEqual(want.map((w) => ({ ...w, id: Number(w.id), column_count: Number(w.column_count) })));
    // The example source and the core database are both attached to the engine.
    const names = r.body.data.core.meta.tables.map((x: { database_name: string; name: string }) => `${x.database_name}.${x.name}`);
    expect(names).toContain('shop.orders');
    expect(names).toContain('core.data_sources');
  });

  it("navigates as hugr's core.meta does: a DuckDB source's tables, their columns and constraints, by name", async () => {
    const r = await t.gql(`{ core { meta {
      databases_by_name(name: "shop") { name schemas { name } tables(filter: {name: {eq: "orders"}}) { name columns(order_by: [{field: "ordinal_position"}], nested_limit: 2) { name ordinal_position } constraints(filter: {type: {eq: "PRIMARY KEY"}}) { columns } } }
      columns(filter: {database_name: {eq: "shop"}, table_name: {eq: "orders"}, name: {eq: "id"}}) { table { name database { name } } }
    } } }`);
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.core.meta).toEqual({
      databases_by_name: { name: 'shop', schemas: [{ name: 'main' }], tables: [{ name: 'orders', columns: [{ name: 'id', ordinal_position: 1 }, { name: 'customer_id', ordinal_position: 2 }], constraints: [{ columns: ['id'] }] }] },
      columns: [{ table: { name: 'orders', database: { name: 'shop' } } }],
    });
  });

  it('filters, pages and aggregates like any data object', async () => {
    const r = await t.gql(`{ core { meta {
      columns(filter: {table_name: {eq: "orders"}, database_name: {eq: "shop"}}, order_by: [{field: "ordinal_position"}], limit: 2, offset: 1) { name data_type ordinal_position }
      columns_aggregation(filter: {database_name: {eq: "shop"}}) { _rows_count }
      tables_bucket_aggregation(order_by: [{field: "key.database_name"}]) { key { database_name } aggregations { _rows_count } }
    } } }`);
    expect(r.body.errors).toBeUndefined();
    const cols = await engine("SELECT column_name AS name, data_type, column_index AS ordinal_position FROM duckdb_columns() WHERE table_name = 'orders' AND database_name = 'shop' ORDER BY column_index LIMIT 2 OFFSET 1");
    expect(r.body.data.core.meta.columns).toEqual(cols);
    const [count] = await engine("SELECT count(*) AS n FROM duckdb_columns() WHERE database_name = 'shop'");
    expect(r.body.data.core.meta.columns_aggregation._rows_count).toBe(Number(count!.n));
    const buckets = await engine('SELECT database_name, count(*) AS n FROM duckdb_tables() GROUP BY 1 ORDER BY 1');
    expect(r.body.data.core.meta.tables_bucket_aggregation).toEqual(buckets.map((b) => ({ key: { database_name: b.database_name }, aggregations: { _rows_count: Number(b.n) } })));
  });

  it('answers every view of seed 001 with the engine\'s row counts', async () => {
    const views: Record<string, string> = {
      databases: 'duckdb_databases()', schemas: 'duckdb_schemas()', views: 'duckdb_views()', constraints: 'duckdb_constraints()',
      extensions: 'duckdb_extensions()', functions: 'duckdb_functions()', settings: 'duckdb_settings()', duckdb_memory: 'duckdb_memory()',
      secrets: 'duckdb_secrets()', secret_types: 'duckdb_secret_types()', log_contexts: 'duckdb_log_contexts()', log_entries: 'duckdb_logs()',
      temporary_files: 'duckdb_temporary_files()',
    };
    const q = Object.keys(views).map((v) => `${v}: ${v}_aggregation { _rows_count }`).join(' ');
    const r = await t.gql(`{ core { meta { ${q} } } }`);
    expect(r.body.errors).toBeUndefined();
    for (const [v, fn] of Object.entries(views)) {
      const [row] = await engine(`SELECT count(*) AS n FROM ${fn}`);
      // duckdb_memory and the log views move by themselves; the rest is fixed while the test runs.
      if (v === 'duckdb_memory' || v.startsWith('log_')) expect(r.body.data.core.meta[v]._rows_count).toBeGreaterThanOrEqual(0);
      else expect([v, r.body.data.core.meta[v]._rows_count]).toEqual([v, Number(row!.n)]);
    }
  });

  it('shows constraints with their column lists and the references of foreign keys', async () => {
    const r = await t.gql('{ core { meta { constraints(filter: {database_name: {eq: "shop"}, type: {eq: "FOREIGN KEY"}}, order_by: [{field: "table_name"}, {field: "name"}]) { table_name name type columns references_table_name references_columns } } } }');
    expect(r.body.errors).toBeUndefined();
    const want = await engine("SELECT table_name, constraint_name AS name, constraint_type AS type, constraint_column_names AS columns, referenced_table AS references_table_name, referenced_column_names AS references_columns FROM duckdb_constraints() WHERE database_name = 'shop' AND constraint_type = 'FOREIGN KEY' ORDER BY table_name, constraint_name");
    expect(want.length).toBeGreaterThan(0);
    expect(r.body.data.core.meta.constraints).toEqual(want);
  });

  it('reads settings by key and masks credential values', async () => {
    const r = await t.gql('{ core { meta { settings_by_pk(name: "threads") { name value scope } } } }');
    const [want] = await engine("SELECT name, value, scope FROM duckdb_settings() WHERE name = 'threads'");
    expect(r.body.data.core.meta.settings_by_pk).toEqual(want);
    const secrets = await t.gql('{ core { meta { settings(filter: {name: {ilike: "%secret%"}}) { name value } } } }');
    for (const s of secrets.body.data.core.meta.settings) expect(['***', '', null]).toContain(s.value);
  });

  it('returns the engine version', async () => {
    const r = await t.gql('{ function { core { meta { engine_version } } } }');
    const [want] = await engine('SELECT version() AS v');
    expect(r.body.data.function.core.meta.engine_version).toBe(want!.v);
    expect(r.body.data.function.core.meta.engine_version).toMatch(/^v\d+\.\d+/);
  });

  it('is read-only: no mutations are generated for the engine views', async () => {
    const r = await t.gql('{ __type(name: "_module_core_meta_mutation") { name } }');
    expect(r.body.data.__type).toBeNull();
  });
});
