// A write re-checks the role's read rule and the write's own rule on the rows it produced (issue
// 31, Hasura's "check"): a role cannot insert, batch insert or update rows into a state its own
// rules would hide; the whole mutation is refused and nothing is written. A constraint error never
// confirms that a row the role cannot read exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
const ADMIN = { 'x-svc-secret-key': 'k' };
const GB = { ...ADMIN, 'x-svc-role': 'gb_writer', 'x-svc-user-id': '7' };
const LOCKED = { ...ADMIN, 'x-svc-role': 'tag_writer', 'x-svc-user-id': '8' };

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k' });
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "gb_writer", permissions: [
    {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors, r.text).toBeUndefined();
  // An update rule of its own: a tag may not be renamed to "locked".
  const t2 = await t.gql(`mutation { core { insert_roles(data: {name: "tag_writer", permissions: [
    {type_name: "data-object:update", field_name: "shop_tags", filter: {_not: {name: {eq: "locked"}}}}
  ]}) { name } } }`, undefined, ADMIN);
  expect(t2.body.errors, t2.text).toBeUndefined();
}, 60_000);

const customers = async () => (await t.gql('{ shop_customers(order_by: [{field: "id"}]) { id name country } }', undefined, ADMIN)).body.data.shop_customers;

afterAll(() => t?.close());

describe('the check after a write', () => {
  it('refuses an insert the role could not read back, and writes nothing of the mutation', async () => {
    const r = await t.gql(`mutation {
      a: insert_shop_tags(data: {id: 300, name: "first"}) { id }
      b: insert_shop_customers(data: {id: 300, name: "Hidden", country: "FR"}) { id }
    }`, undefined, GB);
    expect(r.body.data, r.text).toBeNull();
    expect(r.body.errors[0]).toMatchObject({
      message: 'forbidden: role "gb_writer" may not insert into "shop_customers" a row its own read rule would hide; nothing was written',
      path: ['b'],
      extensions: { code: 'FORBIDDEN' },
    });
    const admin = await t.gql('{ shop_customers_by_pk(id: 300) { id } shop_tags_by_pk(id: 300) { id } }', undefined, ADMIN);
    expect(admin.body.data).toEqual({ shop_customers_by_pk: null, shop_tags_by_pk: null });
  });

  it('lets the role insert a row it can read', async () => {
    const r = await t.gql('mutation { insert_shop_customers(data: {id: 301, name: "Seen", country: "GB"}) { id country } }', undefined, GB);
    expect(r.body, r.text).toEqual({ data: { insert_shop_customers: { id: 301, country: 'GB' } }, extensions: {} });
  });

  it('refuses a batch insert with one row the role could not read back, and writes none of it', async () => {
    const before = await customers();
    const r = await t.gql('mutation { insert_shop_customers(data: {id: 310, name: "Fine", country: "GB"}) { id } }', undefined, GB);
    expect(r.body.errors, r.text).toBeUndefined();
    const batch = await t.gql('mutation($rows: [shop_customers_mut_input_data!]!) { insert_shop_customers_batch(data: $rows) { affected_rows } }',
      { rows: [{ id: 311, name: 'Seen', country: 'GB' }, { id: 312, name: 'Hidden', country: 'FR' }] }, GB);
    expect(batch.body.data, batch.text).toBeNull();
    expect(batch.body.errors[0]).toMatchObject({
      message: 'forbidden: role "gb_writer" may not insert into "shop_customers" a row its own read rule would hide; nothing was written',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await customers()).map((c: { id: number }) => c.id)).toEqual([...before.map((c: { id: number }) => c.id), 310]);
  });

  it('refuses an update that moves rows out of the role\'s read rule, and writes nothing of the mutation', async () => {
    const before = await customers();
    const r = await t.gql(`mutation {
      a: update_shop_customers(filter: {id: {eq: 1}}, data: {name: "Ada L."}) { affected_rows }
      b: update_shop_customers(filter: {id: {eq: 2}}, data: {country: "FR"}) { affected_rows }
    }`, undefined, GB);
    expect(r.body.data, r.text).toBeNull();
    expect(r.body.errors[0]).toMatchObject({
      message: 'forbidden: role "gb_writer" may not update rows of "shop_customers" into a state its own read rule would hide; nothing was written',
      path: ['b'],
      extensions: { code: 'FORBIDDEN' },
    });
    expect(await customers()).toEqual(before);
    const ok = await t.gql('mutation { update_shop_customers(filter: {id: {eq: 2}}, data: {name: "Alan M. Turing"}) { affected_rows } }', undefined, GB);
    expect(ok.body, ok.text).toEqual({ data: { update_shop_customers: { affected_rows: 1 } }, extensions: {} });
  });

  it('refuses an update into a state the update rule itself excludes', async () => {
    const r = await t.gql('mutation { update_shop_tags(filter: {id: {eq: 1}}, data: {name: "locked"}) { affected_rows } }', undefined, LOCKED);
    expect(r.body.data, r.text).toBeNull();
    expect(r.body.errors[0].message).toBe('forbidden: role "tag_writer" may not update rows of "shop_tags" into a state its own read or update rules would hide; nothing was written');
    const tag = await t.gql('{ shop_tags_by_pk(id: 1) { name } }', undefined, ADMIN);
    expect(tag.body.data.shop_tags_by_pk.name).not.toBe('locked');
  });

  it('does not confirm that a row the role cannot read exists when its key is taken', async () => {
    // Customer 3 is in the US: gb_writer cannot read it.
    const hidden = await t.gql('mutation { insert_shop_customers(data: {id: 3, name: "Probe", country: "GB"}) { id } }', undefined, GB);
    const unknown = await t.gql('mutation { insert_shop_orders(data: {id: 900, customer_id: 999, status: "x", ordered_at: "2025-01-01T00:00:00Z"}) { id } }', undefined, GB);
    expect(hidden.body.data, hidden.text).toBeNull();
    const message = hidden.body.errors[0].message as string;
    expect(message).not.toMatch(/exists|same key|duplicate|already/i);
    // The same words as any other key or reference refusal: nothing tells a hidden row from a missing one.
    expect(message).toBe(unknown.body.errors[0].message.replace('shop_orders', 'shop_customers'));
    // Admin (no row filter) is told what happened.
    const admin = await t.gql('mutation { insert_shop_customers(data: {id: 3, name: "Probe", country: "GB"}) { id } }', undefined, ADMIN);
    expect(admin.body.errors[0].message).toMatch(/a row with the same key exists/);
  });
});
