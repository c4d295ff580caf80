// _module and _dataObject answer from the caller's role schema, like __type (issue 18 item 9): a
// disabled field or object is absent; for the role, a hidden object is unknown (null).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
const ADMIN = { 'x-svc-secret-key': 'k' };
const AS = (role: string) => ({ ...ADMIN, 'x-svc-role': role });

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k' });
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "clerk", description: "no emails, no tags", permissions: [
    {type_name: "shop_customers", field_name: "email", disabled: true},
    {type_name: "data-object:query", field_name: "shop_tags", disabled: true}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(() => t.close());

const Q = `{
  customers: _dataObject(name: "shop_customers") { fields { name } relations { name } }
  tags: _dataObject(name: "shop_tags") { name }
  root: _module(name: "") { dataObjects { name } }
}`;

describe('_module and _dataObject per role', () => {
  it('admin sees every field and object', async () => {
    const r = await t.gql(Q, undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.customers.fields.map((f: { name: string }) => f.name)).toContain('email');
    expect(r.body.data.tags).toEqual({ name: 'shop_tags' });
    expect(r.body.data.root.dataObjects.map((o: { name: string }) => o.name)).toContain('shop_tags');
  });

  it('a role sees what __type shows it: no disabled field, no denied object', async () => {
    const r = await t.gql(Q, undefined, AS('clerk'));
    expect(r.body.errors).toBeUndefined();
    const fields = r.body.data.customers.fields.map((f: { name: string }) => f.name);
    expect(fields).not.toContain('email');
    expect(fields).toContain('name');
    const intro = await t.gql('{ __type(name: "shop_customers") { fields { name } } }', undefined, AS('clerk'));
    expect(fields).toEqual(intro.body.data.__type.fields.map((f: { name: string }) => f.name));
    expect(r.body.data.tags).toBeNull();
    expect(r.body.data.root.dataObjects.map((o: { name: string }) => o.name)).not.toContain('shop_tags');
  });

  it('modules: the root, a system module by name, null for an unknown one', async () => {
    const r = await t.gql('{ core: _module(name: "core") { name queryType modules { name } } none: _module(name: "nope") { name } }', undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.core).toMatchObject({ name: 'core', queryType: '_module_core_query' });
    expect(r.body.data.none).toBeNull();
  });
});
