// svc as an Apollo Federation 2 subgraph (issue 20 item 4): its `_service { sdl }` composes with a
// second small subgraph using Apollo's composition library, and a query through an Apollo gateway
// started here joins the two, svc answering the gateway's `_entities` with one statement per type.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN = { 'x-svc-secret-key': 'k' };
const AS_GB_ONLY = { ...ADMIN, 'x-svc-role': 'gb_only', 'x-svc-user-id': '7' };

/** A second team's subgraph: reviews that point at svc's customers by key. */
const REVIEWS_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Review { id: ID! body: String! customer: shop_customers }
  type shop_customers @key(fields: "id", resolvable: false) { id: Int! }
  type Query { reviews: [Review!]! }
`;
const REVIEWS_PLUGINS = [ApolloServerPluginInlineTraceDisabled()];
const REVIEWS = [
  { id: 'r1', body: 'quick delivery', customer: { id: 1 } },
  { id: 'r2', body: 'as described', customer: { id: 2 } },
  { id: 'r3', body: 'would buy again', customer: { id: 1 } },
  { id: 'r4', body: 'a customer nobody knows', customer: { id: 999 } },
];

let svc: TestApp;
let svcUrl: string;
let reviews: ApolloServer;
let gatewayServer: ApolloServer;
let gatewayUrl: string;
const statements: string[] = [];

beforeAll(async () => {
  svc = await startApp({ FEDERATION: 'true', SECRET_KEY: 'k' });
  const role = await svc.gql(`mutation { core { insert_roles(data: {name: "gb_only", permissions: [
    {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}},
    {type_name: "shop_customers", field_name: "email", disabled: true}
  ]}) { name } } }`, undefined, ADMIN);
  expect(role.body.errors).toBeUndefined();
  await svc.app.listen(0, '127.0.0.1');
  svcUrl = `${await svc.app.getUrl()}/query`.replace('[::1]', '127.0.0.1');
  svc.runtime.executor.observe((source, sql) => source === 'shop' && statements.push(sql));
  reviews = new ApolloServer({ schema: buildSubgraphSchema({ typeDefs: parse(REVIEWS_SDL), resolvers: { Query: { reviews: () => REVIEWS } } }), plugins: REVIEWS_PLUGINS });
  const { url: reviewsUrl } = await startStandaloneServer(reviews, { listen: { port: 0, host: '127.0.0.1' } });
  // svc's subgraph SDL as it serves it, composed with the reviews subgraph.
  const sdl = (await svc.gql('{ _service { sdl } }', undefined, ADMIN)).body.data._service.sdl as string;
  const composed = composeServices([
    { name: 'svc', url: svcUrl, typeDefs: parse(sdl) },
    { name: 'reviews', url: reviewsUrl, typeDefs: parse(REVIEWS_SDL) },
  ]);
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
  gatewayServer = new ApolloServer({ gateway: new ApolloGateway({ supergraphSdl: composed.supergraphSdl }) });
  ({ url: gatewayUrl } = await startStandaloneServer(gatewayServer, { listen: { port: 0, host: '127.0.0.1' } }));
});
afterAll(async () => {
  await gatewayServer?.stop();
  await reviews?.stop();
  await svc?.close();
});

async function throughGateway(query: string): Promise<{ data?: any; errors?: any[] }> {
  const r = await fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await r.json()) as { data?: any; errors?: any[] };
}

describe('svc as a federation 2 subgraph', () => {
  it('_service { sdl } is the SDL codegen committed: @link, @key on objects with a primary key', async () => {
    const sdl = (await svc.gql('{ _service { sdl } }', undefined, ADMIN)).body.data._service.sdl as string;
    expect(sdl).toMatch(/^extend schema @link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.\d+", import: \["@key"\]\)/);
    expect(sdl).toContain('type shop_customers @key(fields: "id") {');
    expect(sdl).toContain('type shop_order_items @key(fields: "order_id line") {');
    // No primary key, no entity; the system module is not offered as entities.
    expect(sdl).toMatch(/type shop_customer_revenue \{/);
    expect(sdl).toMatch(/type core_roles \{/);
    expect(sdl).not.toMatch(/_entities|_Any|_Service/);
    const committed = readFileSync(join(ROOT, 'schema.subgraph.graphql'), 'utf8');
    expect(committed.slice(committed.indexOf('extend schema'))).toBe(sdl);
  });

  it('resolves representations in order, one statement per object type, null for a missing key', async () => {
    statements.length = 0;
    const r = await svc.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on shop_customers { id name } ... on shop_orders { id status } } }`,
      { r: [{ __typename: 'shop_customers', id: 2 }, { __typename: 'shop_orders', id: 1 }, { __typename: 'shop_customers', id: 1 }, { __typename: 'shop_customers', id: 404 }] },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data._entities).toEqual([
      { __typename: 'shop_customers', id: 2, name: 'Alan Turing' },
      { __typename: 'shop_orders', id: 1, status: expect.any(String) },
      { __typename: 'shop_customers', id: 1, name: 'Ada Lovelace' },
      null,
    ]);
    expect(statements).toHaveLength(2);
  });

  it("honours the caller's role: its row filter makes a hidden row null, a disabled field is forbidden, its SDL omits it", async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on shop_customers { id name country } } }`;
    const all = await svc.gql('{ shop_customers(order_by: [{field: "id"}]) { id country } }', undefined, ADMIN);
    const abroad = all.body.data.shop_customers.find((c: any) => c.country !== 'GB');
    const r = await svc.gql(query, { r: [{ __typename: 'shop_customers', id: 1 }, { __typename: 'shop_customers', id: abroad.id }] }, AS_GB_ONLY);
    expect(r.body.data._entities).toEqual([{ id: 1, name: 'Ada Lovelace', country: 'GB' }, null]);
    const email = await svc.gql(`query($r: [_Any!]!) { _entities(representations: $r) { ... on shop_customers { id email } } }`, { r: [{ __typename: 'shop_customers', id: 1 }] }, AS_GB_ONLY);
    expect(email.body.data._entities).toEqual([{ id: 1, email: null }]);
    expect(email.body.errors[0]).toMatchObject({ message: 'forbidden', path: ['_entities', 0, 'email'] });
    expect(email.text).not.toContain('@example.com');
    const sdl = (await svc.gql('{ _service { sdl } }', undefined, AS_GB_ONLY)).body.data._service.sdl as string;
    expect(sdl).toContain('type shop_customers @key(fields: "id") {');
    expect(sdl.slice(sdl.indexOf('type shop_customers @key'))).not.toMatch(/^type shop_customers[^}]*\bemail\b/);
  });

  it('answers _service { sdl } for a role with a disabled object, without the object (issue 31)', async () => {
    await svc.gql(`mutation { core { insert_roles(data: {name: "no_orders", permissions: [
      {type_name: "data-object:query", field_name: "shop_orders", disabled: true}
    ]}) { name } } }`, undefined, ADMIN);
    const asRole = { ...ADMIN, 'x-svc-role': 'no_orders', 'x-svc-user-id': '8' };
    const first = await svc.gql('{ _service { sdl } }', undefined, asRole);
    expect(first.body.errors, first.text).toBeUndefined();
    const sdl = first.body.data._service.sdl as string;
    expect(sdl).toContain('type shop_customers @key(fields: "id") {');
    expect(sdl).not.toMatch(/\bshop_orders\(/);
    // The same text again (computed once per role and schema version).
    expect((await svc.gql('{ _service { sdl } }', undefined, asRole)).body.data._service.sdl).toBe(sdl);
  });

  it('returns an inline trace (ftv1) to the gateway only for operations whose every field the role may see', async () => {
    const trace = { 'apollo-federation-include-trace': 'ftv1' };
    const own = await svc.gql('{ shop_customers(limit: 1) { id name } }', undefined, { ...AS_GB_ONLY, ...trace });
    expect(typeof own.body.extensions.ftv1).toBe('string');
    const denied = await svc.gql('{ shop_customers(limit: 1) { id email } }', undefined, { ...AS_GB_ONLY, ...trace });
    expect(denied.body.errors[0].message).toBe('forbidden');
    expect(denied.body.extensions.ftv1).toBeUndefined();
    const admin = await svc.gql('{ shop_customers(limit: 1) { id email } }', undefined, { ...ADMIN, ...trace });
    expect(typeof admin.body.extensions.ftv1).toBe('string');
  });

  it('refuses a representation of a type that is not an entity, naming it', async () => {
    const r = await svc.gql(`query($r: [_Any!]!) { _entities(representations: $r) { __typename } }`, { r: [{ __typename: 'shop_customer_revenue', customer_id: 1 }] });
    expect(r.body.errors[0]).toMatchObject({ message: 'representation 0: "shop_customer_revenue" is not an entity of this subgraph', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('a gateway started here joins reviews to svc customers (and their orders) in one query', async () => {
    statements.length = 0;
    const r = await throughGateway('{ reviews { body customer { id name orders(order_by: [{field: "id"}]) { id } } } }');
    expect(r.errors).toBeUndefined();
    expect(r.data.reviews.map((x: any) => [x.body, x.customer?.name ?? null])).toEqual([
      ['quick delivery', 'Ada Lovelace'], ['as described', 'Alan Turing'], ['would buy again', 'Ada Lovelace'], ['a customer nobody knows', null],
    ]);
    expect(r.data.reviews[0].customer.orders.length).toBeGreaterThan(0);
    // Four representations, one statement (relations included).
    expect(statements).toHaveLength(1);
    // svc's own root fields are served through the gateway too.
    const own = await throughGateway('{ shop_customers(filter: {id: {eq: 1}}) { name } }');
    expect(own.data).toEqual({ shop_customers: [{ name: 'Ada Lovelace' }] });
  });
});
