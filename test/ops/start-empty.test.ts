// A server with no declared sources starts and serves the system modules (the first schema is built
// at start, before any source loads: src/system/system.module.ts NodeBoot).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

describe('a start with no data source', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('serves the system modules and is ready', async () => {
    const empty = join(tempDir(), 'catalogs');
    mkdirSync(empty, { recursive: true });
    t = await startApp({ CATALOGS_DIR: empty, SECRET_KEY: 'k' });
    const ready = await t.request({ method: 'GET', url: '/ready' });
    expect(ready.status).toBe(200);
    const r = await t.gql('{ function { core { data_source_status(name: "none") } } }', undefined, { 'x-svc-secret': 'k' });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.function.core.data_source_status).toContain('unknown data source');
  });
});
