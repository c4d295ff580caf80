// The MCP settings beyond the defaults: MCP_ALLOW_MUTATIONS (the mutate tool, for roles that may
// write), MCP_MAX_BYTES (the byte budget of an answer), and search by similarity of meaning when an
// embedder is configured (EMBEDDER_URL; an OpenAI-compatible embedder on loopback here), asked as
// the caller so a role sees only its own rows of core.catalog.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, callJson, connect, type McpApp, startMcpApp } from './helpers.js';

/** Deterministic: the text's length, its character sum mod 97, and 1. */
const embedding = (s: string) => [s.length, [...s].reduce((a, c) => a + c.charCodeAt(0), 0) % 97, 1];

let embedder: Server;
let app: McpApp;
let admin: Client;
let analyst: Client;

beforeAll(async () => {
  embedder = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const b = JSON.parse(body) as { input: string[] };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: b.input.map((s, index) => ({ index, embedding: embedding(s) })) }));
    });
  });
  await new Promise<void>((r) => embedder.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(embedder.address() as AddressInfo).port}/v1/embeddings`;
  app = await startMcpApp({ MCP_ALLOW_MUTATIONS: 'true', MCP_MAX_BYTES: '400', EMBEDDER_URL: url, EMBEDDER_MODEL: 'tiny' });
  // A role like the analyst that may also read the catalog views (similarity search as itself).
  const r = await app.t.gql(`mutation { core { insert_roles(data: {name: "reader", description: "analyst + catalog", permissions: [
    {type_name: "data-object:query", field_name: "shop_orders", disabled: true},
    {type_name: "Mutation", field_name: "*", disabled: true},
    {type_name: "data-object:query", field_name: "core_catalog_types"},
    {type_name: "data-object:query", field_name: "core_catalog_fields"},
    {type_name: "data-object:query", field_name: "core_catalog_modules"}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
  admin = await connect(app.url, 'admin-key');
  analyst = await connect(app.url, 'analyst-key');
  // The reader's key, a managed one.
  const key = await app.t.gql('mutation { core { insert_api_keys(data: {name: "reader", description: "", key: "reader-key", default_role: "reader"}) { name } } }', undefined, ADMIN);
  expect(key.body.errors).toBeUndefined();
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await analyst?.close();
  await app?.close();
  await new Promise((r) => embedder?.close(r));
});

describe('MCP_ALLOW_MUTATIONS=true', () => {
  it('offers mutate to a role that may write, not to one that may not', async () => {
    expect((await admin.listTools()).tools.map((t) => t.name)).toContain('mutate');
    expect((await analyst.listTools()).tools.map((t) => t.name)).not.toContain('mutate');
  });

  it('mutate writes as the caller; it runs mutations only', async () => {
    const r = await callJson(admin, 'mutate', { query: 'mutation($n: String!) { insert_shop_tags(data: {id: 40, name: $n}) { id name } }', variables: { n: 'from an agent' } });
    expect(r).toEqual({ insert_shop_tags: { id: 40, name: 'from an agent' } });
    expect(await callJson(admin, 'query', { query: '{ shop_tags_by_pk(id: 40) { name } }' })).toEqual({ shop_tags_by_pk: { name: 'from an agent' } });
    const q = await call(admin, 'mutate', { query: '{ shop_tags { id } }' });
    expect(q).toMatchObject({ isError: true });
    expect(q.text).toMatch(/the mutate tool runs mutations only/);
  });
});

describe('MCP_MAX_BYTES', () => {
  it('cuts an answer to the byte budget, rows first, and says so', async () => {
    const r = await call(admin, 'query', { query: '{ shop_customers(order_by: [{field: "id"}]) { id name email country created_at } }' });
    expect(r.isError).toBe(false);
    expect(Buffer.byteLength(r.parts[0]!)).toBeLessThanOrEqual(400);
    const rows = JSON.parse(r.parts[0]!).shop_customers;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(4);
    expect(r.parts[1]).toMatch(/^note: truncated: .*to stay within 400 bytes/);
  });
});

describe('search with an embedder', () => {
  let reader2: Client;
  beforeAll(async () => {
    reader2 = await connect(app.url, 'reader-key');
  });
  afterAll(async () => {
    await reader2?.close();
  });

  it('ranks by similarity from core.catalog for a caller who may read it', async () => {
    const r = await callJson(admin, 'search', { query: 'shop_orders', limit: 5 });
    expect(r.ranking).toMatch(/similarity/);
    expect(r.results.length).toBeGreaterThan(0);
    const d = r.results.map((h: { distance: number }) => h.distance);
    expect(d).toEqual([...d].sort((a: number, b: number) => a - b));
  });

  it('answers a role only its own rows, and falls back to text for a role that may not read core.catalog', async () => {
    const mine = await callJson(reader2, 'search', { query: 'shop_orders', limit: 50 });
    expect(mine.ranking).toMatch(/similarity/);
    expect(mine.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(mine)).not.toMatch(/shop_orders(?![_a-z])/);
    const adminAll = await callJson(admin, 'search', { query: 'shop_orders', limit: 50 });
    expect(JSON.stringify(adminAll)).toMatch(/shop_orders(?![_a-z])/);
    const text = await callJson(analyst, 'search', { query: 'customers' });
    expect(text.ranking).toMatch(/matching words/);
  });
});
