// DuckDB's threads (issue 30): a full read pool and DuckDB's shared workers together keep to the
// CPU count, unless DUCKDB_THREADS says otherwise; the allocator's background thread is on.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { DuckDbEngine } from '../../src/sources/duckdb/engine.js';

async function threads(maxOpen: number, limits = {}): Promise<number> {
  const e = await DuckDbEngine.create(':memory:', maxOpen, 0, limits);
  try {
    return await e.withConnection(async (c) => Number((await c.runAndReadAll("SELECT current_setting('threads')")).getRows()[0]![0]));
  } finally {
    e.close();
  }
}

describe('DuckDB threads', () => {
  it('default to the CPUs left beside the read pool, plus the thread of the statement itself', async () => {
    const cpus = availableParallelism();
    expect(await threads(4)).toBe(Math.max(1, cpus - 3));
    expect(await threads(1)).toBe(cpus);
    // DB_MAX_OPEN_CONNS=0 is the pool of 4.
    expect(await threads(0)).toBe(Math.max(1, cpus - 3));
    expect(await threads(cpus + 8)).toBe(1);
  });

  it('DUCKDB_THREADS sets them', async () => {
    expect(await threads(4, { threads: 3 })).toBe(3);
  });

  it("run DuckDB's allocator with its background thread (issue 30: freed pages go back while the server idles)", async () => {
    const e = await DuckDbEngine.create(':memory:', 1);
    try {
      const on = await e.withConnection(async (c) => (await c.runAndReadAll("SELECT current_setting('allocator_background_threads')")).getRows()[0]![0]);
      expect(on).toBe(true);
    } finally {
      e.close();
    }
  });
});
