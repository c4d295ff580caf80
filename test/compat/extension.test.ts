// hugr's pages on extension sources (issue 32): docs/4-engine-configuration/4-extension.md and
// docs/4-engine-configuration/1-data-sources/6-extension.md. Two sources and an extension over both,
// written as the pages write them (prefixes, @dependency, @join, @function_call, descriptions).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tempDir } from '../support/app.js';
import { data, startNorthwind, writeSource } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind({}, (dir) => {
    writeSource(dir, 'analytics', {
      'source.yaml': 'type: duckdb\npath: analytics.duckdb\ncreate: true\nseed: seed.sql\nprefix: an\n',
      'seed.sql': "CREATE TABLE user_sessions (session_id INTEGER PRIMARY KEY, user_email VARCHAR, duration INTEGER); INSERT INTO user_sessions VALUES (1, 'a@example.com', 30), (2, 'a@example.com', 12), (3, 'c@example.com', 7);",
      'schema.graphql': [
        'type user_sessions @table(name: "user_sessions") {',
        '  session_id: Int! @pk',
        '  user_email: String',
        '  duration: Int',
        '}',
        'extend type Function {',
        '  session_minutes(email: String!): Int @function(name: "session_minutes", sql: "SELECT sum(duration) FROM [$catalog].user_sessions WHERE user_email = [email]")',
        '}',
      ].join('\n'),
    });
    writeSource(dir, 'ext_cross_source', {
      'source.yaml': 'type: extension\n',
      'schema.graphql': [
        '"Customer accounts of the shop"',
        'extend type customers @dependency(name: "analytics") {',
        '  "Sessions of this customer, from the analytics source"',
        '  sessions: [an_user_sessions] @join(references_name: "an_user_sessions", source_fields: ["email"], references_fields: ["user_email"])',
        '  "Minutes spent in sessions: a function of another source"',
        '  minutes: Int @function_call(references_name: "session_minutes", module: "analytics", args: {email: "email"})',
        '}',
      ].join('\n'),
    });
  });
}, 60_000);
afterAll(() => t?.close());

describe('docs/4-engine-configuration/4-extension.md', () => {
  it('extends a type of one source with a cross-source join and a function call of another', async () => {
    const d = await data(t, `{ customers(filter: {id: {in: [1, 2]}}, order_by: [{field: "id"}]) {
      id email minutes sessions(order_by: [{field: "session_id"}]) { session_id duration } sessions_aggregation { _rows_count duration { sum } }
    } }`);
    expect(d.customers).toEqual([
      { id: 1, email: 'a@example.com', minutes: 42, sessions: [{ session_id: 1, duration: 30 }, { session_id: 2, duration: 12 }], sessions_aggregation: { _rows_count: 2, duration: { sum: 42 } } },
      { id: 2, email: 'b@example.com', minutes: null, sessions: null, sessions_aggregation: null },
    ]);
  });

  it('documents the types it extends ("text" extend type ..., which the GraphQL grammar itself does not allow)', async () => {
    const d = await data(t, '{ __type(name: "customers") { description fields { name description } } }');
    expect(d.__type.description).toBe('Customer accounts of the shop');
    expect(d.__type.fields.find((f: { name: string }) => f.name === 'sessions').description).toBe('Sessions of this customer, from the analytics source');
  });

  it('joins at query time with _join, with inner', async () => {
    const d = await data(t, `{ customers(order_by: [{field: "id"}]) { id _join(fields: ["email"]) { an_user_sessions(fields: ["user_email"], inner: true) { session_id } } } }`);
    // Deliberate difference (docs/multi-source.md): across sources, inner: true inside _join makes the
    // _join value null rather than dropping the parent as the page says; within one source it drops it.
    expect(d.customers.map((c: any) => [c.id, c._join?.an_user_sessions.length ?? null])).toEqual([[1, 2], [2, null], [3, 1], [4, null]]);
  });

  it('records the extension and what it depends on', async () => {
    const d = await data(t, '{ core { catalog { catalogs(filter: {name: {eq: "ext_cross_source"}}) { name type suspended dependencies(order_by: [{field: "depends_on"}]) { depends_on } } } } }');
    expect(d.core.catalog.catalogs).toEqual([{ name: 'ext_cross_source', type: 'extension', suspended: false, dependencies: [{ depends_on: 'analytics' }, { depends_on: 'nw' }] }]);
  });
});

describe('docs/4-engine-configuration/1-data-sources/6-extension.md', () => {
  it('refuses to load an extension while a source it depends on is not loaded, and suspends it when that source is unloaded', async () => {
    const unload = await data(t, 'mutation { function { core { unload_data_source(name: "analytics") { success } } } }');
    expect(unload.function.core.unload_data_source.success).toBe(true);
    const c = await data(t, '{ core { catalog { catalogs(filter: {name: {eq: "ext_cross_source"}}) { suspended } } } }');
    expect(c.core.catalog.catalogs).toEqual([{ suspended: true }]);
    const reload = await data(t, 'mutation { function { core { load_data_source(name: "ext_cross_source") { success message } } } }');
    expect(reload.function.core.load_data_source).toEqual({ success: false, message: 'extension "ext_cross_source" depends on data source "analytics", which is not loaded' });
    const back = await data(t, 'mutation { function { core { load_data_source(name: "analytics") { success } } } }');
    expect(back.function.core.load_data_source.success).toBe(true);
    const d = await data(t, '{ customers_by_pk(id: 1) { minutes } }');
    expect(d.customers_by_pk).toEqual({ minutes: 42 });
  });
});

describe('docs/4-engine-configuration/1-data-sources/5-extension.md (older version of the page)', () => {
  it('Setting up an Extension: insert_data_sources with an empty path and its catalog in the same mutation, then load it', async () => {
    const folder = join(tempDir(), 'ext_test');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'schema.graphql'), [
      'extend type orders @dependency(name: "nw") {',
      '  "Other orders of the same customer"',
      '  same_customer: [orders] @join(references_name: "orders", source_fields: ["customer_id"], references_fields: ["customer_id"])',
      '}',
    ].join('\n'));
    const vars = { data: { name: 'ext_test', type: 'extension', path: '', prefix: '', description: 'Test extension', read_only: false, self_defined: false, as_module: false, disabled: false,
      catalogs: [{ name: 'ext_test', description: 'Test extension catalog', type: 'uri', path: folder }] } };
    const ins = await t.gql('mutation addExtensionDataSource($data: core_data_sources_mut_input_data! = {}) { core { insert_data_sources(data: $data) { name description as_module disabled path prefix read_only self_defined type } } }', vars);
    expect(ins.body.errors, ins.text).toBeUndefined();
    expect(ins.body.data.core.insert_data_sources).toEqual({ name: 'ext_test', description: 'Test extension', as_module: false, disabled: false, path: '', prefix: '', read_only: false, self_defined: false, type: 'extension' });
    const load = await data(t, 'mutation { function { core { load_data_source(name: "ext_test") { success message } } } }');
    expect(load.function.core.load_data_source).toMatchObject({ success: true });
    const d = await data(t, '{ orders_by_pk(id: 2) { id same_customer(order_by: [{field: "id"}]) { id } } }');
    expect(d.orders_by_pk).toEqual({ id: 2, same_customer: [{ id: 1 }, { id: 2 }] });
    const deps = await data(t, '{ core { catalog { catalogs(filter: {name: {eq: "ext_test"}}) { type dependencies { depends_on } } } } }');
    expect(deps.core.catalog.catalogs).toEqual([{ type: 'extension', dependencies: [{ depends_on: 'nw' }] }]);
  });
});
