// The core module over GraphQL (SPEC §11) and the data-source lifecycle (seed 001).
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** Creates a DuckDB file with the inventory fixture data, outside the server. */
async function makeInventoryFile(path: string): Promise<void> {
  const db = await DuckDBInstance.create(path);
  const c = await db.connect();
  await c.run(readFileSync(join(FIXTURES, 'catalogs/inventory/seed.sql'), 'utf8'));
  c.closeSync();
  db.closeSync();
}

describe('core tables', () => {
  it('lists the built-in roles, their descriptions and the seeded permissions', async () => {
    const r = await t.gql('{ core { roles(order_by: [{field: "name"}]) { name description permissions { type_name field_name disabled } } } }');
    expect(r.body.data.core.roles).toEqual([
      { name: 'admin', description: 'Admin role', permissions: null },
      { name: 'public', description: 'Public role', permissions: [{ type_name: 'Mutation', field_name: '*', disabled: true }] },
      { name: 'readonly', description: 'Readonly role', permissions: [{ type_name: 'Mutation', field_name: '*', disabled: true }] },
    ]);
  });

  it('lists the declared data source with its catalog source', async () => {
    const r = await t.gql('{ core { data_sources_by_pk(name: "shop") { name type prefix as_module catalogs { name type } } } }');
    expect(r.body.data.core.data_sources_by_pk).toEqual({ name: 'shop', type: 'duckdb', prefix: 'shop', as_module: false, catalogs: [{ name: 'shop', type: 'localFS' }] });
  });

  it('inserts a role with nested permissions, updates and deletes it', async () => {
    const ins = await t.gql(`mutation { core { insert_roles(data: {name: "analyst", description: "reads", permissions: [
      {type_name: "shop_orders", field_name: "*", filter: {status: {eq: "shipped"}}},
      {type_name: "Mutation", field_name: "*", disabled: true}]}) { name permissions(order_by: [{field: "type_name"}]) { type_name filter disabled } } } }`);
    expect(ins.body.errors).toBeUndefined();
    expect(ins.body.data.core.insert_roles).toEqual({
      name: 'analyst',
      permissions: [
        { type_name: 'Mutation', filter: null, disabled: true },
        { type_name: 'shop_orders', filter: { status: { eq: 'shipped' } }, disabled: false },
      ],
    });
    const upd = await t.gql('mutation { core { update_roles(filter: {name: {eq: "analyst"}}, data: {description: "reads shipped orders"}) { success affected_rows } } }');
    expect(upd.body.data.core.update_roles).toEqual({ success: true, affected_rows: 1 });
    const read = await t.gql('{ core { roles_by_pk(name: "analyst") { description } } }');
    expect(read.body.data.core.roles_by_pk.description).toBe('reads shipped orders');
    await t.gql('mutation { core { delete_role_permissions(filter: {role: {eq: "analyst"}}) { affected_rows } } }');
    const del = await t.gql('mutation { core { delete_roles(filter: {name: {eq: "analyst"}}) { success affected_rows } } }');
    expect(del.body.data.core.delete_roles.affected_rows).toBe(1);
    expect((await t.gql('{ core { roles_by_pk(name: "analyst") { name } } }')).body.data.core.roles_by_pk).toBeNull();
  });

  it('names the core types with the prefix core while module fields stay unprefixed (issue 17 item 10)', async () => {
    const r = await t.gql(
      'mutation($data: core_data_sources_mut_input_data!) { core { insert_data_sources(data: $data) { name catalogs { name } } } }',
      { data: { name: 'named', type: 'duckdb', prefix: 'named', path: ':memory:', catalogs: [{ name: 'named_cat', type: 'localFS', path: '/nowhere' }] } },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.core.insert_data_sources).toEqual({ name: 'named', catalogs: [{ name: 'named_cat' }] });
    const types = await t.gql('{ a: __type(name: "core_roles") { name } b: __type(name: "roles") { name } c: __type(name: "core_data_sources_mut_input_data") { name } }');
    expect(types.body.data).toEqual({ a: { name: 'core_roles' }, b: null, c: { name: 'core_data_sources_mut_input_data' } });
    const typename = await t.gql('{ core { roles(limit: 1) { __typename } } }');
    expect(typename.body.data.core.roles).toEqual([{ __typename: 'core_roles' }]);
    await t.gql('mutation { core { delete_catalogs(filter: {data_source_name: {eq: "named"}}) { success } delete_data_sources(filter: {name: {eq: "named"}}) { success } delete_catalog_sources(filter: {name: {eq: "named_cat"}}) { success } } }');
  });

  it('finds a managed API key by its key', async () => {
    await t.gql('mutation { core { insert_api_keys(data: {name: "ci", description: "CI", key: "k-123", default_role: "readonly", headers: {role: "x-role"}}) { name } } }');
    const r = await t.gql('{ core { api_keys_by_key(key: "k-123") { name default_role headers role { name } } } }');
    expect(r.body.data.core.api_keys_by_key).toEqual({ name: 'ci', default_role: 'readonly', headers: { role: 'x-role' }, role: { name: 'readonly' } });
  });

  it('rolls back every mutation of a request when one fails', async () => {
    const r = await t.gql(`mutation {
      core { a: insert_roles(data: {name: "r1", description: "one"}) { name } }
      again: core { b: insert_roles(data: {name: "r1", description: "duplicate"}) { name } }
    }`);
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.errors[0].message).toMatch(/core: .*(Duplicate key|unique)/i);
    expect((await t.gql('{ core { roles_by_pk(name: "r1") { name } } }')).body.data.core.roles_by_pk).toBeNull();
  });
});

describe('a duckdb source whose file does not exist (issue 15 item 11)', () => {
  it('is an error naming the file, and creates nothing; create=true opts in', async () => {
    const missing = join(t.dir, 'typo-dir', 'inventroy.duckdb');
    const register = (name: string, path: string) =>
      t.gql(`mutation($path: String!, $catalog: String!) { core { insert_data_sources(data: {name: "${name}", type: "duckdb", prefix: "${name}", as_module: true, path: $path,
        catalogs: [{name: "${name}_catalog", type: "localFS", path: $catalog}]}) { name } } }`, { path, catalog: join(FIXTURES, 'catalogs/inventory') });
    await register('typo', missing);
    const load = await t.gql('mutation { function { core { load_data_source(name: "typo") { success message } } } }');
    expect(load.body.data.function.core.load_data_source).toEqual({
      success: false,
      message: `data source "typo": the DuckDB file "${missing}" does not exist (set create: true in the source to create it)`,
    });
    expect(existsSync(join(t.dir, 'typo-dir'))).toBe(false);

    await register('fresh', `${missing}?create=true`);
    const created = await t.gql('mutation { function { core { load_data_source(name: "fresh") { success message } } } }');
    expect(existsSync(missing)).toBe(true);
    // The new file is empty: the catalog's tables are not in it, a load error since issue 29.
    expect(created.body.data.function.core.load_data_source).toMatchObject({ success: false, message: expect.stringMatching(/table "main\.\w+" of "\w+" \(.*\) does not exist in the database/) });
  });
});

describe('a catalog with a directive written wrong (issue 15 item 9)', () => {
  it('fails to load, naming the file and line', async () => {
    const dir = join(t.dir, 'badcat');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'schema.graphql'), 'type warehouses @table(name: 42) {\n  id: Int! @pk @unique(fields: ["id"])\n}\n');
    await t.gql(`mutation($c: String!) { core { insert_data_sources(data: {name: "badcat", type: "duckdb", prefix: "bc", as_module: false, path: ":memory:",
      catalogs: [{name: "badcat", type: "localFS", path: $c}]}) { name } } }`, { c: dir });
    const load = await t.gql('mutation { function { core { load_data_source(name: "badcat") { success message } } } }');
    const { success, message } = load.body.data.function.core.load_data_source;
    expect(success).toBe(false);
    expect(message).toContain(`argument "name" of directive "@table" must be a string, not 42 (badcat/schema.graphql:1)`);
    expect(message).toContain(`directive "@unique" does not apply to a field (it applies to types) (badcat/schema.graphql:2)`);
  });
});

describe('data source lifecycle', () => {
  it('registers a source by mutation and serves it after load_data_source, without a restart', async () => {
    const file = join(t.dir, 'inventory.duckdb');
    await makeInventoryFile(file);
    const ins = await t.gql(`mutation($path: String!, $catalog: String!) { core { insert_data_sources(data: {
        name: "inventory", type: "duckdb", prefix: "inv", as_module: true, path: $path,
        catalogs: [{name: "inventory_catalog", type: "localFS", path: $catalog}]}) { name catalogs { name } } } }`,
      { path: file, catalog: join(FIXTURES, 'catalogs/inventory') });
    expect(ins.body.errors).toBeUndefined();
    expect(ins.body.data.core.insert_data_sources).toEqual({ name: 'inventory', catalogs: [{ name: 'inventory_catalog' }] });

    expect((await t.gql('{ function { core { data_source_status(name: "inventory") } } }')).body.data.function.core.data_source_status).toBe('unloaded');
    const before = await t.gql('{ inventory { warehouses { city } } }');
    expect(before.body.errors[0].message).toMatch(/Cannot query field "inventory" on type "Query"/);

    const load = await t.gql('mutation { function { core { load_data_source(name: "inventory") { success message } } } }');
    expect(load.body.data.function.core.load_data_source).toEqual({ success: true, message: 'data source "inventory" loaded' });

    const q = await t.gql('{ inventory { warehouses(order_by: [{field: "id"}]) { id city stock(nested_order_by: [{field: "sku"}]) { sku quantity } } stock_by_pk(warehouse_id: 2, sku: "BK-001") { quantity warehouse { city } } } }');
    expect(q.body.data.inventory).toEqual({
      warehouses: [
        { id: 1, city: "Lisbon", stock: [{ sku: 'BK-001', quantity: 12 }, { sku: 'HW-001', quantity: 3 }] },
        { id: 2, city: "Oslo", stock: [{ sku: 'BK-001', quantity: 7 }] },
      ],
      stock_by_pk: { quantity: 7, warehouse: { city: 'Oslo' } },
    });
    // Types keep the prefix; the module holds un-prefixed field names (SPEC §3.2).
    const intro = await t.gql('{ __type(name: "inv_warehouses") { name } }');
    expect(intro.body.data.__type).toEqual({ name: 'inv_warehouses' });

    const unload = await t.gql('mutation { function { core { unload_data_source(name: "inventory") { success } } } }');
    expect(unload.body.data.function.core.unload_data_source.success).toBe(true);
    expect((await t.gql('{ inventory { warehouses { city } } }')).body.errors[0].message).toMatch(/Cannot query field "inventory"/);
    expect((await t.gql('{ function { core { data_source_status(name: "inventory") } } }')).body.data.function.core.data_source_status).toBe('unloaded');
  });

  it('reports a source that fails to load and keeps serving the others', async () => {
    await t.gql(`mutation($p: String!) { core { insert_data_sources(data: {name: "broken", type: "duckdb", prefix: "b", as_module: false, path: ":memory:",
      catalogs: [{name: "broken_catalog", type: "localFS", path: $p}]}) { name } } }`, { p: join(FIXTURES, 'nonexistent/catalog') });
    const load = await t.gql('mutation { function { core { load_data_source(name: "broken") { success message } } } }');
    expect(load.body.data.function.core.load_data_source.success).toBe(false);
    expect(load.body.data.function.core.load_data_source.message).toMatch(/does not exist/);
    const status = await t.gql('{ function { core { data_source_status(name: "broken") } } }');
    expect(status.body.data.function.core.data_source_status).toMatch(/^failed: catalog path ".*nonexistent\/catalog" does not exist/);
    expect((await t.gql('{ shop_tags(limit: 1) { id } }')).body.data.shop_tags).toHaveLength(1);
  });

  it("describes a source by its catalog (hugr's answer), with the compilation log", async () => {
    const r = await t.gql('{ function { core { describe_data_source_schema(name: "shop", log: true) } } }');
    const sdl: string = r.body.data.function.core.describe_data_source_schema;
    expect(sdl).toContain('type products @table(name: "products") @unique(fields: ["sku"], query_suffix: "by_sku") {');
    expect(sdl).not.toContain('directive @');
    expect(sdl).toContain('# compilation log');
  });

  it('keeps answering while sources are loaded and unloaded', async () => {
    const file = join(t.dir, 'inventory2.duckdb');
    await makeInventoryFile(file);
    await t.gql(`mutation($path: String!, $catalog: String!) { core { insert_data_sources(data: {
        name: "inv2", type: "duckdb", prefix: "inv2", as_module: false, path: $path,
        catalogs: [{name: "inv2_catalog", type: "localFS", path: $catalog}]}) { name } } }`, { path: file, catalog: join(FIXTURES, 'catalogs/inventory') });
    const readers = Array.from({ length: 40 }, (_, i) => t.gql(`{ shop_products(order_by: [{field: "id"}]) { id name tags { name } } n${i}: shop_tags_by_pk(id: 1) { name } }`));
    const flips = [];
    for (let i = 0; i < 3; i++) {
      flips.push(t.gql('mutation { function { core { load_data_source(name: "inv2") { success } } } }'));
      flips.push(t.gql('mutation { function { core { unload_data_source(name: "inv2") { success } } } }'));
    }
    const results = await Promise.all(readers);
    await Promise.all(flips);
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.shop_products).toHaveLength(4);
    }
  });
});
