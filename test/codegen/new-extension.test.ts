// `npm run new:extension -- <name>` (issue 20 item 1): the module it writes loads as EXTENSIONS
// loads it and answers over HTTP; the test it writes is there; an existing name is refused.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadExtensionModules } from '../../src/extensions/load.js';
import { startApp, type TestApp } from '../support/app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const root = mkdtempSync(join(tmpdir(), 'svc-new-extension-'));
const scaffold = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'new-extension.mjs'), ...args, '--root', root], { encoding: 'utf8' });

let t: TestApp;
beforeAll(async () => {
  const r = scaffold('sales_reports');
  expect(r.status, r.stderr).toBe(0);
  // The scaffold's imports (../../src/...) resolve to this repository's source.
  symlinkSync(join(ROOT, 'src'), join(root, 'src'));
  // And the compiler settings (decorators) are the repository's.
  symlinkSync(join(ROOT, 'tsconfig.json'), join(root, 'tsconfig.json'));
  t = await startApp({}, await loadExtensionModules(['extensions/sales_reports/sales_reports.module.ts'], root));
});
afterAll(() => t?.close());

it('writes a module, a resolver and a test; the module serves its query', async () => {
  for (const f of ['extensions/sales_reports/sales_reports.module.ts', 'extensions/sales_reports/sales_reports.resolver.ts', 'test/extensions/sales_reports.test.ts']) {
    expect(existsSync(join(root, f)), f).toBe(true);
  }
  expect(readFileSync(join(root, 'test/extensions/sales_reports.test.ts'), 'utf8')).toContain("'{ sales_reports_info { module user role } }'");
  const r = await t.gql('{ sales_reports_info { module user role } }');
  expect(r.body).toEqual({ data: { sales_reports_info: { module: 'sales_reports', user: 'anonymous', role: 'admin' } }, extensions: {} });
});

it('refuses a bad or existing name', () => {
  expect(scaffold('Sales-Reports').status).toBe(2);
  const again = scaffold('sales_reports');
  expect(again.status).toBe(1);
  expect(again.stderr).toMatch(/exists; choose another name/);
});
