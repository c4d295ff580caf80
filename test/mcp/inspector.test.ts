// The MCP Inspector's command-line client (@modelcontextprotocol/inspector-cli, the CLI of the
// Inspector, pinned) against /mcp on loopback: it lists the tools, the resource and the prompts
// and calls every tool, as an admin and as a restricted role, the way a developer checks a server.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpApp, startMcpApp } from './helpers.js';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');

let app: McpApp;

beforeAll(async () => {
  app = await startMcpApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** One Inspector CLI run; its JSON output. */
async function inspector(key: string, ...args: string[]): Promise<any> {
  // The CLI reads its own package.json relative to the working directory: run it from its folder.
  const { stdout } = await run(process.execPath, [CLI, app.url, '--transport', 'http', '--header', `Authorization: Bearer ${key}`, ...args], { cwd: dirname(CLI), timeout: 30_000 });
  return JSON.parse(stdout);
}

const tool = async (key: string, name: string, args: Record<string, string>) => {
  const out = await inspector(key, '--method', 'tools/call', '--tool-name', name, ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]));
  return { isError: !!out.isError, text: (out.content as { text: string }[]).map((c) => c.text).join('\n') };
};

describe('MCP Inspector CLI', () => {
  it('lists the tools, the resource and the prompts', async () => {
    const { tools } = await inspector('admin-key', '--method', 'tools/list');
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(['describe', 'field_values', 'query', 'search', 'validate']);
    const { resources } = await inspector('admin-key', '--method', 'resources/list');
    expect(resources[0].uri).toBe('svc://guide');
    const guide = await inspector('admin-key', '--method', 'resources/read', '--uri', 'svc://guide');
    expect(guide.contents[0].text).toMatch(/^# Querying svc/);
    const { prompts } = await inspector('admin-key', '--method', 'prompts/list');
    expect(prompts.map((p: { name: string }) => p.name).sort()).toEqual(['analyze', 'discover']);
  }, 120_000);

  it('calls every tool', async () => {
    const found = await tool('admin-key', 'search', { query: 'people who buy things' });
    expect(JSON.parse(found.text).results[0].name).toBe('shop_customers');
    const described = await tool('admin-key', 'describe', { name: 'shop_customers' });
    expect(JSON.parse(described.text).example).toMatch(/shop_customers\(limit: 5\)/);
    const values = await tool('admin-key', 'field_values', { object: 'shop_customers', field: 'country' });
    expect(JSON.parse(values.text).values[0]).toEqual({ value: 'GB', count: 2 });
    const q = await tool('admin-key', 'query', { query: '{ shop_customers(filter: {country: {eq: "GB"}}) { name } }', jq: '[.data.shop_customers[].name] | sort' });
    expect(JSON.parse(q.text)).toEqual(['Ada Lovelace', 'Alan Turing']);
    const v = await tool('admin-key', 'validate', { query: '{ shop_customers { nme } }' });
    expect(v).toMatchObject({ isError: true });
    expect(v.text).toMatch(/Did you mean "name"\?/);
  }, 120_000);

  it('shows a restricted role only its own', async () => {
    const d = await tool('analyst-key', 'describe', { name: 'shop_customers' });
    expect(d.isError).toBe(false);
    expect(d.text).not.toMatch(/\bemail\b/);
    expect(d.text).not.toMatch(/shop_orders(?![_a-z])/);
    const denied = await tool('analyst-key', 'field_values', { object: 'shop_orders', field: 'status' });
    expect(denied).toMatchObject({ isError: true });
    expect(denied.text).toMatch(/^object: no data object "shop_orders"; use search to find one/);
  }, 60_000);
});
