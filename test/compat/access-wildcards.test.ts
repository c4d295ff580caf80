// hugr's access control page (docs/4-engine-configuration/5-access-control.md), wildcard rows
// (issue 32): a `(type, "*")` row hiding or disabling every field of a type takes the type out of the
// role's schema, and with it the relation fields of other types that lead to it, in `__type` and in
// requests. Before, the role's schema kept arguments typed by the inputs it removed (`orders_filter`,
// `OrderByField`), and every request of the role answered "Internal server error".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { data, startNorthwind } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind({ SECRET_KEY: 'wild-key' });
  await data(t, `mutation { core {
    insert_roles_batch(data: [{name: "no_orders", description: "orders hidden"}, {name: "no_orders_at_all", description: "orders disabled"}, {name: "only_customers", description: "everything hidden but customers"}]) { affected_rows }
    insert_role_permissions_batch(data: [
      {role: "no_orders", type_name: "orders", field_name: "*", hidden: true},
      {role: "no_orders", type_name: "data-object:query", field_name: "core_catalog_types"},
      {role: "no_orders", type_name: "data-object:query", field_name: "core_catalog_fields"},
      {role: "no_orders_at_all", type_name: "orders", field_name: "*", disabled: true},
      {role: "only_customers", type_name: "*", field_name: "*", hidden: true},
      {role: "only_customers", type_name: "customers", field_name: "*", hidden: false},
      {role: "only_customers", type_name: "Query", field_name: "customers", hidden: false}
    ]) { affected_rows }
  } }`);
}, 60_000);
afterAll(() => t?.close());

const as = (role: string) => ({ 'x-svc-secret-key': 'wild-key', 'x-svc-role': role, 'x-svc-user-id': '1' });
const fields = async (role: string, type: string): Promise<string[] | null> => {
  const d = await data(t, `{ __type(name: "${type}") { fields { name } } }`, undefined, as(role));
  return d.__type ? d.__type.fields.map((f: { name: string }) => f.name) : null;
};

describe('wildcard rows in a role\'s schema', () => {
  it('(orders, *) hidden: the type is gone and so are the relation fields leading to it', async () => {
    expect(await fields('no_orders', 'orders')).toBeNull();
    const customers = await fields('no_orders', 'customers');
    expect(customers).toContain('name');
    expect(customers).not.toContain('orders');
    expect(customers).not.toContain('orders_aggregation');
    // The role's other requests answer.
    expect((await data(t, '{ customers_by_pk(id: 1) { name } }', undefined, as('no_orders'))).customers_by_pk).toEqual({ name: 'Alfreds' });
  });

  it('core.catalog shows the role what its __type shows: no orders type, no relation field to it', async () => {
    const d = await data(t, `{ core { catalog {
      types(filter: {name: {in: ["orders", "customers"]}}) { name }
      fields(filter: {type_name: {eq: "customers"}, name: {in: ["name", "orders", "orders_aggregation"]}}) { name }
    } } }`, undefined, as('no_orders'));
    expect(d.core.catalog).toEqual({ types: [{ name: 'customers' }], fields: [{ name: 'name' }] });
  });

  it('(orders, *) disabled: the relation field is refused, not only absent', async () => {
    expect(await fields('no_orders_at_all', 'customers')).not.toContain('orders');
    const r = await t.gql('{ customers_by_pk(id: 1) { orders { id } } }', undefined, as('no_orders_at_all'));
    expect(r.body.errors?.[0]?.message).toMatch(/forbidden|orders/);
    expect(r.text).not.toMatch(/"id":\s*\d/);
  });

  it('(*, *) hidden with one type granted: that type without its relations to hidden types', async () => {
    const customers = await fields('only_customers', 'customers');
    expect(customers).toEqual(expect.arrayContaining(['id', 'name']));
    expect(customers).not.toContain('orders');
    const q = await fields('only_customers', 'Query');
    expect(q).toContain('customers');
    expect(q).not.toContain('orders');
    expect((await data(t, '{ customers(filter: {id: {eq: 1}}) { name } }', undefined, as('only_customers'))).customers).toEqual([{ name: 'Alfreds' }]);
  });
});
