// jqFieldsPlugin in a real Apollo Server over the service's schema, extended with the jq field the
// way src/jq/wiring.md asks the schema to declare it: the whole path of the built-in jq query.
import { ApolloServer } from '@apollo/server';
import { extendSchema, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestContext } from '../../src/executor/request-context.js';
import { jqFieldsPlugin } from '../../src/jq/apollo-plugin.js';
import { JqEngine } from '../../src/jq/engine.js';
import { byResponseKey } from '../../src/schema/resolvers.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
let server: ApolloServer<RequestContext>;
const engine = new JqEngine({ timeoutMs: 5000, memoryMb: 128, threads: 2, maxPasses: 16 });
const identity = { role: 'admin', userId: 'u9', userName: 'nine', authType: 'apiKey' };

beforeAll(async () => {
  t = await startApp();
  const schema = extendSchema(t.runtime.schema.current.schema, parse('extend type Query { jq(query: String!, include_origin: Boolean = false): Query }'));
  schema.getQueryType()!.getFields().jq!.resolve = () => ({});
  server = new ApolloServer<RequestContext>({
    schema,
    fieldResolver: byResponseKey,
    plugins: [jqFieldsPlugin({ engine, schemas: t.runtime.schema, writes: t.runtime.writes, permissions: t.runtime.permissions })],
  });
  await server.start();
});
afterAll(async () => {
  await server.stop();
  await engine.close();
  await t.close();
});

async function run(query: string, variables?: Record<string, unknown>) {
  const r = await server.executeOperation({ query, variables }, { contextValue: new RequestContext(identity) });
  if (r.body.kind !== 'single') throw new Error('expected a single result');
  return r.body.singleResult;
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
