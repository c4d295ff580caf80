// /admin in a real browser (Debian's chromium, driven by playwright-core; .ci/run installs it): the
// page shows svc's welcome with starter queries, builds a query by clicks in the explorer and runs
// it, and a header preset switches to a role whose row filter changes the answer. Only loopback is
// asked for (the assets come from node_modules). Screenshots: test-artifacts/explorer/ (gitignored).
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../support/server.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'explorer');
const SECRET = 'explorer-secret';

let server: ServerProcess;
let browser: BrowserContext;
let page: Page;
const outside: string[] = [];
const pageErrors: string[] = [];

const gql = async (query: string) =>
  (await fetch(`${server.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-secret-key': SECRET }, body: JSON.stringify({ query }) })).json();

/** The query editor's text, without CodeMirror's line numbers. */
async function editorText(): Promise<string> {
  const raw = await page.locator('.graphiql-query-editor .CodeMirror-code').innerText();
  return raw.split('\n').filter((l) => !/^\d+$/.test(l)).join('\n').replace(/\u200b/g, '');
}

/** The operation the explorer clicks built (test 2), run again in test 3. */
let built = 'MyQuery';

/** Runs `built`: GraphiQL asks which operation to run when the editor holds several. */
async function runBuilt(): Promise<void> {
  await page.locator('.graphiql-execute-button').click();
  const offered = page.locator('[role="menuitem"]', { hasText: new RegExp(`^${built}$`) });
  if (await offered.first().isVisible({ timeout: 2_000 }).catch(() => false)) await offered.first().click();
}

/** The response pane's text, once it holds `what`. */
async function response(what: string): Promise<string> {
  const pane = page.locator('.graphiql-response');
  await expect.poll(async () => pane.innerText(), { timeout: 20_000 }).toContain(what);
  return pane.innerText();
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ SECRET_KEY: SECRET });
  // A role that sees British customers only.
  const role = await gql(`mutation { core { insert_roles(data: {name: "gb_only", description: "British customers", permissions: [
    {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}}]}) { name } } }`);
  expect(role).toMatchObject({ data: { core: { insert_roles: { name: 'gb_only' } } } });
  browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'svc-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('request', (r) => {
    if (!r.url().startsWith(server.url) && !r.url().startsWith(server.url.replace('http', 'ws'))) outside.push(r.url());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('/admin in a browser', () => {
  it("shows svc's welcome with starter queries built from the served objects", async () => {
    await page.goto(`${server.url}/admin`);
    await expect.poll(editorText, { timeout: 30_000 }).toContain('Welcome to svc');
    const text = await editorText();
    expect(text).toContain('query FirstRows');
    expect(text).toContain('query WithRelation');
    expect(text).toMatch(/query WithRelation \{\s+shop_\w+\(limit: 3\)/);
    expect(text).toContain('query CountAndWhoAmI');
    await page.screenshot({ path: join(SHOTS, '1-welcome.png') });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('builds a query by clicks in the explorer and runs it', async () => {
    // Empty the editor as a user would: the explorer then starts a new operation from its root fields.
    await page.locator('.graphiql-query-editor .CodeMirror').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await expect.poll(editorText, { timeout: 10_000 }).not.toContain('Welcome');
    const explorer = page.locator('.graphiql-explorer-root');
    await explorer.locator('[data-field-name="shop_customers"]').first().click();
    await explorer.locator('.graphiql-explorer-shop_customers [data-field-name="name"]').first().click();
    await expect.poll(editorText, { timeout: 10_000 }).toMatch(/shop_customers[^{]*\{\s*name/);
    // The operation the clicks changed: a new one (MyQuery), or the first starter operation when the page
    // had put its starters back into the emptied editor. With several, GraphiQL asks which one to run.
    built = /query (\w+) \{(?:[^{}]|\{[^{}]*\})*shop_customers\s*\{\s*name/.exec(await editorText())?.[1] ?? 'MyQuery';
    await runBuilt();
    const text = await response('Edsger Dijkstra');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Grace Hopper');
    await page.screenshot({ path: join(SHOTS, '2-built-by-clicks.png') });
  }, 60_000);

  it("switches to a role by a header preset and shows that role's answer", async () => {
    await page.locator('button[aria-label="Show svc"]').click();
    await page.locator('#svc-secret').fill(SECRET);
    await page.locator('#svc-role').fill('gb_only');
    await page.locator('#svc-preset-role').click();
    await expect(page.locator('#svc-preset-shown').innerText()).resolves.toContain('role gb_only');
    await runBuilt();
    await expect.poll(async () => page.locator('.graphiql-response').innerText(), { timeout: 20_000 }).not.toContain('Edsger Dijkstra');
    const text = await response('Alan Turing');
    expect(text).toContain('Ada Lovelace');
    expect(text).not.toContain('Grace Hopper');
    await page.screenshot({ path: join(SHOTS, '3-role-preset.png') });
  }, 60_000);

  it('asked for nothing but the server itself (no CDN)', () => {
    expect(outside).toEqual([]);
  });
});
