// The server's memory at start (issue 30): the core database's rows and indexes, written by the
// start's schema write, are not held in DuckDB's memory by the serving process.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';

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
