// applyJqFields (the built-in jq() field, seed 000 "Built-in jq query") on real GraphQL results, and
// applyJqVariable (seed 000 "_jq variable computation"). The jq field is not in the schema yet
// (src/jq/wiring.md), so each result is built from what /query answers for the wrapped selection.
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JqContext } from '../../src/jq/context.js';
import { JqEngine } from '../../src/jq/engine.js';
import { applyJqFields, type JqFieldsResult } from '../../src/jq/fields.js';
import { applyJqVariable, applyJqVariableToRequest } from '../../src/jq/variables.js';
import { PublicError } from '../../src/shared/errors.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
const engine = new JqEngine({ timeoutMs: 5000, memoryMb: 128, threads: 2, maxPasses: 16 });
const context: JqContext = { identity: { role: 'admin', userId: 'u1', userName: 'root', authType: 'apiKey' }, timezone: 'Europe/Berlin', now: new Date('2024-06-15T14:30:45Z') };
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await engine.close();
  await t.close();
});

const TAGS = 'shop_tags(order_by: [{field: "id"}]) { id name }';

/** The data /query gives for a selection (what a jq field's selection resolves to). */
async function data(selection: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await t.gql(selection.includes('$id') ? `query ($id: Int = 1) { ${selection} }` : `{ ${selection} }`, variables);
  expect(r.body.errors).toBeUndefined();
  return r.body.data;
}

async function apply(query: string, result: JqFieldsResult, variables?: Record<string, unknown>): Promise<JqFieldsResult> {
  await applyJqFields({ result, document: parse(query), variables, engine, context });
  return result;
}

describe('jq fields', () => {
  it('runs on the data of its selection; the result is at extensions.jq.jq and data.jq is null', async () => {
    const inner = await data(TAGS);
    const result = await apply(`{ jq(query: "[.shop_tags[].name] | join(\\",\\")") { ${TAGS} } }`, { data: { jq: inner }, extensions: {} });
    expect(result).toEqual({ data: { jq: null }, extensions: { jq: { jq: 'classic,bestseller,gadget' } } });
  });

  it('an alias names the result; include_origin keeps the selection data; other fields stay', async () => {
    const inner = await data(TAGS);
    const one = await data('shop_tags_by_pk(id: 1) { name }');
    const query = `{ names: jq(query: ".shop_tags | map(.name)", include_origin: true) { ${TAGS} } count: jq(query: ".shop_tags | length") { ${TAGS} } shop_tags_by_pk(id: 1) { name } }`;
    const result = await apply(query, { data: { names: inner, count: inner, ...one } });
    expect(result.extensions).toEqual({ jq: { names: ['classic', 'bestseller', 'gadget'], count: 3 } });
    expect(result.data).toEqual({ names: inner, count: null, shop_tags_by_pk: { name: 'classic' } });
  });

  it('sees only data: errors and extensions of the response are not its input', async () => {
    const inner = await data(TAGS);
    const result = await apply(`{ jq(query: "keys") { ${TAGS} } }`, { data: { jq: inner }, errors: [{ message: 'elsewhere' }], extensions: { other: 1 } });
    expect(result.extensions).toEqual({ other: 1, jq: { jq: ['shop_tags'] } });
    expect(result.errors).toEqual([{ message: 'elsewhere' }]);
  });

  it('nested jq fields chain: the inner result is the outer input under the inner name', async () => {
    const inner = await data(TAGS);
    const query = `{ outer: jq(query: "{n: (.inner | length), first: .inner[0], other: (.shop_tags_by_pk.name)}") {
      inner: jq(query: ".shop_tags | map(.name)") { ${TAGS} }
      shop_tags_by_pk(id: 2) { name } } }`;
    const result = await apply(query, { data: { outer: { inner, shop_tags_by_pk: { name: 'bestseller' } } } });
    expect(result.extensions).toEqual({ jq: { outer: { n: 3, first: 'classic', other: 'bestseller' } } });
    expect(result.data).toEqual({ outer: null });
  });

  it('binds the operation variables as $name with their JSON types and defaults; fragments work', async () => {
    const inner = await data(TAGS);
    const query = `query Q($min: Int!, $words: [String!], $q: String = ".shop_tags | map(select(.id >= $min)) | length") {
      ...F a: jq(query: $q) { ${TAGS} } }
      fragment F on Query { b: jq(query: "[$min, $words]") { ${TAGS} } }`;
    const result = await apply(query, { data: { a: inner, b: inner } }, { min: 2, words: ['x', 'y'] });
    expect(result.extensions).toEqual({ jq: { a: 2, b: [2, ['x', 'y']] } });
  });

  it('a failing expression gives an error at the field path and a null result; custom functions work', async () => {
    const inner = await data(TAGS);
    const query = `{ bad: jq(query: ".shop_tags | error(\\"nope\\")") { ${TAGS} } good: jq(query: "localTime") { ${TAGS} } }`;
    const result = await apply(query, { data: { bad: inner, good: inner } });
    expect(result.extensions).toEqual({ jq: { bad: null, good: '2024-06-15T16:30:45+02:00' } });
    expect(result.errors).toEqual([{ message: 'jq error: nope', path: ['bad'], extensions: { code: 'JQ_ERROR' } }]);
  });

  it('leaves results without jq fields, mutations and skipped fields alone', async () => {
    const plain = { data: await data(TAGS) };
    expect(await apply(`{ ${TAGS} }`, structuredClone(plain))).toEqual(plain);
    const skipped = await apply(`{ jq(query: ".") @skip(if: true) { ${TAGS} } shop_tags_by_pk(id: 1) { name } }`, { data: { shop_tags_by_pk: { name: 'classic' } } });
    expect(skipped).toEqual({ data: { shop_tags_by_pk: { name: 'classic' } } });
  });
});

describe('the _jq variable', () => {
  it('is evaluated with null input; its object is merged over the variables and _jq removed', async () => {
    const out = await applyJqVariable({ a: 1, b: 2, _jq: '{b: 20, c: [., $a]}' }, engine, context);
    expect(out).toEqual({ a: 1, b: 20, c: [null, 1] });
  });

  it('can use the custom functions', async () => {
    const out = await applyJqVariable({ _jq: '{from: (localTime | timeAdd("-7d") | roundTime("day")), who: authInfo.userName}' }, engine, context);
    expect(out).toEqual({ from: '2024-06-08T00:00:00+02:00', who: 'root' });
  });

  it('feeds a real query', async () => {
    const variables = await applyJqVariable({ _jq: '{id: (1 + 2)}' }, engine, context);
    expect(await data('shop_tags_by_pk(id: $id) { name }', variables ?? undefined)).toEqual({ shop_tags_by_pk: { name: 'gadget' } });
  });

  it('leaves variables without _jq as they are', async () => {
    const v = { a: 1 };
    expect(await applyJqVariable(v, engine, context)).toBe(v);
    expect(await applyJqVariable(undefined, engine, context)).toBeUndefined();
  });

  it.each([
    [{ _jq: '[1, 2]' }, /must yield one object .* got an array/],
    [{ _jq: '1, 2' }, /got 2 results/],
    [{ _jq: 'null' }, /got null/],
    [{ _jq: '{' }, /_jq: invalid jq expression/],
    [{ _jq: 'error("no")' }, /_jq: jq error: no/],
    [{ _jq: 42 }, /_jq must be a string/],
  ])('fails the request (400) for %j', async (variables, message) => {
    const e = await applyJqVariable(variables as Record<string, unknown>, engine, context).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(PublicError);
    expect((e as PublicError).status).toBe(400);
    expect((e as PublicError).message).toMatch(message);
  });

  it('rewrites a POST body or a GET variables parameter, and leaves requests without _jq alone', async () => {
    const post = await applyJqVariableToRequest({ method: 'POST', body: { query: 'q', variables: { a: 1, _jq: '{b: ($a + 1)}' } }, search: '' }, engine, context);
    expect(post).toEqual({ body: { query: 'q', variables: { a: 1, b: 2 } }, search: '', program: '{b: ($a + 1)}' });
    const search = `?query=${encodeURIComponent('{ x }')}&variables=${encodeURIComponent(JSON.stringify({ _jq: '{id: 3}' }))}`;
    const get = await applyJqVariableToRequest({ method: 'GET', body: undefined, search }, engine, context);
    const params = new URLSearchParams(get.search);
    expect(params.get('query')).toBe('{ x }');
    expect(JSON.parse(params.get('variables')!)).toEqual({ id: 3 });
    const plain = { method: 'POST', body: { query: 'q', variables: { a: 1 } }, search: '?x=1' };
    expect(await applyJqVariableToRequest(plain, engine, context)).toEqual({ body: plain.body, search: '?x=1' });
  });
});
