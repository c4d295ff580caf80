// core.catalog (seed 001) over HTTP on both kinds of core database: compiled catalogs stored in the
// `_schema_*` tables, the views over them checked against introspection, the schema management
// mutations, descriptions surviving a reload and a restart, hard remove refused while loaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, tempDir, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

const kinds = ['duckdb', 'postgres'] as const;

describe.each(kinds)('core.catalog on a %s core database', (kind) => {
  let t: TestApp;
  let db: TestDatabase | undefined;
  let env: Record<string, string>;
  const dir = tempDir();
  /** Rows of a core table, read directly from the core database. */
  const table = (sql: string, params: unknown[] = []) => t.runtime.core.runtime.rows(sql, params);
  const ok = (r: { body: { errors?: unknown } }) => expect(r.body.errors).toBeUndefined();

  beforeAll(async () => {
    if (kind === 'postgres') db = await createTestDatabase('svc_catalog');
    env = { SVC_TEST_DIR: dir, ...(db ? { CORE_DB_PATH: db.url } : {}) };
    t = await startApp(env);
  });
  afterAll(async () => {
    await t.close();
    await db?.drop();
  });

  it('stores every served catalog with its version and shows it in catalogs', async () => {
    const r = await t.gql('{ core { catalog { catalogs(order_by: [{field: "name"}]) { name version type prefix as_module disabled suspended is_summarized } } } }');
    ok(r);
    const rows = r.body.data.core.catalog.catalogs;
    expect(rows.map((c: { name: string }) => c.name)).toEqual(['core', 'core.catalog', 'core.cluster', 'core.meta', 'core.storage', 'shop']);
    expect(rows.find((c: { name: string }) => c.name === 'shop')).toMatchObject({ type: 'duckdb', prefix: 'shop', as_module: false, disabled: false, suspended: false, is_summarized: false });
    for (const c of rows) expect(c.version).toMatch(/^[0-9a-f]{32}$/);
    const stored = await table(`SELECT name FROM ${t.runtime.core.t('_schema_catalogs')} ORDER BY name`);
    expect(stored.map((x) => x.name)).toEqual(['core', 'core.catalog', 'core.cluster', 'core.meta', 'core.storage', 'shop']);
  });

  it('lists the types and fields introspection shows, with their catalogs', async () => {
    const intro = await t.gql('{ __schema { types { name kind } } }');
    const want = intro.body.data.__schema.types.filter((x: { name: string }) => !x.name.startsWith('__'));
    const r = await t.gql('{ core { catalog { types(limit: 100000, order_by: [{field: "name"}]) { name kind } } } }');
    ok(r);
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    expect(r.body.data.core.catalog.types.sort(byName)).toEqual(want.sort(byName));
    const type = await t.gql('{ __type(name: "shop_orders") { fields { name type { name kind ofType { name } } } } }');
    const fields = await t.gql(`{ core { catalog {
      types_by_pk(name: "shop_orders") { hugr_type catalog module fields(nested_order_by: [{field: "ordinal"}]) { name field_type_name ordinal is_pk hugr_type } }
      arguments(filter: {type_name: {eq: "Query"}, field_name: {eq: "shop_orders"}}, order_by: [{field: "ordinal"}]) { name ordinal arg_type default_value is_list field { catalog } }
    } } }`);
    ok(fields);
    const t0 = fields.body.data.core.catalog.types_by_pk;
    expect(t0).toMatchObject({ hugr_type: 'table', catalog: 'shop', module: '' });
    expect(t0.fields.map((f: { name: string }) => f.name)).toEqual(type.body.data.__type.fields.map((f: { name: string }) => f.name));
    expect(t0.fields.find((f: { name: string }) => f.name === 'id')).toMatchObject({ is_pk: true, hugr_type: 'column' });
    expect(t0.fields.find((f: { name: string }) => f.name === 'customer')).toMatchObject({ hugr_type: 'relation', field_type_name: 'shop_customers' });
    const args = fields.body.data.core.catalog.arguments;
    expect(args.map((a: { name: string }) => a.name)).toEqual(['filter', 'order_by', 'limit', 'offset', 'distinct_on']);
    expect(args.map((a: { ordinal: number }) => a.ordinal)).toEqual([0, 1, 2, 3, 4]);
    expect(args.find((a: { name: string }) => a.name === 'limit')).toMatchObject({ arg_type: 'Int', default_value: '2000', field: { catalog: 'shop' } });
    expect(args.find((a: { name: string }) => a.name === 'order_by')).toMatchObject({ arg_type: '[OrderByField!]', is_list: true });
  });

  it('filters, orders, pages and aggregates the views, and follows their relations', async () => {
    const r = await t.gql(`{ core { catalog {
      types_bucket_aggregation(filter: {catalog: {in: ["shop", "core"]}}, order_by: [{field: "key.catalog"}]) { key { catalog } aggregations { _rows_count } }
      modules(filter: {name: {like: "core.%"}}, order_by: [{field: "name"}], limit: 2, offset: 1) { name query_root query_root_type { kind } }
      module_intro(filter: {module: {eq: "core.meta"}, field_name: {eq: "tables"}}) { type_type type_name hugr_type catalog }
      module_catalogs(filter: {module: {eq: "core"}}, order_by: [{field: "catalog"}]) { catalog catalog_info { prefix } }
      data_objects_by_pk(name: "shop_orders") { filter_type_name args_type_name queries(nested_order_by: [{field: "name"}]) { name query_type query_root } }
      enum_values(filter: {type_name: {eq: "OrderDirection"}}, order_by: [{field: "ordinal"}]) { name ordinal type { kind } }
    } } }`);
    ok(r);
    const c = r.body.data.core.catalog;
    const intro = await t.gql('{ __schema { types { name } } }');
    const count = (prefix: string) => intro.body.data.__schema.types.filter((x: { name: string }) => x.name.startsWith(prefix) || x.name.startsWith(`_${prefix}`)).length;
    expect(c.types_bucket_aggregation).toEqual([
      // Six core tables, eight generated types each (object, filters, inputs, aggregations).
      { key: { catalog: 'core' }, aggregations: { _rows_count: 6 * 8 } },
      { key: { catalog: 'shop' }, aggregations: { _rows_count: count('shop_') } },
    ]);
    expect(c.modules).toEqual([{ name: 'core.cache', query_root: null, query_root_type: null }, { name: 'core.catalog', query_root: '_module_core_catalog_query', query_root_type: { kind: 'OBJECT' } }]);
    expect(c.module_intro).toEqual([{ type_type: 'queries', type_name: '_module_core_meta_query', hugr_type: 'select', catalog: 'core.meta' }]);
    expect(c.module_catalogs.map((m: { catalog: string }) => m.catalog)).toEqual(['core']);
    expect(c.data_objects_by_pk).toMatchObject({ filter_type_name: 'shop_orders_filter', args_type_name: null });
    expect(c.data_objects_by_pk.queries.map((q: { name: string; query_type: string }) => `${q.name}:${q.query_type}`)).toEqual([
      'delete_shop_orders:delete', 'insert_shop_orders:insert', 'insert_shop_orders_batch:insert', 'shop_orders:select', 'shop_orders_aggregation:aggregate',
      'shop_orders_bucket_aggregation:bucket_aggregate', 'shop_orders_by_pk:select_one', 'update_shop_orders:update',
    ]);
    expect(c.enum_values).toEqual([{ name: 'ASC', ordinal: 0, type: { kind: 'ENUM' } }, { name: 'DESC', ordinal: 1, type: { kind: 'ENUM' } }]);
  });

  it('keeps written descriptions in introspection, the views, a reload and a restart', async () => {
    const version = async () => Number(JSON.parse(String((await table(`SELECT CAST(value AS VARCHAR) AS v FROM ${t.runtime.core.t('_schema_settings')} WHERE key = 'schema_version'`))[0]!.v)));
    const before = await version();
    const four = `
      a: _schema_update_type_desc(name: "shop_orders", description: "Customer orders", long_description: "One row per order.") { success affected_rows }
      b: _schema_update_field_desc(type_name: "shop_orders", name: "status", description: "Where the order is", long_description: "pending or shipped") { success }
      c: _schema_update_module_desc(name: "core.meta", description: "The engine's own views", long_description: "") { success }
      d: _schema_update_catalog_desc(name: "shop", description: "The shop", long_description: "Example data") { success }`;
    // One request is atomic (issue 32): the fifth call failing keeps none of the first four.
    const failed = await t.gql(`mutation { function { core { ${four}
      e: _schema_update_type_desc(name: "no_such_type", description: "x", long_description: "") { success }
    } } }`);
    expect(failed.body.errors[0]).toMatchObject({ message: 'unknown type "no_such_type"', path: ['function', 'core', 'e'] });
    expect(failed.body.data).toBeNull();
    const untouched = await t.gql(`{ __type(name: "shop_orders") { description } core { catalog {
      types_by_pk(name: "shop_orders") { description is_summarized } catalogs_by_pk(name: "shop") { is_summarized } } } }`);
    ok(untouched);
    expect(untouched.body.data.__type.description).not.toBe('Customer orders');
    expect(untouched.body.data.core.catalog).toMatchObject({ types_by_pk: { is_summarized: false }, catalogs_by_pk: { is_summarized: false } });
    expect(await version()).toBe(before);
    const m = await t.gql(`mutation { function { core { ${four} } } }`);
    ok(m);
    expect(m.body.data.function.core.a).toEqual({ success: true, affected_rows: 1 });
    const check = async () => {
      const r = await t.gql(`{ __type(name: "shop_orders") { description fields { name description } }
        meta: __type(name: "_module_core_meta_query") { description }
        core { catalog {
          types_by_pk(name: "shop_orders") { description long_description is_summarized }
          fields_by_pk(type_name: "shop_orders", name: "status") { description long_description is_summarized }
          catalogs_by_pk(name: "shop") { description long_description is_summarized }
          modules_by_pk(name: "core.meta") { description is_summarized }
        } } }`);
      ok(r);
      expect(r.body.data.__type.description).toBe('Customer orders');
      expect(r.body.data.__type.fields.find((f: { name: string }) => f.name === 'status').description).toBe('Where the order is');
      expect(r.body.data.meta.description).toBe("The engine's own views");
      expect(r.body.data.core.catalog).toEqual({
        types_by_pk: { description: 'Customer orders', long_description: 'One row per order.', is_summarized: true },
        fields_by_pk: { description: 'Where the order is', long_description: 'pending or shipped', is_summarized: true },
        catalogs_by_pk: { description: 'The shop', long_description: 'Example data', is_summarized: true },
        modules_by_pk: { description: "The engine's own views", is_summarized: true },
      });
    };
    await check();
    expect(await version()).toBeGreaterThan(before);
    // Unloading keeps the rows (the catalog shows disabled); loading again keeps the descriptions.
    const u = await t.gql('mutation { function { core { unload_data_source(name: "shop") { success } } } }');
    expect(u.body.data.function.core.unload_data_source.success).toBe(true);
    const off = await t.gql('{ core { catalog { catalogs_by_pk(name: "shop") { disabled } types_aggregation(filter: {catalog: {eq: "shop"}}) { _rows_count } } } }');
    expect(off.body.data.core.catalog).toEqual({ catalogs_by_pk: { disabled: true }, types_aggregation: { _rows_count: 0 } });
    await t.gql('mutation { function { core { load_data_source(name: "shop") { success } } } }');
    await check();
    // A restart on the same core database keeps them too.
    await t.close();
    t = await startApp(env);
    await check();
  });

  it('refuses a hard remove while the catalog is loaded, and removes every row after an unload', async () => {
    const refused = await t.gql('mutation { function { core { _schema_hard_remove(name: "shop") { success } } } }');
    expect(refused.body.errors[0].message).toBe('catalog "shop" is loaded; unload it before removing it');
    expect((await table(`SELECT count(*) AS n FROM ${t.runtime.core.t('_schema_types')} WHERE catalog = 'shop'`))[0]!.n).not.toBe(0);
    await t.gql('mutation { function { core { unload_data_source(name: "shop") { success } } } }');
    const removed = await t.gql('mutation { function { core { _schema_hard_remove(name: "shop") { success affected_rows } } } }');
    expect(removed.body.data.function.core._schema_hard_remove).toEqual({ success: true, affected_rows: 1 });
    for (const tb of ['_schema_types', '_schema_fields']) {
      expect(Number((await table(`SELECT count(*) AS n FROM ${t.runtime.core.t(tb)} WHERE catalog = 'shop'`))[0]!.n)).toBe(0);
    }
    expect((await t.gql('{ core { catalog { catalogs_by_pk(name: "shop") { name } } } }')).body.data.core.catalog.catalogs_by_pk).toBeNull();
    const unknown = await t.gql('mutation { function { core { _schema_hard_remove(name: "shop") { success } } } }');
    expect(unknown.body.errors[0].message).toBe('unknown catalog "shop"');
    // Loading again writes it afresh, with the catalog's own descriptions.
    await t.gql('mutation { function { core { load_data_source(name: "shop") { success } } } }');
    const back = await t.gql('{ core { catalog { types_by_pk(name: "shop_orders") { catalog is_summarized } } } }');
    expect(back.body.data.core.catalog.types_by_pk).toEqual({ catalog: 'shop', is_summarized: false });
  });

  it('cleans a version so the next load writes the catalog again, and resets written descriptions', async () => {
    const clean = await t.gql('mutation { function { core { _schema_version_clean(name: "shop") { success } } } }');
    expect(clean.body.data.function.core._schema_version_clean.success).toBe(true);
    expect((await table(`SELECT version FROM ${t.runtime.core.t('_schema_catalogs')} WHERE name = 'shop'`))[0]!.version).toBe('');
    await t.gql('mutation { function { core { load_data_source(name: "shop") { success } } } }');
    expect((await table(`SELECT version FROM ${t.runtime.core.t('_schema_catalogs')} WHERE name = 'shop'`))[0]!.version).toMatch(/^[0-9a-f]{32}$/);

    const original = (await t.gql('{ __type(name: "shop_customers") { description } }')).body.data.__type.description;
    await t.gql('mutation { function { core { _schema_update_type_desc(name: "shop_customers", description: "People", long_description: "") { success } } } }');
    expect((await t.gql('{ __type(name: "shop_customers") { description } }')).body.data.__type.description).toBe('People');
    const reset = await t.gql('mutation { function { core { _schema_reset_summarized(name: "shop", scope: "type") { success affected_rows } } } }');
    expect(reset.body.data.function.core._schema_reset_summarized).toEqual({ success: true, affected_rows: 1 });
    expect((await t.gql('{ __type(name: "shop_customers") { description } }')).body.data.__type.description).toBe(original);
    const row = await t.gql('{ core { catalog { types_by_pk(name: "shop_customers") { description is_summarized } } } }');
    expect(row.body.data.core.catalog.types_by_pk).toEqual({ description: original ?? '', is_summarized: false });
    const bad = await t.gql('mutation { function { core { _schema_reset_summarized(scope: "everything") { success } } } }');
    expect(bad.body.errors[0].message).toBe('scope must be all, catalog or type, not "everything"');
  });

  it('refuses a similarity order without an embedder, naming the setting', async () => {
    const r = await t.gql('{ core { catalog { types(args: {query: "orders"}, order_by: [{field: "distance"}]) { name distance } } } }');
    expect(r.body.errors[0]).toMatchObject({ message: 'ordering by similarity needs embeddings: set EMBEDDER_URL', extensions: { code: 'BAD_USER_INPUT' } });
    const plain = await t.gql('{ core { catalog { types(limit: 2, order_by: [{field: "name"}]) { name distance } } } }');
    expect(plain.body.errors).toBeUndefined();
    expect(plain.body.data.core.catalog.types.map((x: { distance: unknown }) => x.distance)).toEqual([null, null]);
  });
});
