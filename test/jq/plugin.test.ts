// The built-in jq() field over HTTP: the served schema declares it and Apollo's response plugin
// transforms the data (SPEC §8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
const AS_NINE = { 'x-svc-secret-key': 'k', 'x-svc-role': 'admin', 'x-svc-user-id': 'u9', 'x-svc-user-name': 'nine' };

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k' });
});
afterAll(() => t.close());

async function run(query: string, variables?: Record<string, unknown>) {
  const r = await t.gql(query, variables, AS_NINE);
  expect(r.status).toBe(200);
  return r.body;
}

describe('the jq field through Apollo', () => {
  it('moves the result to extensions.jq and nulls data', async () => {
    const r = await run('{ jq(query: ".shop_tags | map(.name)") { shop_tags(order_by: [{field: "id"}]) { id name } } }');
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ jq: null });
    expect(r.extensions).toEqual({ jq: { jq: ['classic', 'bestseller', 'gadget'] } });
  });

  it('aliases, include_origin, nesting, variables and querySvc as the caller', async () => {
    const query = `query ($min: Int!) {
      kept: jq(query: ".shop_tags | length", include_origin: true) { shop_tags(filter: {id: {gte: $min}}) { id } }
      outer: jq(query: "{ids: .inner, me: (querySvc(\\"{ function { core { auth { me { user_name } } } } }\\").data.function.core.auth.me.user_name), min: $min}") {
        inner: jq(query: "[.shop_tags[].id]") { shop_tags(order_by: [{field: "id"}]) { id } }
      }
    }`;
    const r = await run(query, { min: 2 });
    expect(r.extensions).toEqual({ jq: { kept: 2, outer: { ids: [1, 2, 3], me: 'nine', min: 2 } } });
    expect(r.data).toEqual({ kept: { shop_tags: [{ id: 2 }, { id: 3 }] }, outer: null });
  });
});

describe('variables only jq reads (issue 18)', () => {
  it('a variable only a jq() program mentions is not "never used", and jq reads it as $name', async () => {
    const r = await run('query($min: Int!, $label: String) { jq(query: "{label: $label, n: (.shop_tags | length)}") { shop_tags(filter: {id: {gte: $min}}) { id } } }', { min: 2, label: 'from two' });
    expect(r).toEqual({ data: { jq: null }, extensions: { jq: { jq: { label: 'from two', n: 2 } } } });
  });

  it('a jq program given as a variable counts too', async () => {
    const r = await run('query($prog: String!, $factor: Int) { jq(query: $prog) { shop_tags { id } } }', { prog: '[.shop_tags[].id * $factor] | add', factor: 10 });
    expect(r.extensions).toEqual({ jq: { jq: 60 } });
  });

  it('a variable only the _jq variable mentions is not "never used"', async () => {
    const r = await run('query($days: Int, $max: Int!) { shop_tags(filter: {id: {lte: $max}}, order_by: [{field: "id"}]) { id } }', { days: 2, _jq: '{max: $days}' });
    expect(r).toEqual({ data: { shop_tags: [{ id: 1 }, { id: 2 }] }, extensions: {} });
  });

  it('a variable nothing reads is still refused, naming it', async () => {
    const r = await run('query($min: Int!, $unused: String) { jq(query: "{n: $min}") { shop_tags { id } } }', { min: 1 });
    expect(r).toEqual({ data: null, extensions: {}, errors: [{ message: 'Variable "$unused" is never used.', locations: [{ line: 1, column: 19 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  });

  it('one document, validated once: whether $b is used depends on each request\'s program', async () => {
    const q = 'query($prog: String!, $b: Int) { jq(query: $prog) { shop_tags { id } } }';
    expect((await run(q, { prog: '$b', b: 5 })).extensions).toEqual({ jq: { jq: 5 } });
    expect((await run(q, { prog: '1' })).errors).toEqual([{ message: 'Variable "$b" is never used.', locations: [{ line: 1, column: 23 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }]);
  });
});

describe('the _jq variable on /query', () => {
  it('is evaluated first and merged over the variables', async () => {
    const r = await run('query($min: Int!, $max: Int!) { shop_tags(filter: {id: {gte: $min, lte: $max}}, order_by: [{field: "id"}]) { id } }', { min: 9, _jq: '{min: 2, max: ([1, 3] | max)}' });
    expect(r.data).toEqual({ shop_tags: [{ id: 2 }, { id: 3 }] });
  });

  it('must yield an object', async () => {
    const r = await t.gql('{ shop_tags { id } }', { _jq: '[1]' }, AS_NINE);
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/_jq/);
  });
});
