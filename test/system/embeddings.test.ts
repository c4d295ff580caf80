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
    } finally {
      await pg.close();
      await db.drop();
    }
  }, 90_000);

  it('never shows the embedder key in core.info', async () => {
    const r = await t.gql('{ function { core { info { config { coredb { path } } } } } }');
    expect(r.text).not.toContain('emb-key-s3cret');
  });
});
