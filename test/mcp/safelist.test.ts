// /mcp under PERSISTED_QUERIES_ONLY: the query tool runs only the operations of the manifest, as
// /query does (it goes through the same Apollo server and its safelist), and refuses a jq program
// (which could run any query through querySvc), naming the argument.
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../auth/helpers/config.js';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { call, callJson, connect } from './helpers.js';

const LISTED = '{ shop_tags(order_by: [{field: "id"}], limit: 2) { id name } }';
let t: TestApp;
let client: Client;

beforeAll(async () => {
  const manifest = join(tempDir(), 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'tags', body: LISTED, name: 'tags', type: 'query' }] }));
  const config = writeConfig({ auth: { api_keys: { enabled: true, keys: [{ key: 'admin-key', role: 'admin', username: 'ada' }] } } });
  t = await startApp({ MCP_ENABLED: 'true', PERSISTED_QUERIES_ONLY: 'true', PERSISTED_QUERIES_MANIFEST: manifest, CONFIG_FILE: config, ALLOWED_ANONYMOUS: 'false' });
  await t.app.listen(0, '127.0.0.1');
  client = await connect(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/mcp`, 'admin-key');
}, 60_000);

afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe('PERSISTED_QUERIES_ONLY', () => {
  it('runs a listed operation and refuses any other, and any jq program', async () => {
    expect(await callJson(client, 'query', { query: LISTED })).toEqual({ shop_tags: [{ id: 1, name: 'classic' }, { id: 2, name: 'bestseller' }] });
    const other = await call(client, 'query', { query: '{ shop_customers { email } }' });
    expect(other).toMatchObject({ isError: true });
    expect(other.text).toMatch(/persisted query list/);
    const jq = await call(client, 'query', { query: LISTED, jq: '.data' });
    expect(jq).toMatchObject({ isError: true });
    expect(jq.text).toMatch(/^jq: not accepted: .*PERSISTED_QUERIES_ONLY/);
  });
});
