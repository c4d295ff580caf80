// An svc application with /mcp on a loopback port, and MCP clients of the SDK talking to it over HTTP.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { writeConfig } from '../auth/helpers/config.js';
import { CATALOGS, startApp, type TestApp, tempDir } from '../support/app.js';

export const ADMIN = { 'x-svc-secret-key': 'the-secret' };

export interface McpApp {
  readonly t: TestApp;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The shop example plus a DuckDB source with a view that runs for minutes (QUERY_TIMEOUT cuts it),
 * static API keys for an admin, a restricted analyst and a role denied /mcp by an `_endpoints` row.
 */
export async function startMcpApp(env: Record<string, string> = {}): Promise<McpApp> {
  const root = join(tempDir(), 'catalogs');
  mkdirSync(join(root, 'slow'), { recursive: true });
  cpSync(join(CATALOGS, 'shop'), join(root, 'shop'), { recursive: true });
  writeFileSync(join(root, 'slow', 'source.yaml'), 'type: duckdb\npath: ":memory:"\nprefix: slow\n');
  writeFileSync(join(root, 'slow', 'schema.graphql'),
    '"""A count that takes minutes"""\ntype crunch @view(name: "crunch", sql: "SELECT count(*) AS n FROM range(1000000) a, range(100000) b WHERE (a.range * b.range) % 7 = 3") { n: BigInt }\n');
  const config = writeConfig({
    auth: { api_keys: { enabled: true, managed: true, keys: [
      { key: 'admin-key', role: 'admin', username: 'ada' },
      { key: 'analyst-key', role: 'analyst', username: 'bob' },
      { key: 'blocked-key', role: 'blocked', username: 'eve' },
      // docs/mcp.md's walk-through: the built-in readonly role.
      { key: 'agent-key', role: 'readonly', username: 'assistant' },
    ] } },
  });
  const t = await startApp({ MCP_ENABLED: 'true', CATALOGS_DIR: root, CONFIG_FILE: config, SECRET_KEY: 'the-secret', ALLOWED_ANONYMOUS: 'false', QUERY_TIMEOUT: '500ms', ...env });
  // analyst: reads the shop, but no order at all and no customer's e-mail; writes nothing.
  const r = await t.gql(`mutation { core {
    a: insert_roles(data: {name: "analyst", description: "reads customers, not orders", permissions: [
      {type_name: "data-object:query", field_name: "shop_orders", disabled: true},
      {type_name: "shop_customers", field_name: "email", hidden: true},
      {type_name: "Mutation", field_name: "*", disabled: true}
    ]}) { name }
    b: insert_roles(data: {name: "blocked", description: "not /mcp", permissions: [{type_name: "_endpoints", field_name: "/mcp", disabled: true}]}) { name }
  } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return { t, url: `http://127.0.0.1:${port}/mcp`, close: () => t.close() };
}

/** An MCP client of the SDK connected with `Authorization: Bearer <key>`. */
export async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

/** A tool's whole answer as text (every content item), with its error flag. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; parts: string[] }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const parts = r.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c)));
  return { text: parts.join('\n'), isError: !!r.isError, parts };
}

/** The first part of a successful answer, parsed. */
export async function callJson(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await call(client, name, args);
  expect(r.isError, r.text).toBe(false);
  return JSON.parse(r.parts[0]!);
}
