// Embeddings of seed 001 (EMBEDDER_URL): an OpenAI-compatible embedder on loopback fills `vec`
// of catalogs, types, fields and modules, and _schema_reindex recomputes them in batches.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/pg.js';

/** A deterministic embedding: the text's length, its character sum mod 97, and 1. */
const embedding = (s: string) => [s.length, [...s].reduce((a, c) => a + c.charCodeAt(0), 0) % 97, 1];

let t: TestApp;
let server: Server;
const calls: { auth: string | undefined; model: unknown; input: string[] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const b = JSON.parse(body) as { model: unknown; input: string[] };
      calls.push({ auth: req.headers.authorization, model: b.model, input: b.input });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: b.input.map((s, index) => ({ object: 'embedding', index, embedding: embedding(s) })), model: b.model }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
  t = await startApp({ EMBEDDER_URL: url, EMBEDDER_MODEL: 'tiny', EMBEDDER_API_KEY: 'emb-key-s3cret' });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

const count = async (table: string, where = 'TRUE') =>
  Number((await t.runtime.core.runtime.rows(`SELECT count(*) AS n FROM ${t.runtime.core.t(table)} WHERE ${where}`, []))[0]!.n);

describe('embeddings', () => {
  it('fills vec of every catalog, module, type and field with the embedder\'s answers', async () => {
    for (const table of ['_schema_catalogs', '_schema_modules', '_schema_types', '_schema_fields']) {
      expect([table, await count(table, 'vec IS NULL')]).toEqual([table, 0]);
      expect(await count(table)).toBeGreaterThan(0);
    }
    const r = await t.gql('{ core { catalog { types_by_pk(name: "shop_orders") { name description vec } } } }');
    expect(r.body.errors).toBeUndefined();
    const ty = r.body.data.core.catalog.types_by_pk;
    expect(ty.vec).toEqual(embedding([ty.name, ty.description].filter(Boolean).join('\n')));
    expect(calls[0]).toMatchObject({ auth: 'Bearer emb-key-s3cret', model: 'tiny' });
    expect(Math.max(...calls.map((c) => c.input.length))).toBeLessThanOrEqual(50);
  });

  it('recomputes one catalog in batches of batch_size with _schema_reindex', async () => {
    const before = calls.length;
    const r = await t.gql('mutation { function { core { _schema_reindex(name: "shop", batch_size: 7) { success affected_rows } } } }');
    expect(r.body.errors).toBeUndefined();
    const shop = (await count('_schema_types', "catalog = 'shop'")) + (await count('_schema_fields', "catalog = 'shop'")) + 1;
    expect(r.body.data.function.core._schema_reindex).toEqual({ success: true, affected_rows: shop });
    const made = calls.slice(before);
    expect(made.every((c) => c.input.length <= 7)).toBe(true);
    expect(made.reduce((a, c) => a + c.input.length, 0)).toBe(shop);
    const bad = await t.gql('mutation { function { core { _schema_reindex(batch_size: 0) { success } } } }');
    expect(bad.body.errors[0].message).toBe('batch_size must be from 1 to 2048, not 0');
  });

  it('stores vectors in a PostgreSQL core database too', async () => {
    const db = await createTestDatabase('svc_emb');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
    const pg = await startApp({ EMBEDDER_URL: url, EMBEDDER_MODEL: 'tiny', CORE_DB_PATH: db.url });
    try {
      const r = await pg.gql('{ core { catalog { types_by_pk(name: "shop_orders") { name description vec } } } }');
      expect(r.body.errors).toBeUndefined();
      const ty = r.body.data.core.catalog.types_by_pk;
      expect(ty.vec).toEqual(embedding([ty.name, ty.description].filter(Boolean).join('\n')));
      const near = await pg.gql('{ core { catalog { types(args: {query: "shop_orders"}, order_by: [{field: "distance"}], limit: 3) { name distance } } } }');
      expect(near.body.errors).toBeUndefined();
      const d = near.body.data.core.catalog.types.map((x: { distance: number }) => x.distance);
      expect(d.every((x: unknown) => typeof x === 'number')).toBe(true);
      expect(d).toEqual([...d].sort((a: number, b: number) => a - b));
    } finally {
      await pg.close();
      await db.drop();
    }
  }, 90_000);

  it('orders the catalog views by distance to a query text', async () => {
    const text = 'shop_orders';
    const q = embedding(text);
    const cosine = (v: number[]) => 1 - v.reduce((a, x, i) => a + x * q[i]!, 0) / (Math.hypot(...v) * Math.hypot(...q));
    const before = calls.length;
    const r = await t.gql(`query($q: String) { core { catalog {
      types(args: {query: $q}, order_by: [{field: "distance"}, {field: "name"}], limit: 5) { name vec distance }
      fields(args: {query: $q}, order_by: [{field: "distance"}], limit: 3) { type_name name distance }
      modules(args: {query: $q}, order_by: [{field: "distance"}], limit: 2) { name distance }
      catalogs(args: {query: $q}, order_by: [{field: "distance"}]) { name distance }
    } } }`, { q: text });
    expect(r.body.errors).toBeUndefined();
    const c = r.body.data.core.catalog;
    // One embedder call for the four views: the same text is embedded once.
    expect(calls.length - before).toBe(1);
    expect(calls.at(-1)!.input).toEqual([text]);
    const all = await t.gql('{ core { catalog { types(limit: 100000) { name vec } } } }');
    const want = all.body.data.core.catalog.types.map((x: { name: string; vec: number[] }) => ({ name: x.name, d: cosine(x.vec) }))
      .sort((a: { name: string; d: number }, b: { name: string; d: number }) => a.d - b.d || (a.name < b.name ? -1 : 1)).slice(0, 5);
    expect(c.types.map((x: { name: string }) => x.name)).toEqual(want.map((x: { name: string }) => x.name));
    for (const [i, x] of c.types.entries()) expect(x.distance).toBeCloseTo(want[i].d, 5);
    for (const list of [c.fields, c.modules, c.catalogs]) {
      const d = list.map((x: { distance: number }) => x.distance);
      expect(d).toEqual([...d].sort((a, b) => a - b));
    }
    // Without a query the distance is null and nothing is embedded.
    const plain = await t.gql('{ core { catalog { types(limit: 1) { name distance } } } }');
    expect(plain.body.data.core.catalog.types[0].distance).toBeNull();
  });

  it('never shows the embedder key in core.info', async () => {
    const r = await t.gql('{ function { core { info { config { coredb { path } } } } } }');
    expect(r.text).not.toContain('emb-key-s3cret');
  });
});
