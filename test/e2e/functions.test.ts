// Catalog functions (SPEC §4.4): sql templates and positional calls, scalar / object / table
// results, injected arguments, and mutation functions inside the request's transaction.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';
import { type Dialects, startDialects } from '../support/dialects.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let dialects: Dialects;
let db: TestDatabase;
let pg: TestApp;
beforeAll(async () => {
  dialects = await startDialects({ SECRET_KEY: 'k' });
  db = await createTestDatabase('svc_funcs');
  await db.exec(readFileSync(join(FIXTURES, 'pg/functions.sql'), 'utf8'));
  pg = await startApp();
  await pg.gql(`mutation($p: String!, $c: String!) { core { insert_data_sources(data: {name: "fx", type: "postgres", prefix: "fx", as_module: false, path: $p,
    catalogs: [{name: "fx", type: "localFS", path: $c}]}) { name } } }`, { p: db.url, c: join(FIXTURES, 'catalogs/pgfuncs') });
  const load = await pg.gql('mutation { function { core { load_data_source(name: "fx") { success message } } } }');
  expect(load.body.data.function.core.load_data_source).toMatchObject({ success: true });
}, 120_000);
afterAll(async () => {
  await dialects?.close();
  await pg?.close();
  await db?.drop();
});

describe('injected arguments', () => {
  it('take the caller identity and cannot be set by the client', async () => {
    for (const d of dialects.all) {
      const as1 = { 'x-svc-secret-key': 'k', 'x-svc-role': 'admin', 'x-svc-user-id': '1' };
      const mine = await d.app.gql('{ function { shop_my_orders { id status } } }', undefined, as1);
      expect(mine.body.data.function.shop_my_orders, d.name).toEqual([{ id: 1, status: 'shipped' }, { id: 2, status: 'pending' }]);
      const forged = await d.app.gql('{ function { shop_my_orders(customer_id: 2) { id } } }', undefined, as1);
      expect(forged.body.errors[0].message).toBe('Unknown argument "customer_id" on field "Function.shop_my_orders".');
      const anonymous = await d.app.gql('{ function { shop_my_orders { id } } }');
      expect(anonymous.body.data.function.shop_my_orders).toEqual([]);
    }
  });
});

describe('PostgreSQL functions', () => {
  it('call database functions positionally, with scalar and composite results', async () => {
    const r = await pg.gql('{ function { shout: fx_shout(text: "hi") label_of: fx_label_of(id: 1) { id name } missing: fx_label_of(id: 99) { id } } }');
    expect(r.body).toEqual({ data: { function: { shout: 'HI!', label_of: { id: 1, name: 'first' }, missing: null } }, extensions: {} });
  });

  it('run mutation functions inside the transaction, rolled back with the rest on error', async () => {
    const ok = await pg.gql('mutation { function { add_label: fx_add_label(id: 2, name: "second") } }');
    expect(ok.body.data.function.add_label).toBe(2);
    const bad = await pg.gql('mutation { function { a: fx_add_label(id: 3, name: "third") b: fx_add_label(id: 2, name: "again") } }');
    expect(bad.body.data).toBeNull();
    expect(bad.body.errors[0].message).toMatch(/unique constraint violated/);
    const rows = await pg.gql('{ fx_labels(order_by: [{field: "id"}]) { id name } }');
    expect(rows.body.data.fx_labels).toEqual([{ id: 1, name: 'first' }, { id: 2, name: 'second' }]);
  });
});

describe('table function rows joined to objects', () => {
  it('@table_function_call_join matches the function rows to each parent, on both dialects', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('{ shop_customers(order_by: [{field: "id"}]) { id order_totals { id total } } }');
      expect(r.body.errors, d.name).toBeUndefined();
      const rows = r.body.data.shop_customers.map((c: { id: number; order_totals: { id: number; total: number }[] | null }) => [c.id, (c.order_totals ?? []).sort((a, b) => a.id - b.id)]);
      expect(rows, d.name).toEqual([
        [1, [{ id: 1, total: 87.5 }, { id: 2, total: 120 }]],
        [2, [{ id: 3, total: 918.99 }]],
        [3, [{ id: 4, total: 148.5 }]],
        [4, []],
      ]);
    }
  });
});
