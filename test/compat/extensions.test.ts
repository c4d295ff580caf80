// hugr's "GraphQL Extensions" page (issue 32): `@stats` on fields, on the operation and on jq()
// fields, and where the figures and jq results sit in `extensions` (a field at its response path,
// deeper levels under `children`). Timings are never compared with numbers; the tests check the
// members, their Go duration text, and that node_time is the sum of its parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startNorthwind, writeSource } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind({}, (dir) =>
    writeSource(dir, 'op', {
      'source.yaml': 'type: duckdb\npath: op.duckdb\ncreate: true\nseed: seed.sql\n',
      'seed.sql': [
        'CREATE TABLE providers (id INTEGER PRIMARY KEY, name VARCHAR, state VARCHAR);',
        "INSERT INTO providers VALUES (1, 'Aster Clinic', 'CA'), (2, 'Birch Health', 'NY'), (3, 'Cedar Care', 'CA');",
        'CREATE TABLE general_payments (id INTEGER PRIMARY KEY, provider_id INTEGER, amount DOUBLE);',
        'INSERT INTO general_payments VALUES (1, 1, 10), (2, 1, 20.5), (3, 2, 7), (4, 3, 1), (5, 3, 2);',
      ].join('\n'),
      'schema.graphql': [
        'type providers @table(name: "providers") @module(name: "op2023") {',
        '  id: Int! @pk',
        '  name: String!',
        '  state: String',
        '}',
        'type general_payments @table(name: "general_payments") @module(name: "op2023") {',
        '  id: Int! @pk',
        '  provider_id: Int! @field_references(name: "payments_provider", references_name: "providers", field: "id", query: "provider", references_query: "payments")',
        '  amount: Float',
        '}',
      ].join('\n'),
    }),
  );
}, 60_000);
afterAll(() => t?.close());

const DURATION = /^(\d+h)?(\d+m)?\d+(\.\d+)?(ns|µs|ms|s)$|^0s$/;
const UNIT: Record<string, number> = { h: 3.6e12, m: 6e10, s: 1e9, ms: 1e6, 'µs': 1e3, ns: 1 };

/** Go duration text in nanoseconds. */
function nanos(text: string): number {
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ns|µs|ms|h|m|s)/g)) total += Number(n) * UNIT[unit!]!;
  return Math.round(total);
}

/** A field's stats as the page shows them: the five members, durations, node = planning + compile + exec. */
function expectFieldStats(stats: any, name: string): void {
  expect(Object.keys(stats).filter((k) => k !== 'cached').sort()).toEqual(['compile_time', 'exec_time', 'name', 'node_time', 'planning_time']);
  expect(stats.name).toBe(name);
  for (const k of ['compile_time', 'exec_time', 'node_time', 'planning_time']) expect(stats[k]).toMatch(DURATION);
  expect(nanos(stats.node_time)).toBeGreaterThan(0);
  expect(Math.abs(nanos(stats.node_time) - nanos(stats.compile_time) - nanos(stats.planning_time) - nanos(stats.exec_time))).toBeLessThanOrEqual(2);
}

describe('docs/5-graphql/3-extensions.md', () => {
  it('@stats on one field, and on two: extensions.<module>.children.<field>.stats, data unchanged', async () => {
    const one = await t.gql('{ op2023 { providers_aggregation @stats { _rows_count } } }');
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data).toEqual({ op2023: { providers_aggregation: { _rows_count: 3 } } });
    expect(Object.keys(one.body.extensions)).toEqual(['op2023']);
    expect(Object.keys(one.body.extensions.op2023)).toEqual(['children']);
    expectFieldStats(one.body.extensions.op2023.children.providers_aggregation.stats, 'providers_aggregation');
    expect(one.body.extensions.op2023.children.providers_aggregation.stats.planning_time).not.toBe('0s');

    const q = '{ op2023 { providers_aggregation @stats { _rows_count } general_payments_aggregation @stats { _rows_count } } }';
    for (const attempt of [1, 2]) {
      // The second request is answered by the prepared route (no Apollo): the same shape.
      const two = await t.gql(q);
      expect(two.body.data, `attempt ${attempt}`).toEqual({ op2023: { providers_aggregation: { _rows_count: 3 }, general_payments_aggregation: { _rows_count: 5 } } });
      const children = two.body.extensions.op2023.children;
      expect(Object.keys(children).sort()).toEqual(['general_payments_aggregation', 'providers_aggregation']);
      expectFieldStats(children.providers_aggregation.stats, 'providers_aggregation');
      expectFieldStats(children.general_payments_aggregation.stats, 'general_payments_aggregation');
    }
  });

  it('@stats on the operation: extensions.stats {name, total_time}, the field tree under extensions.children', async () => {
    const r = await t.gql('query @stats { op2023 { providers_aggregation { _rows_count } general_payments_aggregation { _rows_count } } }');
    expect(r.body.data.op2023.general_payments_aggregation).toEqual({ _rows_count: 5 });
    expect(Object.keys(r.body.extensions).sort()).toEqual(['children', 'stats']);
    expect(r.body.extensions.children).toEqual({});
    expect(Object.keys(r.body.extensions.stats).sort()).toEqual(['name', 'total_time']);
    expect(r.body.extensions.stats.name).toBe('');
    expect(r.body.extensions.stats.total_time).toMatch(DURATION);

    const named = await t.gql('query Report @stats { providers: op2023 { providers(order_by: [{field: "id"}], limit: 1) @stats { id } } }');
    expect(named.body.data).toEqual({ providers: { providers: [{ id: 1 }] } });
    expect(named.body.extensions.stats.name).toBe('Report');
    expectFieldStats(named.body.extensions.children.providers.children.providers.stats, 'providers');

    const write = await t.gql('mutation Add @stats { op2023 { insert_providers(data: {id: 9, name: "Dune Lab"}) @stats { id } } }');
    expect(write.body.data).toEqual({ op2023: { insert_providers: { id: 9 } } });
    expect(write.body.extensions.stats.name).toBe('Add');
    expectFieldStats(write.body.extensions.children.op2023.children.insert_providers.stats, 'insert_providers');
    await t.gql('mutation { op2023 { delete_providers(filter: {id: {eq: 9}}) { success } } }');
  });

  it('a top-level field, aliases (A/B comparison) and functions: extensions.<key>.stats', async () => {
    const r = await t.gql(`{
      h3(resolution: 6) @stats { cell data { stores_aggregation(field: "location") { _rows_count } } }
      approach_a: customers(limit: 2) @stats { id }
      approach_b: customers(limit: 2, order_by: [{field: "id", direction: DESC}]) @stats { id }
      function { order_value(order_id: 1) @stats }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.h3.length).toBeGreaterThan(0);
    expect(r.body.data.function.order_value).toBeTypeOf('number');
    expect(Object.keys(r.body.extensions).sort()).toEqual(['approach_a', 'approach_b', 'function', 'h3']);
    expectFieldStats(r.body.extensions.h3.stats, 'h3');
    expectFieldStats(r.body.extensions.approach_a.stats, 'approach_a');
    expectFieldStats(r.body.extensions.approach_b.stats, 'approach_b');
    expectFieldStats(r.body.extensions.function.children.order_value.stats, 'order_value');
    expect(r.body.extensions.function.children.order_value.stats.compile_time).not.toBe('0s');
  });

  it('jq() with field stats: the jq result at extensions.<alias>.jq, the stats under its children', async () => {
    const one = await t.gql(`{
      jq(query: ".op2023.providers_aggregation") {
        op2023 { providers_aggregation @stats { _rows_count } general_payments_aggregation { _rows_count } }
      }
    }`);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data).toEqual({ jq: null });
    expect(one.body.extensions.jq.jq).toEqual({ _rows_count: 3 });
    expectFieldStats(one.body.extensions.jq.children.op2023.children.providers_aggregation.stats, 'providers_aggregation');
    expect(Object.keys(one.body.extensions.jq.children.op2023.children)).toEqual(['providers_aggregation']);

    const two = await t.gql(`{
      jq(query: ".op2023.providers_aggregation") { op2023 { providers_aggregation { _rows_count } general_payments_aggregation { _rows_count } } }
      payments: jq(query: ".op2023.general_payments_aggregation") { op2023 { general_payments_aggregation @stats { _rows_count } } }
    }`);
    expect(two.body.data).toEqual({ jq: null, payments: null });
    expect(two.body.extensions.jq.jq).toEqual({ _rows_count: 3 });
    expect(two.body.extensions.payments.jq).toEqual({ _rows_count: 5 });
    expectFieldStats(two.body.extensions.payments.children.op2023.children.general_payments_aggregation.stats, 'general_payments_aggregation');
    // svc's own place of an aliased result (seed 000) stays.
    expect(two.body.extensions.jq.payments).toEqual({ _rows_count: 5 });
  });

  it('operation @stats with jq(): extensions.children.<alias>.jq and .children, extensions.stats', async () => {
    const r = await t.gql(`query @stats {
      jq(query: ".op2023.providers_aggregation") { op2023 { providers_aggregation { _rows_count } } }
      payments: jq(query: ".op2023.general_payments_aggregation") { op2023 { general_payments_aggregation @stats { _rows_count } } }
    }`);
    expect(r.body.data).toEqual({ jq: null, payments: null });
    expect(r.body.extensions.children.jq).toEqual({ jq: { _rows_count: 3 } });
    expect(r.body.extensions.children.payments.jq).toEqual({ _rows_count: 5 });
    expectFieldStats(r.body.extensions.children.payments.children.op2023.children.general_payments_aggregation.stats, 'general_payments_aggregation');
    expect(r.body.extensions.stats.name).toBe('');
    expect(r.body.extensions.stats.total_time).toMatch(DURATION);
    // The total covers the jq transformations, which run after the fields.
    const both = await t.gql('query @stats { jq(query: ".customers | length") @stats { customers { id } } }');
    expect(nanos(both.body.extensions.stats.total_time)).toBeGreaterThanOrEqual(nanos(both.body.extensions.children.jq.stats.node_time));
  });

  it('@stats on jq() itself: the jq stats members beside the result and the nested field stats', async () => {
    const r = await t.gql(`{
      jq(query: ".op2023.providers_aggregation") @stats {
        op2023 { providers_aggregation @stats { _rows_count } general_payments_aggregation { _rows_count } }
      }
      transformed: jq(query: ".customers | map({id, name})") @stats { customers(order_by: [{field: "id"}], limit: 2) { id name email } }
    }`);
    expect(r.body.errors).toBeUndefined();
    const s = r.body.extensions.jq.stats;
    expect(Object.keys(s).sort()).toEqual(['compiler_time', 'data_request_time', 'execution_time', 'node_time', 'runs', 'serialization_time', 'transformed']);
    for (const k of ['compiler_time', 'data_request_time', 'execution_time', 'node_time', 'serialization_time']) expect(s[k]).toMatch(DURATION);
    expect(s.runs).toBe(1);
    expect(s.transformed).toBe(1);
    expect(nanos(s.execution_time)).toBeGreaterThan(0);
    expect(nanos(s.node_time)).toBeGreaterThanOrEqual(nanos(s.data_request_time) + nanos(s.execution_time));
    expect(r.body.extensions.jq.jq).toEqual({ _rows_count: 3 });
    expectFieldStats(r.body.extensions.jq.children.op2023.children.providers_aggregation.stats, 'providers_aggregation');
    expect(r.body.extensions.transformed.jq).toEqual([{ id: 1, name: 'Alfreds' }, { id: 2, name: 'Bottom Dollar' }]);
    expect(r.body.extensions.transformed.stats.runs).toBe(1);
  });

  it('use cases: @stats at several levels; a relation read by its root statement reports under the root', async () => {
    const r = await t.gql(`query @stats {
      op2023 @stats {
        providers(order_by: [{field: "id"}]) @stats { id payments(order_by: [{field: "id"}]) @stats { id amount } }
      }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.op2023.providers[0]).toEqual({ id: 1, payments: [{ id: 1, amount: 10 }, { id: 2, amount: 20.5 }] });
    expectFieldStats(r.body.extensions.children.op2023.children.providers.stats, 'providers');
    // docs/stats.md: the relation is read by its root's statement, the module only groups fields.
    expect(r.body.extensions.children.op2023.stats).toBeUndefined();
    expect(r.body.extensions.children.op2023.children.providers.children).toBeUndefined();
    expect(r.body.extensions.stats.total_time).toMatch(DURATION);
  });
});
