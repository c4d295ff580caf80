// The server's memory at start (issue 30, src/shared/start-memory.ts): start-up's young generation
// is not kept by the serving process. Read from the process's own /metrics (V8's heap spaces).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { startServer, type ServerProcess } from '../support/server.js';

async function youngGeneration(s: ServerProcess): Promise<number> {
  await s.waitForLine((l) => l.includes('svc listening'), 'the listener');
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('svc_nodejs_heap_space_size_total_bytes{space="new"}'));
  expect(line, 'the new space in /metrics').toBeDefined();
  return Number(line!.split(' ').at(-1));
}

describe('memory at start', { timeout: 120_000 }, () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("opens its listener with V8's young generation at its first size, not the 2 x 16 MB loading grew it to", async () => {
    server = await startServer();
    // V8's first size is two 512 KB semi-spaces; loading the example catalog grows it to 32 MB.
    expect(await youngGeneration(server)).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});

describe("the core database after the start's schema write", () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('is written to its file: its rows and indexes are not held in DuckDB memory', async () => {
    // No data source: only the core database is in the engine (a seeded DuckDB source holds its own indexes).
    const empty = join(tempDir(), 'catalogs');
    mkdirSync(empty, { recursive: true });
    t = await startApp({ CATALOGS_DIR: empty });
    const rows = await t.runtime.engine.withConnection(async (c) =>
      (await c.runAndReadAll("SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE tag IN ('ART_INDEX', 'IN_MEMORY_TABLE')")).getRowObjectsJS());
    // Without the checkpoint: ART_INDEX ~23 MB, IN_MEMORY_TABLE ~6 MB.
    for (const r of rows) expect(Number(r.memory_usage_bytes), String(r.tag)).toBeLessThan(1024 * 1024);
  });
});
