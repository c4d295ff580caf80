// core.catalog rows per role (issue 17): a role granted the catalog views sees in them only what
// its introspection shows, on both kinds of core database; admin sees everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, tempDir, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

const kinds = ['duckdb', 'postgres'] as const;
const ADMIN = { 'x-svc-secret-key': 'k' };
const ANALYST = { ...ADMIN, 'x-svc-role': 'analyst', 'x-svc-user-id': '1' };
const VIEWS = ['catalogs', 'catalog_dependencies', 'types', 'fields', 'arguments', 'modules', 'module_catalogs', 'data_objects', 'data_object_queries', 'module_intro', 'enum_values'];

describe.each(kinds)('core.catalog rows per role on a %s core database', (kind) => {
  let t: TestApp;
  let db: TestDatabase | undefined;
  const ok = (r: { body: { errors?: unknown } }) => expect(r.body.errors).toBeUndefined();
  const names = (rows: { name: string }[]) => rows.map((r) => r.name).sort();

  beforeAll(async () => {
    if (kind === 'postgres') db = await createTestDatabase('svc_catvis');
    t = await startApp({ SVC_TEST_DIR: tempDir(), SECRET_KEY: 'k', ANONYMOUS_ROLE: 'public', ...(db ? { CORE_DB_PATH: db.url } : {}) });
    const grants = VIEWS.map((v) => `{type_name: "data-object:query", field_name: "core_catalog_${v}"}`).join(', ');
    const r = await t.gql(`mutation { core { insert_roles(data: {name: "analyst", description: "browses the catalog", permissions: [
      ${grants},
      {type_name: "data-object:query", field_name: "shop_customers", disabled: true},
      {type_name: "shop_orders", field_name: "status", hidden: true}
    ]}) { name } } }`, undefined, ADMIN);
    ok(r);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await db?.drop();
  });

  it('shows a role the types and fields its introspection shows, no more', async () => {
    const intro = await t.gql('{ __schema { types { name fields { name } inputFields { name } } } }', undefined, ANALYST);
    ok(intro);
    const seen = intro.body.data.__schema.types.filter((x: { name: string }) => !x.name.startsWith('__'));
    const r = await t.gql('{ core { catalog { types(limit: 100000) { name } } } }', undefined, ANALYST);
    ok(r);
    expect(names(r.body.data.core.catalog.types)).toEqual(names(seen));
    const typeNames = names(r.body.data.core.catalog.types);
    expect(typeNames).toContain('shop_orders');
    expect(typeNames).toContain('core_catalog_types');
    expect(typeNames).not.toContain('shop_customers');
    expect(typeNames).not.toContain('core_roles');
    expect(typeNames).not.toContain('core_meta_tables');
    const orders = seen.find((x: { name: string }) => x.name === 'shop_orders');
    const f = await t.gql('{ core { catalog { fields(filter: {type_name: {eq: "shop_orders"}}) { name } } } }', undefined, ANALYST);
    ok(f);
    expect(names(f.body.data.core.catalog.fields)).toEqual(names(orders.fields));
    expect(names(f.body.data.core.catalog.fields)).not.toContain('status');
    // Admin sees the hidden field and the closed objects.
    const admin = await t.gql('{ core { catalog { fields(filter: {type_name: {eq: "shop_orders"}}) { name } types(filter: {name: {in: ["shop_customers", "core_roles"]}}) { name } } } }', undefined, ADMIN);
    expect(names(admin.body.data.core.catalog.fields)).toContain('status');
    expect(names(admin.body.data.core.catalog.types)).toEqual(['core_roles', 'shop_customers']);
  });

  it('hides catalogs, modules, objects and operations the role cannot see, in aggregations too', async () => {
    const r = await t.gql(`{ core { catalog {
      catalogs { name }
      modules { name }
      data_objects(filter: {name: {like: "shop_%"}}) { name }
      module_intro(filter: {module: {in: ["core", "core.auth"]}}) { field_name }
      queries: data_object_queries(filter: {object_name: {eq: "shop_customers"}}) { name }
      types_aggregation(filter: {name: {eq: "shop_customers"}}) { _rows_count }
      arguments(filter: {field_name: {eq: "shop_customers"}}) { name }
      enum_values(filter: {type_name: {eq: "TimeBucket"}}) { name }
    } } }`, undefined, ANALYST);
    ok(r);
    const c = r.body.data.core.catalog;
    expect(names(c.catalogs)).toEqual(['core.catalog', 'shop']);
    // core.auth (me, my_permissions, check_access) is open to every role.
    expect(names(c.modules)).toEqual(['core', 'core.auth', 'core.catalog']);
    expect(names(c.data_objects)).not.toContain('shop_customers');
    expect(names(c.data_objects)).toContain('shop_orders');
    expect(c.module_intro.map((m: { field_name: string }) => m.field_name).sort()).toEqual(['check_access', 'me', 'my_permissions']);
    expect(c.queries).toEqual([]);
    expect(c.types_aggregation).toEqual({ _rows_count: 0 });
    expect(c.arguments).toEqual([]);
    expect(c.enum_values.length).toBe(7);
    const admin = await t.gql('{ core { catalog { catalogs { name } module_intro(filter: {module: {eq: "core"}}) { field_name } } } }', undefined, ADMIN);
    expect(names(admin.body.data.core.catalog.catalogs)).toEqual(['core', 'core.catalog', 'core.cluster', 'core.meta', 'core.storage', 'shop']);
    expect(admin.body.data.core.catalog.module_intro.length).toBeGreaterThan(10);
  });
});
