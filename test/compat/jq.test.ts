// hugr's jq pages (issue 32): "JQ Transformations" (the jq() field, POST /jq-query, variables, `_jq`,
// queryHugr -> querySvc) and "Custom JQ Functions", on the northwind fixture (test/compat/northwind).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startNorthwind } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startNorthwind();
}, 60_000);
afterAll(() => t?.close());

const jqQuery = (body: unknown, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: '/jq-query', payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

/** The value of a jq program on the custom functions page, run through /jq-query. */
async function jqValue(program: string): Promise<unknown> {
  const r = await jqQuery({ jq: program, query: { query: '{ __typename }' } });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

describe('docs/5-graphql/4-jq-transformations.md', () => {
  it('the jq() field: extraction, filtering and restructuring; results in extensions.jq, data.jq null', async () => {
    const r = await t.gql(`{
      jq(query: ".customers | map({id, name})") { customers(order_by: [{field: "id"}], limit: 2) { id name email } }
      completed: jq(query: ".orders | map(select(.status == \\"completed\\"))") { orders(order_by: [{field: "id"}]) { id status total } }
      counts: jq(query: ".customers | map({customer_name: .name, order_count: (.orders | length)})") { customers(order_by: [{field: "id"}]) { id name orders { id total } } }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ jq: null, completed: null, counts: null });
    expect(r.body.extensions.jq).toEqual({
      jq: [{ id: 1, name: 'Alfreds' }, { id: 2, name: 'Bottom Dollar' }],
      completed: [{ id: 1, status: 'completed', total: 225 }, { id: 3, status: 'completed', total: 194.7 }],
      counts: [
        { customer_name: 'Alfreds', order_count: 2 }, { customer_name: 'Bottom Dollar', order_count: 1 },
        { customer_name: 'Chop-suey', order_count: 1 }, { customer_name: 'Du monde', order_count: 0 },
      ],
    });
  });

  it('include_origin keeps the selection in data; aliases name the result; an object result stays an object', async () => {
    const r = await t.gql(`{
      jq(query: ".customers | length", include_origin: true) { customers(filter: {country: {eq: "Canada"}}) { id name } }
      customerCount: jq(query: ".customers | length") { customers { id } }
      stats: jq(query: "{total: .products | length, in_stock: .products | map(select(.in_stock)) | length}") { products { id in_stock } }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ jq: { customers: [{ id: 2, name: 'Bottom Dollar' }] }, customerCount: null, stats: null });
    expect(r.body.extensions.jq).toEqual({ jq: 1, customerCount: 4, stats: { total: 4, in_stock: 2 } });
  });

  it('hierarchical transformations: an inner jq result is the outer program\'s input under its name', async () => {
    const r = await t.gql(`{
      jq(query: ".result | group_by(.currency) | map({currency: .[0].currency, count: length})") {
        result: jq(query: ".products | map({id, name, currency, price})") { products(order_by: [{field: "id"}]) { id name currency price sku } }
      }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.extensions.jq).toEqual({ jq: [{ currency: 'EUR', count: 1 }, { currency: 'USD', count: 3 }] });
  });

  it('GraphQL variables are $name in jq programs', async () => {
    const r = await t.gql(`query ($minTotal: Float!, $includeDetails: Boolean!) {
      big: jq(query: ".orders | map(select(.total >= $minTotal)) | map(.id)") { orders(order_by: [{field: "id"}]) { id total } }
      shape: jq(query: "if $includeDetails then .customers else .customers | map({id, name}) end") { customers(filter: {id: {eq: 4}}) { id name email phone } }
    }`, { minTotal: 100, includeDetails: false });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.extensions.jq).toEqual({ big: [1, 3], shape: [{ id: 4, name: 'Du monde' }] });
  });

  it('POST /jq-query: the whole response is the input, the result is the body; variables; errors reach the program', async () => {
    const basic = await jqQuery({ jq: '.data.customers | map({id, name})', query: { query: '{ customers(order_by: [{field: "id"}], limit: 2) { id name email } }' } });
    expect(basic.status).toBe(200);
    expect(basic.body).toEqual([{ id: 1, name: 'Alfreds' }, { id: 2, name: 'Bottom Dollar' }]);
    const vars = await jqQuery({
      jq: '.data.customers | map(select(.country == $country)) | map(.name)',
      query: { query: 'query($country: String!) { customers(order_by: [{field: "id"}]) { id name country } }', variables: { country: 'Germany' } },
    });
    expect(vars.body).toEqual(['Alfreds']);
    const errors = await jqQuery({ jq: 'if .errors then {error: (.errors | map(.message))} else .data end', query: { query: '{ customers { id nickname } }' } });
    expect(errors.status).toBe(200);
    expect(errors.body.error[0]).toMatch(/nickname/);
    const bad = await jqQuery({ jq: '.data | map(', query: { query: '{ customers { id } }' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTruthy();
  });

  it('POST /jq-query with cache headers (X-Svc-Cache*: TTL as seconds or a duration, key, tags, invalidate)', async () => {
    const body = { jq: '.data | {total_customers: .customers_aggregation._rows_count, total_orders: .orders_aggregation._rows_count}', query: { query: '{ customers_aggregation { _rows_count } orders_aggregation { _rows_count } }' } };
    const r = await jqQuery(body, { 'x-svc-cache': '5m', 'x-svc-cache-key': 'dashboard:daily-stats', 'x-svc-cache-tags': 'dashboard,analytics' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ total_customers: 4, total_orders: 4 });
    const again = await jqQuery(body, { 'x-svc-cache': '300', 'x-svc-cache-key': 'dashboard:daily-stats', 'x-svc-cache-invalidate': 'true' });
    expect(again.body).toEqual({ total_customers: 4, total_orders: 4 });
    const wrong = await jqQuery(body, { 'x-svc-cache': 'soon' });
    expect(wrong.status).toBe(400);
  });

  it('the _jq variable computes variables before parsing: its keys override, others are kept', async () => {
    const r = await t.gql(
      'query ($from: Timestamp!, $limit: Int!, $status: String!) { orders(filter: {order_date: {gte: $from}, status: {eq: $status}}, order_by: [{field: "id"}], limit: $limit) { id } }',
      { _jq: '{from: ("2024-02-15T10:20:00Z" | roundTime("day") | timeAdd("-7d")), limit: 100}', limit: 1, status: 'completed' },
    );
    expect(r.body.errors).toBeUndefined();
    // from = 2024-02-08: orders 3 (completed, 02-20); limit overridden to 100.
    expect(r.body.data.orders).toEqual([{ id: 3 }]);
    const bad = await t.gql('query ($x: Int) { customers(limit: $x) { id } }', { _jq: '[1, 2]' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toMatch(/^_jq:/);
  });

  it('queryHugr (querySvc here) runs GraphQL from inside a program, with variables', async () => {
    const r = await t.gql(`{
      jq(query: ".customers | map(. + {order_count: (querySvc(\\"query($cid: BigInt!) { orders(filter: {customer_id: {eq: $cid}}) { id } }\\"; {cid: .id}).data.orders | length)})") {
        customers(order_by: [{field: "id"}], limit: 2) { id name }
      }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.extensions.jq.jq).toEqual([{ id: 1, name: 'Alfreds', order_count: 2 }, { id: 2, name: 'Bottom Dollar', order_count: 1 }]);
    const total = await jqQuery({ jq: '{customers: (.data.customers | length), total_orders: querySvc("{ orders_aggregation { _rows_count } }").data.orders_aggregation._rows_count}', query: { query: '{ customers { id } }' } });
    expect(total.body).toEqual({ customers: 4, total_orders: 4 });
  });
});

describe('docs/5-graphql/5-jq-custom-functions.md', () => {
  it('unixTime and fromUnixTime (with a zone, with fractions)', async () => {
    // The page pairs 2024-06-15T14:30:45Z with 1718457045, which is 13:10:45Z; the right number is 1718461845.
    expect(await jqValue('"2024-06-15T14:30:45Z" | unixTime')).toBe(1718461845);
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("day"; "UTC") | unixTime')).toBe(1718409600);
    expect(await jqValue('1718461845 | fromUnixTime')).toBe('2024-06-15T14:30:45Z');
    expect(await jqValue('1718461845 | fromUnixTime("America/New_York")')).toBe('2024-06-15T10:30:45-04:00');
    expect(await jqValue('1718461845.5 | fromUnixTime')).toBe('2024-06-15T14:30:45.5Z');
    expect(await jqValue('1718461845 | fromUnixTime("Europe/Berlin") | datePart("hour"; "Europe/Berlin")')).toBe(16);
    expect(typeof (await jqValue('null | unixTime'))).toBe('number');
  });

  it('roundTime by named periods and durations; timeAdd', async () => {
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("day")')).toBe('2024-06-15T00:00:00Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("month"; "UTC")')).toBe('2024-06-01T00:00:00Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("15m")')).toBe('2024-06-15T14:30:00Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | timeAdd("2h")')).toBe('2024-06-15T16:30:45Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | timeAdd("-30m"; "UTC")')).toBe('2024-06-15T14:00:45Z');
  });

  it('datePart, and chains of time functions', async () => {
    expect(await jqValue('"2024-06-15T14:30:45Z" | datePart("hour")')).toBe(14);
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("day") | timeAdd("9h") | {hour: datePart("hour"), day: datePart("day")}')).toEqual({ hour: 9, day: 15 });
    expect(await jqValue('utcTime | roundTime("year"; "UTC") | {month: datePart("month"; "UTC"), day: datePart("day"; "UTC")}')).toEqual({ month: 1, day: 1 });
    expect(await jqValue('utcTime | test("Z$")')).toBe(true);
  });

  it('hugr\'s unit names: plurals and weekdays for roundTime; weekday numbered 1 (Monday) to 7 (Sunday)', async () => {
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("monday")')).toBe('2024-06-10T00:00:00Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("saturday")')).toBe('2024-06-15T00:00:00Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("hours")')).toBe('2024-06-15T14:00:00Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | roundTime("months"; "UTC")')).toBe('2024-06-01T00:00:00Z');
    expect(await jqValue('"2024-06-15T14:30:45Z" | datePart("weekday")')).toBe(6);
    expect(await jqValue('"2024-06-16T10:00:00Z" | datePart("weekday")')).toBe(7);
    expect(await jqValue('"2024-06-17T10:00:00Z" | datePart("weekday")')).toBe(1);
  });

  it('authInfo: {userId, userName, role} of the caller (authentication off: the anonymous caller with the anonymous role)', async () => {
    expect(await jqValue('authInfo')).toEqual({ userId: null, userName: 'anonymous', role: 'admin' });
    expect(await jqValue('if authInfo then "Hello, " + authInfo.userName else "Anonymous" end')).toBe('Hello, anonymous');
  });
});
