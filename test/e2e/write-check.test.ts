// A write re-checks the role's read rule on the row it produced (issue 31, Hasura's "check"): a
// role cannot insert a row into a state its own read filter would hide; the whole mutation is
// refused and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
const ADMIN = { 'x-svc-secret-key': 'k' };
const GB = { ...ADMIN, 'x-svc-role': 'gb_writer', 'x-svc-user-id': '7' };

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k' });
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "gb_writer", permissions: [
    {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors, r.text).toBeUndefined();
}, 60_000);

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
});
