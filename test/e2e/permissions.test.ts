// Role permissions (SPEC §7) over HTTP: field rules, row filters with [$auth.*], stamped data,
// write filters, per-role introspection, endpoint rows, and bypass attempts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
const ADMIN = { 'x-svc-secret-key': 'k' };
const as = (role: string, userId: string, userName = `user${userId}`) => ({ ...ADMIN, 'x-svc-role': role, 'x-svc-user-id': userId, 'x-svc-user-name': userName });

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k', ANONYMOUS_ROLE: 'public' });
  const r = await t.gql(`mutation {
    core {
      a: insert_roles(data: {name: "analyst", description: "sees own orders", permissions: [
        {type_name: "shop_customers", field_name: "email", disabled: true},
        {type_name: "shop_products", field_name: "attributes", hidden: true},
        {type_name: "data-object:query", field_name: "shop_orders", filter: {customer_id: {eq: "[$auth.user_id_int]"}}},
        {type_name: "data-object:query", field_name: "shop_tags", disabled: true},
        {type_name: "Query", field_name: "shop_products", filter: {in_stock: {eq: true}}}
      ]}) { name }
      b: insert_roles(data: {name: "clerk", description: "writes tags", permissions: [
        {type_name: "data-object:insert", field_name: "shop_tags", data: {name: "stamped-[$auth.user_name]"}},
        {type_name: "data-object:update", field_name: "shop_tags", filter: {id: {gte: 100}}},
        {type_name: "data-object:delete", field_name: "shop_tags", filter: {id: {gte: 100}}}
      ]}) { name }
      c: insert_roles(data: {name: "no_http", description: "in-process only", permissions: [
        {type_name: "_endpoints", field_name: "/query", disabled: true}
      ]}) { name }
    }
  }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(() => t.close());

describe('field rules', () => {
  it('a disabled field is null with a forbidden error at its path; the rest of the data stays', async () => {
    const r = await t.gql('{ shop_customers(order_by: [{field: "id"}], limit: 2) { id name email } }', undefined, as('analyst', '1'));
    expect(r.status).toBe(200);
    expect(r.body.data.shop_customers).toEqual([{ id: 1, name: 'Ada Lovelace', email: null }, { id: 2, name: 'Alan Turing', email: null }]);
    expect(r.body.errors[0]).toMatchObject({ message: 'forbidden', path: ['shop_customers', 0, 'email'], locations: [{ line: 1, column: 65 }], extensions: { code: 'FORBIDDEN' } });
  });

  it('cannot be reached through aliases, fragments, variables or nested relations', async () => {
    const attempts = [
      '{ shop_customers { mail: email } }',
      '{ shop_customers { ...f } } fragment f on shop_customers { email }',
      '{ shop_customers { ... on shop_customers { email } } }',
      'query($yes: Boolean!) { shop_customers { email @include(if: $yes) } }',
      '{ shop_order_items { order { customer { email } } } }',
      '{ shop_customers_aggregation { email { count list } } }',
      '{ shop_customers_bucket_aggregation { key { email } aggregations { _rows_count } } }',
    ];
    for (const q of attempts) {
      const r = await t.gql(q, { yes: true }, as('analyst', '1'));
      expect(r.text, q).not.toContain('@example.com');
      expect(r.body.errors?.[0]?.message, q).toMatch(/^forbidden/);
    }
  });

  it('a hidden field is usable by name but absent from introspection', async () => {
    const r = await t.gql('{ shop_products_by_pk(id: 1) { attributes } }', undefined, as('analyst', '1'));
    expect(r.body.data.shop_products_by_pk.attributes).toEqual({ pages: 650, cover: 'hard' });
    const intro = await t.gql('{ __type(name: "shop_products") { fields { name } } }', undefined, as('analyst', '1'));
    const names = intro.body.data.__type.fields.map((f: { name: string }) => f.name);
    expect(names).toContain('sku');
    expect(names).not.toContain('attributes');
  });

  it('the readonly role cannot run mutations', async () => {
    const r = await t.gql('mutation { insert_shop_tags(data: {id: 77, name: "x"}) { id } }', undefined, as('readonly', '1'));
    expect(r.body.errors[0]).toMatchObject({ message: 'forbidden', path: ['insert_shop_tags'] });
    expect((await t.gql('{ shop_tags_by_pk(id: 77) { id } }', undefined, ADMIN)).body.data.shop_tags_by_pk).toBeNull();
    const ok = await t.gql('{ shop_tags(limit: 1) { id } }', undefined, as('readonly', '1'));
    expect(ok.body.data.shop_tags).toHaveLength(1);
  });
});

describe('row filters', () => {
  it('two users of one role see different rows from the same query', async () => {
    const q = '{ shop_orders(order_by: [{field: "id"}]) { id customer_id } }';
    const u1 = await t.gql(q, undefined, as('analyst', '1'));
    const u2 = await t.gql(q, undefined, as('analyst', '2'));
    expect(u1.body.data.shop_orders).toEqual([{ id: 1, customer_id: 1 }, { id: 2, customer_id: 1 }]);
    expect(u2.body.data.shop_orders).toEqual([{ id: 3, customer_id: 2 }]);
    const admin = await t.gql(q, undefined, ADMIN);
    expect(admin.body.data.shop_orders).toHaveLength(4);
  });

  it('apply wherever the object is read: by_pk, relations both ways, relation filters, aggregations, ordering', async () => {
    const h = as('analyst', '2');
    expect((await t.gql('{ shop_orders_by_pk(id: 1) { id } }', undefined, h)).body.data.shop_orders_by_pk).toBeNull();
    const rel = await t.gql('{ shop_customers(order_by: [{field: "id"}]) { id orders { id } } }', undefined, h);
    expect(rel.body.data.shop_customers.map((c: { orders: unknown }) => c.orders)).toEqual([null, [{ id: 3 }], null, null]);
    const back = await t.gql('{ shop_order_items(order_by: [{field: "order_id"}, {field: "line"}]) { order_id line order { id } } }', undefined, h);
    expect(back.body.data.shop_order_items.map((i: { order: unknown }) => i.order)).toEqual([null, null, null, { id: 3 }, { id: 3 }, null]);
    const filt = await t.gql('{ shop_customers(filter: {orders: {any_of: {status: {eq: "pending"}}}}) { id } }', undefined, h);
    expect(filt.body.data.shop_customers).toEqual([]);
    const agg = await t.gql('{ shop_orders_aggregation { _rows_count } shop_customers_aggregation { orders_aggregation { _rows_count { sum } } } shop_orders_bucket_aggregation { key { status } } }', undefined, h);
    expect(agg.body.data).toEqual({ shop_orders_aggregation: { _rows_count: 1 }, shop_customers_aggregation: { orders_aggregation: { _rows_count: { sum: 1 } } }, shop_orders_bucket_aggregation: [{ key: { status: 'shipped' } }] });
  });

  it('a filter row on a query field is ANDed to the client filter', async () => {
    const r = await t.gql('{ shop_products(order_by: [{field: "id"}]) { id in_stock } }', undefined, as('analyst', '1'));
    expect(r.body.data.shop_products).toEqual([{ id: 1, in_stock: true }, { id: 2, in_stock: true }, { id: 4, in_stock: true }]);
  });

  it('an object disabled for reading is forbidden everywhere and missing from introspection', async () => {
    const r = await t.gql('{ shop_tags { id } }', undefined, as('analyst', '1'));
    expect(r.body.errors[0].message).toBe('forbidden');
    const nested = await t.gql('{ shop_products { tags { name } } }', undefined, as('analyst', '1'));
    expect(nested.text).not.toContain('classic');
    const intro = await t.gql('{ __schema { types { name } } }', undefined, as('analyst', '1'));
    const types = intro.body.data.__schema.types.map((x: { name: string }) => x.name);
    expect(types).toContain('shop_orders');
    expect(types).not.toContain('shop_tags');
    const adminIntro = await t.gql('{ __schema { types { name } } }', undefined, ADMIN);
    expect(adminIntro.body.data.__schema.types.map((x: { name: string }) => x.name)).toContain('shop_tags');
  });
});

describe('writes', () => {
  it('stamps data over the client input', async () => {
    const r = await t.gql('mutation { insert_shop_tags(data: {id: 120, name: "client"}) { id name } }', undefined, as('clerk', '9', 'bob'));
    expect(r.body.data.insert_shop_tags).toEqual({ id: 120, name: 'stamped-bob' });
  });

  it('update and delete only reach rows the write filter allows', async () => {
    const h = as('clerk', '9', 'bob');
    const upd = await t.gql('mutation { update_shop_tags(filter: {id: {in: [1, 120]}}, data: {name: "renamed"}) { affected_rows } }', undefined, h);
    expect(upd.body.data.update_shop_tags.affected_rows).toBe(1);
    expect((await t.gql('{ shop_tags_by_pk(id: 1) { name } }', undefined, ADMIN)).body.data.shop_tags_by_pk.name).toBe('classic');
    const del = await t.gql('mutation { delete_shop_tags { affected_rows } }', undefined, h);
    expect(del.body.data.delete_shop_tags.affected_rows).toBe(1);
    expect((await t.gql('{ shop_tags_aggregation { _rows_count } }', undefined, ADMIN)).body.data.shop_tags_aggregation._rows_count).toBe(3);
  });
});

describe('endpoints and caching', () => {
  it('an _endpoints row refuses the path with 403', async () => {
    const r = await t.gql('{ shop_tags { id } }', undefined, as('no_http', '1'));
    expect(r.status).toBe(403);
  });

  it('a permission change applies at once', async () => {
    const h = as('analyst', '1');
    expect((await t.gql('{ shop_categories(limit: 1) { name } }', undefined, h)).body.errors).toBeUndefined();
    await t.gql('mutation { core { insert_role_permissions(data: {role: "analyst", type_name: "shop_categories", field_name: "name", disabled: true}) { role } } }', undefined, ADMIN);
    expect((await t.gql('{ shop_categories(limit: 1) { name } }', undefined, h)).body.errors[0].message).toBe('forbidden');
  });

  it('anonymous callers get the configured role', async () => {
    const r = await t.gql('{ function { core { auth { me { role auth_type } } } } }');
    expect(r.body.data.function.core.auth.me).toEqual({ role: 'public', auth_type: 'anonymous' });
  });
});

describe('asking what a role may do', () => {
  it('my_permissions lists the rows of the caller role', async () => {
    const r = await t.gql('{ function { core { auth { my_permissions { role_name disabled permissions { object field hidden disabled } } } } } }', undefined, as('no_http', '1'));
    expect(r.status).toBe(403);
    const a = await t.gql('{ function { core { auth { my_permissions { role_name permissions { object field hidden disabled } } } } } }', undefined, as('analyst', '1'));
    const p = a.body.data.function.core.auth.my_permissions;
    expect(p.role_name).toBe('analyst');
    expect(p.permissions).toEqual(expect.arrayContaining([{ object: 'shop_customers', field: 'email', hidden: false, disabled: true }]));
  });

  it('check_access tells enabled and visible per field', async () => {
    const r = await t.gql('{ function { core { auth { check_access(type_name: "shop_products", fields: "sku, attributes") { field enabled visible } } } } }', undefined, as('analyst', '1'));
    expect(r.body.data.function.core.auth.check_access).toEqual([{ field: 'sku', enabled: true, visible: true }, { field: 'attributes', enabled: true, visible: false }]);
    const c = await t.gql('{ function { core { auth { check_access(type_name: "shop_customers", fields: "email") { field enabled visible } } } } }', undefined, as('analyst', '1'));
    expect(c.body.data.function.core.auth.check_access).toEqual([{ field: 'email', enabled: false, visible: false }]);
  });
});
