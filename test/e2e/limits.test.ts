// Bounded cost (issue 15 items 4 and 5): validation visits each fragment once, and a request beyond
// MAX_QUERY_COST, MAX_ROOT_FIELDS or MAX_ALIASES is refused before anything runs, naming the limit,
// on both dialects. The README's queries fit inside the defaults.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { type Dialects, startDialects } from '../support/dialects.js';
import { settingsShape } from '../../src/config/schema.js';
import { scanDocument } from '../../src/pipeline/limits/cost-limit.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

const refused = async (d: Dialects['all'][number], query: string, variables: Record<string, unknown> | undefined, pattern: RegExp) => {
  const before = d.statements.length;
  const r = await d.app.gql(query, variables);
  expect(r.status, `${d.name}: ${r.text.slice(0, 300)}`).toBe(200);
  expect(r.body.data, d.name).toBeNull();
  expect(r.body.errors, d.name).toHaveLength(1);
  expect(r.body.errors[0].extensions, d.name).toEqual({ code: 'BAD_USER_INPUT' });
  expect(r.body.errors[0].message, d.name).toMatch(pattern);
  // Refused before anything ran.
  expect(d.statements.length, d.name).toBe(before);
};

describe('a fragment bomb', () => {
  it('is validated in linear time: 40 levels of fragments that each spread the next twice', async () => {
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => (i === levels - 1 ? `fragment F${i} on Query { shop_tags(order_by: [{field: "id"}], limit: 1) { id } }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`));
    for (const d of dialects.all) {
      const r = await d.app.gql(`query { ...F0 }\n${fragments.join('\n')}`);
      expect(r.body, `${d.name}: ${r.text}`).toEqual({ data: { shop_tags: [{ id: 1 }] }, extensions: {} });
    }
  });
});

describe('values nested too deep (issue 15 item 3)', () => {
  it('an _and 10,000 levels deep is BAD_USER_INPUT, in the document or in variables', async () => {
    let literal = '{id: {eq: 1}}';
    let variable: unknown = { id: { eq: 1 } };
    for (let i = 0; i < 10_000; i++) literal = `{_and: [${literal}]}`;
    // 2,000 levels in JSON (the test's own JSON.stringify recurses too).
    for (let i = 0; i < 2_000; i++) variable = { _and: [variable] };
    for (const d of dialects.all) {
      await refused(d, `{ shop_tags(filter: ${literal}) { id } }`, undefined, /^the query document nests values more than 100 levels deep/);
      // In the variables, refused while the body is read (before it is parsed): 400 as for malformed JSON, naming the variable.
      const r = await d.app.gql('query($f: shop_tags_filter) { shop_tags(filter: $f) { id } }', { f: variable });
      expect(r.status, r.text).toBe(400);
      expect(r.body.errors, r.text).toEqual([{ message: 'the request variables nest values more than 100 levels deep at variables.f (e.g. _and/_or filters); write the filter flatter', extensions: { code: 'BAD_USER_INPUT' } }]);
      // 30 levels are fine.
      const ok = await d.app.gql(`{ shop_tags(filter: ${'{_and: ['.repeat(30)}{id: {eq: 1}}${']}'.repeat(30)}) { id } }`);
      expect(ok.body.data, ok.text).toEqual({ shop_tags: [{ id: 1 }] });
    }
  });
});

describe('limits on what one request may ask for', () => {
  it('MAX_ALIASES: 5,000 root aliases', async () => {
    // Three tokens each: the 501st alias comes before the 2,001st token (MAX_TOKENS).
    const q = `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    // Refused at the 501st alias, which the error locates; the rest of the document is not read (issue 31).
    for (const d of dialects.all) {
      await refused(d, q, undefined, /^the request uses more than 500 aliases, the limit of one request \(MAX_ALIASES\)$/);
      expect((await d.app.gql(q)).body.errors[0].locations).toEqual([{ line: 1, column: q.indexOf('a500:') + 5 }]);
    }
  });

  it('MAX_ROOT_FIELDS: 150 root fields, also inside modules', async () => {
    const q = `{ ${Array.from({ length: 150 }, (_, i) => `a${i}: shop_tags_by_pk(id: 1) { id }`).join(' ')} }`;
    const inModule = `{ function { core { ${Array.from({ length: 200 }, (_, i) => `s${i}: data_source_status(name: "shop")`).join(' ')} } } }`;
    for (const d of dialects.all) {
      await refused(d, q, undefined, /^the request asks for 150 root fields, more than the limit of 100 \(MAX_ROOT_FIELDS\)$/);
      await refused(d, inModule, undefined, /MAX_ROOT_FIELDS/);
    }
  });

  it('MAX_QUERY_COST: relations fanned out under lists, literal or variable limits, long lists of values', async () => {
    const nested = '{ shop_customers(limit: 10000) { orders { items { product { order_items { order { id } } } } } } }';
    const bigLimit = 'query($n: Int) { shop_orders(limit: $n) { id items(nested_limit: $n) { line } } }';
    const manyValues = 'query($ids: [Int!]) { shop_orders(filter: {id: {in: $ids}}) { id } }';
    const literalValues = `{ shop_orders(filter: {id: {in: [${Array.from({ length: 200_000 }, (_, i) => i).join(',')}]}}) { id } }`;
    for (const d of dialects.all) {
      await refused(d, nested, undefined, /^the request has an estimated cost of 22110000, more than the limit of 10000000 \(MAX_QUERY_COST\)/);
      await refused(d, bigLimit, { n: 10_000 }, /estimated cost of 100010000,/);
      // A million values in variables: the body is over MAX_BODY_SIZE (2 MiB) and never parsed.
      const huge = await d.app.gql(manyValues, { ids: Array.from({ length: 1_000_000 }, (_, i) => i) });
      expect(huge.status, huge.text).toBe(413);
      // Written into the document, 200,000 values are refused at MAX_TOKENS before the document is parsed.
      const literal = await d.app.gql(literalValues);
      expect(literal.status).toBe(400);
      expect(literal.body.errors[0].message).toBe('the query document has more than 2000 tokens (MAX_TOKENS)');
      // The same documents within the limit run.
      const small = await d.app.gql(bigLimit, { n: 2 });
      expect(small.body.errors, small.text).toBeUndefined();
      const few = await d.app.gql(manyValues, { ids: [1, 2] });
      expect(few.body.data.shop_orders, few.text).toEqual([{ id: 1 }, { id: 2 }]);
    }
  });

  it('the README queries fit inside the default limits', async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const curl = /"query":\s*\n\s*"(.*)"\}'/.exec(readme)![1]!.replaceAll('\\"', '"');
    const big = /## What a query can do\s+(?:<!--[^\n]*-->\s+)?```graphql\n([\s\S]*?)```/.exec(readme)![1]!;
    // Also for a caller who has not signed in (in-process apps here turn ANONYMOUS_MAX_TOKENS off).
    for (const q of [curl, big]) expect(scanDocument(q).tokens).toBeLessThanOrEqual(settingsShape.ANONYMOUS_MAX_TOKENS.parse(undefined));
    for (const d of dialects.all) {
      for (const [q, v] of [[curl, undefined], [big, { since: '2025-01-01T00:00:00Z' }]] as const) {
        const r = await d.app.gql(q, v);
        expect(r.body.errors, `${d.name}: ${r.text.slice(0, 400)}`).toBeUndefined();
      }
    }
  });
});

describe('refusals under application/graphql-response+json (issue 15, GraphQL over HTTP)', () => {
  const STRICT = { accept: 'application/graphql-response+json' };
  const refusals = {
    // Short aliases: the 501st comes before the 4,001st token (the first limit crossed is the one refused).
    'MAX_ALIASES, counted before parsing': `{ ${Array.from({ length: 600 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    'nesting, before parsing': `{ shop_tags(filter: ${'{_and: ['.repeat(200)}{id: {eq: 1}}${']}'.repeat(200)}) { id } }`,
    'MAX_ROOT_FIELDS, after parsing': `{ ${Array.from({ length: 150 }, (_, i) => `a${i}: shop_tags_by_pk(id: 1) { id }`).join(' ')} }`,
  };
  it.each(Object.entries(refusals))('%s: 400 with that media type; application/json clients keep 200', async (_name, q) => {
    for (const d of dialects.all) {
      const strict = await d.app.gql(q, undefined, STRICT);
      expect(strict.status, strict.text).toBe(400);
      expect(String(strict.headers['content-type'])).toMatch(/^application\/graphql-response\+json/);
      expect(strict.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const plain = await d.app.gql(q);
      expect(plain.status, plain.text).toBe(200);
      expect(String(plain.headers['content-type'])).toMatch(/^application\/json/);
      expect(plain.body.errors[0].message).toBe(strict.body.errors[0].message);
    }
  });

  it('a document over MAX_TOKENS is a syntax error: 400 for every client (the 5,000-alias flood crosses it first)', async () => {
    const flood = `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: shop_tags { id }`).join(' ')} }`;
    for (const headers of [STRICT, {}]) {
      const r = await dialects.all[0]!.app.gql(flood, undefined, headers);
      expect(r.status, r.text).toBe(400);
      expect(r.body.errors, r.text).toEqual([{ message: 'the query document has more than 2000 tokens (MAX_TOKENS)', locations: [{ line: 1, column: expect.any(Number) }], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }]);
    }
  });

  it('a syntax error is 400 for every client', async () => {
    for (const headers of [STRICT, {}]) {
      const r = await dialects.all[0]!.app.gql('{ shop_tags { id }', undefined, headers);
      expect(r.status, r.text).toBe(400);
      expect(r.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    }
  });
});

describe('exemption by configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ SECRET_KEY: 'sk-limits', COST_LIMITS_EXEMPT: 'secret_key', MAX_ALIASES: '3', MAX_QUERY_COST: '50000' });
  }, 60_000);
  afterAll(() => t?.close());

  it('exempts SECRET_KEY callers when COST_LIMITS_EXEMPT says so, nobody else', async () => {
    const q = '{ a: shop_tags_by_pk(id: 1) { id } b: shop_tags_by_pk(id: 1) { id } c: shop_tags_by_pk(id: 1) { id } d: shop_tags_by_pk(id: 1) { id } }';
    const anonymous = await t.gql(q);
    expect(anonymous.body.errors[0].message).toMatch(/MAX_ALIASES/);
    const admin = await t.gql(q, undefined, { 'x-svc-secret-key': 'sk-limits' });
    expect(admin.body.errors, admin.text).toBeUndefined();
    expect(admin.body.data.d).toEqual({ id: 1 });
  });

  it('counts each value of a list argument, in variables too', async () => {
    const q = 'query($ids: [Int!]) { shop_tags(filter: {id: {in: $ids}}) { id } }';
    const many = await t.gql(q, { ids: Array.from({ length: 10_000 }, (_, i) => i) });
    expect(many.body.errors[0].message).toMatch(/^the request has an estimated cost of 102000, more than the limit of 50000 \(MAX_QUERY_COST\)/);
    const few = await t.gql(q, { ids: [1, 2] });
    expect(few.body.data.shop_tags).toEqual([{ id: 1 }, { id: 2 }]);
  });
});
