// hugr's access control page (issue 32): docs/4-engine-configuration/5-access-control.md. Roles and
// permission rows are written through core as the page writes them; requests run as those roles
// (x-svc-secret-key with x-svc-role / x-svc-user-id, hugr's x-hugr-* headers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { data, startNorthwind } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind({ SECRET_KEY: 'compat-key' });
}, 60_000);
afterAll(() => t?.close());

const as = (role: string, user = '1') => ({ 'x-svc-secret-key': 'compat-key', 'x-svc-role': role, 'x-svc-user-id': user });

describe('docs/4-engine-configuration/5-access-control.md', () => {
  it('creates, updates and lists roles and their permissions through core', async () => {
    const d = await data(t, `mutation { core {
      insert_roles(data: {name: "editor", description: "Can edit content but not delete", disabled: false}) { name description }
      a: insert_role_permissions(data: {role: "editor", type_name: "customers", field_name: "*", hidden: false, disabled: false}) { role type_name field_name }
      update_roles(filter: {name: {eq: "editor"}}, data: {description: "Content editors with limited permissions"}) { success affected_rows }
    } }`);
    expect(d.core.insert_roles).toEqual({ name: 'editor', description: 'Can edit content but not delete' });
    expect(d.core.update_roles).toEqual({ success: true, affected_rows: 1 });
    const q = await data(t, '{ core { roles(filter: {name: {eq: "editor"}}) { name description disabled permissions { type_name field_name hidden disabled } } } }');
    expect(q.core.roles).toEqual([{ name: 'editor', description: 'Content editors with limited permissions', disabled: false, permissions: [{ type_name: 'customers', field_name: '*', hidden: false, disabled: false }] }]);
  });

  it('field-level rows: a hidden field is usable when asked for, a disabled one is refused', async () => {
    // The page inserts several rows with insert_role_permissions(data: [...]); svc's insert_T takes one
    // row and insert_T_batch a list (README "Compatibility with hugr").
    await data(t, `mutation { core {
      insert_roles(data: {name: "clerk", description: "front desk"}) { name }
      insert_role_permissions_batch(data: [
        {role: "clerk", type_name: "customers", field_name: "id"},
        {role: "clerk", type_name: "customers", field_name: "name"},
        {role: "clerk", type_name: "customers", field_name: "email", hidden: true},
        {role: "clerk", type_name: "customers", field_name: "phone", disabled: true}
      ]) { affected_rows }
    } }`);
    const ok = await data(t, '{ customers_by_pk(id: 1) { id name email } }', undefined, as('clerk'));
    expect(ok.customers_by_pk).toEqual({ id: 1, name: 'Alfreds', email: 'a@example.com' });
    const intro = await data(t, '{ __type(name: "customers") { fields { name } } }', undefined, as('clerk'));
    expect(intro.__type.fields.map((f: { name: string }) => f.name)).not.toContain('email');
    const denied = await t.gql('{ customers_by_pk(id: 1) { id phone } }', undefined, as('clerk'));
    expect(denied.body.errors?.[0]?.message).toMatch(/forbidden/);
  });

  it('a row filter with [$auth.user_id] limits what the role reads', async () => {
    // As the page writes it: the filter on the object's type with field "*" (svc's own form,
    // data-object:query, does the same).
    await data(t, `mutation { core {
      insert_roles(data: {name: "customer", description: "a shop customer"}) { name }
      insert_role_permissions(data: {role: "customer", type_name: "orders", field_name: "*", filter: {customer_id: {eq: "[$auth.user_id_int]"}}}) { role }
    } }`);
    const one = await data(t, '{ orders(order_by: [{field: "id"}]) { id customer_id } }', undefined, as('customer', '1'));
    expect(one.orders).toEqual([{ id: 1, customer_id: 1 }, { id: 2, customer_id: 1 }]);
    const two = await data(t, '{ orders(order_by: [{field: "id"}]) { id } orders_aggregation { _rows_count } }', undefined, as('customer', '2'));
    expect(two).toEqual({ orders: [{ id: 3 }], orders_aggregation: { _rows_count: 1 } });
    const update = await data(t, 'mutation { update_orders(filter: {id: {in: [1, 3]}}, data: {freight: 1}) { affected_rows } }', undefined, as('customer', '2'));
    expect(update.update_orders).toEqual({ affected_rows: 1 });
  });

  it('a disabled mutation is refused for the role', async () => {
    await data(t, `mutation { core {
      insert_roles(data: {name: "viewer", description: "read only"}) { name }
      insert_role_permissions(data: {role: "viewer", type_name: "data-object:delete", field_name: "customers", disabled: true}) { role }
    } }`);
    const r = await t.gql('mutation { delete_customers(filter: {id: {eq: 4}}) { affected_rows } }', undefined, as('viewer'));
    expect(r.body.errors?.[0]?.message).toMatch(/forbidden/);
    const still = await data(t, '{ customers_by_pk(id: 4) { id } }');
    expect(still.customers_by_pk).toEqual({ id: 4 });
  });
});
