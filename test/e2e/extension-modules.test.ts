// Extension modules (issue 20 items 1, 2, 7): the example module under examples/reports, loaded
// as EXTENSIONS loads it, exercised over HTTP: code-first query and mutation, a field added to a
// generated type resolved in one call per parent list, role permissions on extension fields,
// survival of a source reload, a clash refused at start, errors logged with the request id.
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { Int, Query, Resolver } from '@nestjs/graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadExtensionModules } from '../../src/extensions/load.js';
import { currentRequest } from '../../src/shared/request-scope.js';
import { startApp, type TestApp } from '../support/app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN = { 'x-svc-secret-key': 'k' };
const as = (role: string) => ({ ...ADMIN, 'x-svc-role': role, 'x-svc-user-id': '5', 'x-svc-user-name': `a ${role}` });

let t: TestApp;
let calls: () => number;
beforeAll(async () => {
  const modules = await loadExtensionModules(['examples/reports/reports.module.ts'], ROOT);
  t = await startApp({ SECRET_KEY: 'k' }, modules);
  const { CustomerValueResolver } = await import('../../examples/reports/customer-value.resolver.js');
  const resolver = t.app.get(CustomerValueResolver, { strict: false });
  calls = () => resolver.calls;
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "no_value", permissions: [
    {type_name: "shop_customers", field_name: "lifetime_value", disabled: true},
    {type_name: "Query", field_name: "report_notes", disabled: true},
    {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(() => t?.close());

describe('an extension module named in EXTENSIONS', () => {
  it('serves its code-first query, with its own types, as the caller', async () => {
    const r = await t.gql('{ report_customers_by_country { country customers } }', undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.report_customers_by_country).toContainEqual({ country: 'GB', customers: 2 });
    // The role's row filter applies to what the extension reads through the typed client.
    const gb = await t.gql('{ report_customers_by_country { country customers } }', undefined, as('no_value'));
    expect(gb.body.data.report_customers_by_country).toEqual([{ country: 'GB', customers: 2 }]);
  });

  it('serves its mutation, which knows the caller', async () => {
    const r = await t.gql('mutation { report_add_note(text: "check Q3") { id text author } }', undefined, as('admin'));
    expect(r.body).toEqual({ data: { report_add_note: { id: '1', text: 'check Q3', author: 'a admin' } }, extensions: {} });
    expect((await t.gql('{ report_notes { text } }', undefined, ADMIN)).body.data.report_notes).toEqual([{ text: 'check Q3' }]);
  });

  it('adds a field to a generated type, resolved in one call per parent list', async () => {
    const before = calls();
    const r = await t.gql('{ shop_customers(order_by: [{field: "id"}]) { id name lifetime_value } }', undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
    const customers = r.body.data.shop_customers as { name: string; lifetime_value: number | null }[];
    expect(customers.length).toBeGreaterThan(2);
    expect(customers.some((c) => typeof c.lifetime_value === 'number' && c.lifetime_value > 0)).toBe(true);
    expect(calls() - before).toBe(1);
    // Nested under a relation, with aliases: still one call per list (per response path).
    const nested = await t.gql('{ shop_orders { customer { v: lifetime_value } } }', undefined, ADMIN);
    expect(nested.body.errors).toBeUndefined();
    expect(calls() - before).toBe(2);
    // The value matches svc's own view of the same number.
    const ada = await t.gql('{ shop_customer_revenue(filter: {customer_id: {eq: 1}}) { revenue } }', undefined, ADMIN);
    expect(customers[0]!.lifetime_value).toBe(ada.body.data.shop_customer_revenue[0].revenue);
  });

  it('appears in introspection and in the schema like a generated field', async () => {
    const r = await t.gql('{ __type(name: "shop_customers") { fields { name } } }', undefined, ADMIN);
    expect(r.body.data.__type.fields.map((f: { name: string }) => f.name)).toContain('lifetime_value');
  });

  it('obeys role permission rows naming the extension fields by type and field', async () => {
    const before = calls();
    const r = await t.gql('{ shop_customers(order_by: [{field: "id"}]) { id lifetime_value } }', undefined, as('no_value'));
    expect(r.body.data.shop_customers[0]).toEqual({ id: 1, lifetime_value: null });
    expect(r.body.errors[0]).toMatchObject({ message: 'forbidden', path: ['shop_customers', 0, 'lifetime_value'] });
    expect(calls()).toBe(before);
    const notes = await t.gql('{ report_notes { text } }', undefined, as('no_value'));
    expect(notes.body.errors[0]).toMatchObject({ message: 'forbidden', path: ['report_notes'] });
    const intro = await t.gql('{ __type(name: "shop_customers") { fields { name } } }', undefined, as('no_value'));
    expect(intro.body.data.__type.fields.map((f: { name: string }) => f.name)).not.toContain('lifetime_value');
  });

  it('survives a source reload: the fields wait while the source is unloaded and come back with it', async () => {
    const unload = await t.gql('mutation { function { core { unload_data_source(name: "shop") { success message } } } }', undefined, ADMIN);
    expect(unload.body.data.function.core.unload_data_source.success).toBe(true);
    const gone = await t.gql('{ report_notes { text } }', undefined, ADMIN);
    expect(gone.body.errors).toBeUndefined();
    const load = await t.gql('mutation { function { core { load_data_source(name: "shop") { success message } } } }', undefined, ADMIN);
    expect(load.body.data.function.core.load_data_source.success).toBe(true);
    const before = calls();
    const back = await t.gql('{ shop_customers(limit: 2) { lifetime_value } }', undefined, ADMIN);
    expect(back.body.errors).toBeUndefined();
    expect(back.body.data.shop_customers).toHaveLength(2);
    expect(calls() - before).toBe(1);
  });

  it('limits apply: depth, and jq over the result', async () => {
    const jq = await t.gql('{ jq(query: "[.report_customers_by_country[] | .customers] | add") { report_customers_by_country { customers } } }', undefined, ADMIN);
    expect(jq.body.errors).toBeUndefined();
    expect(jq.body.extensions.jq.jq).toBeGreaterThan(2);
  });

  it('an error inside the extension is logged with the request id, which the GraphQL error carries', async () => {
    const logged: { id: string | undefined; err: unknown }[] = [];
    const spy = vi.spyOn(t.runtime.log, 'error').mockImplementation(((obj: { err?: unknown }) => void logged.push({ id: currentRequest()?.id, err: obj.err })) as never);
    try {
      const r = await t.gql('{ report_broken }', undefined, ADMIN);
      expect(r.status).toBe(200);
      expect(r.body.errors[0]).toMatchObject({ message: 'internal server error', path: ['report_broken'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      expect(r.text).not.toMatch(/fell over/);
      const id = r.body.errors[0].extensions.request_id;
      expect(typeof id).toBe('string');
      expect((logged.find((l) => l.id === id)?.err as Error).message).toBe('the report fell over: detail only for the log');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a name clash with the generated schema', () => {
  @Resolver()
  class Clashing {
    @Query(() => Int)
    shop_customers(): number {
      return 1;
    }
  }
  @Module({ providers: [Clashing] })
  class ClashingModule {}

  it('stops the start, naming both fields', async () => {
    await expect(startApp({}, [ClashingModule])).rejects.toThrow('extension field "Query.shop_customers" (Clashing.shop_customers) clashes with the generated field "Query.shop_customers"');
  });
});

describe('EXTENSIONS entries that are not modules', () => {
  it('names the file and the problem', async () => {
    await expect(loadExtensionModules(['examples/reports/missing.module.ts'], ROOT)).rejects.toThrow(/EXTENSIONS: examples\/reports\/missing\.module\.ts: no such file/);
    await expect(loadExtensionModules(['examples/reports/reports.resolver.ts'], ROOT)).rejects.toThrow(/exports no Nest module/);
  });
});
