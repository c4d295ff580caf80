// hugr's schema-definition pages on data objects (issue 32): tables (keys, unique queries, field
// mapping, computed fields, defaults, soft delete) and the basic-queries page (by primary key and
// unique keys), on the northwind fixture (test/compat/northwind).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { data, startNorthwind } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind();
}, 60_000);
afterAll(() => t?.close());

describe('docs/5-graphql/queries/2-basic-queries.md', () => {
  it('by primary key (single and composite), missing rows are null, with relations, aggregations and aliases', async () => {
    const d = await data(t, `query GetCustomer($customerId: BigInt!) {
      customers_by_pk(id: $customerId) {
        customerId: id customerName: name emailAddress: email
        orders(filter: {status: {eq: "pending"}}, order_by: [{field: "order_date", direction: DESC}], limit: 5) { id status total order_date }
        orders_aggregation { _rows_count total { sum avg } }
      }
      missing: customers_by_pk(id: 99999) { id name }
      supplier_products_by_pk(supplier_id: 1, product_id: 2) { supplier_id product_id price }
    }`, { customerId: 1 });
    expect(d.customers_by_pk).toEqual({
      customerId: 1, customerName: 'Alfreds', emailAddress: 'a@example.com',
      orders: [{ id: 2, status: 'pending', total: 38, order_date: '2024-02-11T12:00:00Z' }],
      orders_aggregation: { _rows_count: 2, total: { sum: 263, avg: 131.5 } },
    });
    expect(d.missing).toBeNull();
    expect(d.supplier_products_by_pk).toEqual({ supplier_id: 1, product_id: 2, price: 16 });
  });

  it('by unique keys (one field, several fields), fragments, a parameterized view by key with args', async () => {
    const d = await data(t, `
      fragment CustomerBasicInfo on customers { id name email phone }
      fragment CustomerWithOrders on customers { ...CustomerBasicInfo orders(limit: 5) { id total status } }
      query GetCustomerByEmail($email: String!) {
        customer1: customers_by_pk(id: 2) { ...CustomerWithOrders }
        customer2: customers_by_email(email: $email) { ...CustomerBasicInfo }
        customers_by_name_country(name: "Du monde", country: "France") { id }
        orders_in_window_by_pk(id: 2, args: {from: "2024-02-01T00:00:00Z", to: "2024-03-01T00:00:00Z"}) { id status }
        outside: orders_in_window_by_pk(id: 1, args: {from: "2024-02-01T00:00:00Z", to: "2024-03-01T00:00:00Z"}) { id }
      }`, { email: 'c@example.com' });
    expect(d.customer1).toEqual({ id: 2, name: 'Bottom Dollar', email: 'b@example.com', phone: null, orders: [{ id: 3, total: 194.7, status: 'completed' }] });
    expect(d.customer2).toEqual({ id: 3, name: 'Chop-suey', email: 'c@example.com', phone: '041-3' });
    expect(d.customers_by_name_country).toEqual({ id: 4 });
    expect(d.orders_in_window_by_pk).toEqual({ id: 2, status: 'pending' });
    expect(d.outside).toBeNull();
  });

  it('soft-deleted rows are left out unless @with_deleted', async () => {
    const d = await data(t, `{
      gone: members_by_pk(id: 2) { id }
      kept: members_by_pk(id: 2) @with_deleted { id deleted_at }
      members(order_by: [{field: "id"}]) { id }
    }`);
    expect(d).toEqual({ gone: null, kept: { id: 2, deleted_at: '2024-01-01T00:00:00Z' }, members: [{ id: 1 }] });
  });
});

describe('docs/4-engine-configuration/3-schema-definition/3-data-objects/2-tables.md', () => {
  it('@field_source renames a column; @sql computes from fields ([field]) and source columns (objects.column)', async () => {
    const d = await data(t, '{ members(filter: {displayName: {eq: "Ann"}}) { id displayName label } }');
    expect(d.members).toEqual([{ id: 1, displayName: 'Ann', label: 'ANN <ann@example.com>' }]);
  });

  it('defaults and sequences fill inserts; the inserted row is returned by its key', async () => {
    const d = await data(t, 'mutation { insert_members(data: {email: "cy@example.com", displayName: "Cy"}) { id status displayName } }');
    expect(d.insert_members).toEqual({ id: 10, status: 'active', displayName: 'Cy' });
  });

  it('soft delete: delete sets soft_delete_set, reads apply soft_delete_cond', async () => {
    const del = await data(t, 'mutation { delete_members(filter: {id: {eq: 10}}) { affected_rows } }');
    expect(del.delete_members.affected_rows).toBe(1);
    const d = await data(t, '{ members(order_by: [{field: "id"}]) { id } all: members(order_by: [{field: "id"}]) @with_deleted { id deleted_at } }');
    expect(d.members).toEqual([{ id: 1 }]);
    expect(d.all.map((m: any) => [m.id, m.deleted_at !== null])).toEqual([[1, false], [2, true], [10, true]]);
  });
});

describe('docs/4-engine-configuration/3-schema-definition/3-data-objects/3-views.md', () => {
  it('a database view without sql, with a relation both ways', async () => {
    const d = await data(t, `{
      customer_summary(order_by: [{field: "total_spent", direction: DESC}]) { customer_id total_orders total_spent customer { name } }
      customers_by_pk(id: 1) { summaries { total_orders } }
    }`);
    expect(d.customer_summary).toEqual([
      { customer_id: 1, total_orders: 2, total_spent: 263, customer: { name: 'Alfreds' } },
      { customer_id: 2, total_orders: 1, total_spent: 194.7, customer: { name: 'Bottom Dollar' } },
      { customer_id: 3, total_orders: 1, total_spent: 57, customer: { name: 'Chop-suey' } },
    ]);
    expect(d.customers_by_pk.summaries).toEqual([{ total_orders: 2 }]);
  });

  it('a parameterized view: [$arg] placeholders, optional arguments and input defaults, relations from its rows', async () => {
    const d = await data(t, `{
      window: top_customers(args: {requested: "2024-03-01T00:00:00Z", from: "2024-01-01T00:00:00Z", to: "2024-02-29T23:59:59Z", limit: 20}) { customer_id total_spent customer { name email } }
      last_month: top_customers(args: {requested: "2024-02-25T00:00:00Z"}) { customer_id total_spent }
      one: top_customers(args: {requested: "2024-03-01T00:00:00Z", from: "2024-01-01T00:00:00Z", limit: 1}) { customer_id }
    }`);
    expect(d.window).toEqual([
      { customer_id: 1, total_spent: 225, customer: { name: 'Alfreds', email: 'a@example.com' } },
      { customer_id: 2, total_spent: 194.7, customer: { name: 'Bottom Dollar', email: 'b@example.com' } },
    ]);
    expect(d.last_month).toEqual([{ customer_id: 2, total_spent: 194.7 }]);
    expect(d.one).toEqual([{ customer_id: 1 }]);
  });

  it('a view over a database table function: its arguments are the function\'s', async () => {
    const d = await data(t, '{ customer_orders(args: {cust: 1}, order_by: [{field: "id"}]) { id status } }');
    expect(d.customer_orders).toEqual([{ id: 1, status: 'completed' }, { id: 2, status: 'pending' }]);
  });
});

// Last: these write.
describe('docs/4-engine-configuration/3-schema-definition/3-data-objects/7-relations.md', () => {
  it('cascading inserts: a customer with its orders and their details; a product linked to existing categories (M2M)', async () => {
    const d = await data(t, `mutation {
      insert_customers(data: {id: 20, name: "New Customer", email: "customer@example.com", orders: [{status: "pending", total: 150, order_details: [{product_id: 1, supplier_id: 1, quantity: 2, unit_price: 75, discount: 0}]}]}) {
        id orders { status total order_details { product_id quantity } }
      }
      insert_products(data: {id: 20, sku: "NEW", name: "New Product", price: 99.99, categories: [{id: 1}, {id: 2}]}) { id categories(order_by: [{field: "id"}]) { id name } }
    }`);
    expect(d.insert_customers).toEqual({ id: 20, orders: [{ status: 'pending', total: 150, order_details: [{ product_id: 1, quantity: 2 }] }] });
    expect(d.insert_products).toEqual({ id: 20, categories: [{ id: 1, name: 'Beverages' }, { id: 2, name: 'Condiments' }] });
    const back = await data(t, '{ categories_by_pk(id: 2) { products(filter: {id: {eq: 20}}) { name } } customers(filter: {orders: {any_of: {_and: [{status: {eq: "pending"}} {total: {gt: 100}}]}}}) { id } }');
    expect(back).toEqual({ categories_by_pk: { products: [{ name: 'New Product' }] }, customers: [{ id: 20 }] });
  });
});
