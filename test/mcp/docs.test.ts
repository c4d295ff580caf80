// docs/mcp.md's walk-through runs as written: its shell blocks (the Inspector CLI's `mcp` calls, the
// query text in $Q) are run by bash against /mcp on loopback, and each answer shown on the page is
// compared with the answer the server gives (the parts the page shortens with "..." are skipped).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpApp, startMcpApp } from './helpers.js';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '..', '..');
const CLI_DIR = join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');
const page = readFileSync(join(REPO, 'docs', 'mcp.md'), 'utf8');
const walk = page.slice(page.indexOf('## Walk-through'), page.indexOf('## What a restricted role sees'));
const fences = (lang: string) => [...walk.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

let app: McpApp;

beforeAll(async () => {
  app = await startMcpApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('docs/mcp.md walk-through', () => {
  it('runs as written and answers what the page shows', async () => {
    const [define, ...calls] = fences('sh');
    expect(define).toMatch(/^mcp\(\) \{ node index\.js http:\/\/localhost:15000\/mcp /);
    // The page's own `mcp`, pointed at this server; each call's output ends with a separator line.
    const script = [
      define!.replace('http://localhost:15000/mcp', app.url),
      'eval "$(declare -f mcp | sed \'1s/^mcp/page_mcp/\')"',
      'mcp() { page_mcp "$@"; echo "=====" ; }',
      ...calls,
    ].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script], { cwd: CLI_DIR, timeout: 110_000 });
    const answers = stdout.split('=====\n').filter((s) => s.trim()).map((s) => {
      const r = JSON.parse(s) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError ?? false, r.content[0]!.text).toBe(false);
      return r.content[0]!.text;
    });
    expect(answers).toHaveLength(7);
    const shown = fences('json');
    const [search, describeShown, values, answer] = shown;
    const names = (text: string) => [...text.matchAll(/"name": "(\w+)"/g)].map((m) => m[1]);
    // 1. search: the objects, in the page's order.
    expect(JSON.parse(answers[0]!).results.map((r: { name: string }) => r.name)).toEqual(names(search!));
    // 2. describe: the examples as shown.
    const d = JSON.parse(answers[1]!);
    expect(`"example": ${JSON.stringify(d.example)}`).toBe(/"example": "[^\n]*?"(?=\s*,|\s*\})/.exec(describeShown!)![0]);
    expect(describeShown).toContain(`"aggregation_example": ${JSON.stringify(d.aggregation_example)}`);
    expect(describeShown).toContain(`"total": ${JSON.stringify(d.aggregations.total)}`);
    // 3. field_values: one answer a line.
    expect(values!.trim().split('\n').map((l) => JSON.parse(l))).toEqual(answers.slice(2, 5).map((a) => JSON.parse(a)));
    // 4. validate, 5. the answer.
    expect(answers[5]).toBe('valid');
    expect(JSON.parse(answers[6]!)).toEqual(JSON.parse(answer!));
  }, 120_000);
});
