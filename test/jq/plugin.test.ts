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
