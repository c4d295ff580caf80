// A server with no declared sources starts and serves the system modules (the first schema is built
// at start, before any source loads: src/system/system.module.ts NodeBoot), and the core database the
// start wrote its schema into is not held in DuckDB's memory, nor its blocks in DuckDB's buffer pool (issue 30).
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
    t = await startApp({ CATALOGS_DIR: empty, SECRET_KEY: 'k', DUCKDB_MEMORY_LIMIT: '1000' });
    // Before any request: the blocks the start's CHECKPOINT wrote are not kept in DuckDB's buffer
    // pool (the start ends by dropping them; without it, BASE_TABLE holds the core database's blocks).
    const cached = await t.runtime.engine.withConnection(async (c) =>
      (await c.runAndReadAll("SELECT memory_usage_bytes FROM duckdb_memory() WHERE tag = 'BASE_TABLE'")).getRowObjectsJS());
    expect(Number(cached[0]!.memory_usage_bytes)).toBeLessThan(1024 * 1024);
    // The memory limit is the configured one again (DUCKDB_MEMORY_LIMIT=1000 MB, as DuckDB shows it).
    const limit = await t.runtime.engine.withConnection(async (c) => (await c.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS());
    expect(limit[0]!.m).toBe('953.6 MiB');
    const ready = await t.request({ method: 'GET', url: '/ready' });
    expect(ready.status).toBe(200);
    const r = await t.gql('{ function { core { data_source_status(name: "none") } } }', undefined, { 'x-svc-secret': 'k' });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.function.core.data_source_status).toContain('unknown data source');
  });

  it("keeps the core database's rows and indexes in its file, not in DuckDB memory (the start ends with a CHECKPOINT)", async () => {
    // No data source: only the core database is in the engine (a seeded DuckDB source holds its own indexes).
    const rows = await t!.runtime.engine.withConnection(async (c) =>
      (await c.runAndReadAll("SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE tag IN ('ART_INDEX', 'IN_MEMORY_TABLE')")).getRowObjectsJS());
    expect(rows).toHaveLength(2);
    // Without the checkpoint: ART_INDEX ~23 MB, IN_MEMORY_TABLE ~6 MB.
    for (const r of rows) expect(Number(r.memory_usage_bytes), String(r.tag)).toBeLessThan(1024 * 1024);
  });
});
