// DB_MAX_IDLE_CONNS (issue 32 item 5): every pool keeps at most that many idle connections — a real
// PostgreSQL pool and the embedded DuckDB's read pool; 0 keeps the engines' defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { DuckDbEngine } from '../../src/sources/duckdb/engine.js';
import { PostgresSource } from '../../src/sources/postgres/source.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('svc_idle');
}, 30_000);

afterAll(async () => {
  await db?.drop();
});

async function busy(run: () => Promise<unknown>, n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, run));
}

describe('DB_MAX_IDLE_CONNS', () => {
  it('a PostgreSQL pool closes connections released beyond the limit', async () => {
    for (const [maxIdle, expected] of [[1, 1], [0, 4]] as const) {
      const s = await PostgresSource.connect({ name: 'p', url: db.url, readOnly: true, maxConnections: 4, maxIdle });
      try {
        await busy(() => s.rows('SELECT pg_sleep(0.1)'), 4);
        expect(s.poolStats()).toMatchObject({ idle: expected, inUse: 0 });
      } finally {
        await s.close();
      }
    }
  });

  it("the embedded DuckDB's read pool likewise", async () => {
    for (const [maxIdle, expected] of [[2, 2], [0, 4]] as const) {
      const e = await DuckDbEngine.create(':memory:', 4, 0, { maxIdle });
      await busy(() => e.withConnection(async (c) => c.run('SELECT 1').then(() => new Promise((r) => setTimeout(r, 50)))), 4);
      expect(e.poolStats()).toMatchObject({ idle: expected, inUse: 0 });
      e.instance.closeSync();
    }
  });

  it('is validated: a negative number is refused', () => {
    expect(() => loadConfig({ env: { DB_MAX_IDLE_CONNS: '-1' }, argv: [], cwd: '/tmp' })).toThrow(/DB_MAX_IDLE_CONNS/);
    expect(loadConfig({ env: { DB_MAX_IDLE_CONNS: '3' }, argv: [], cwd: '/tmp' }).DB_MAX_IDLE_CONNS).toBe(3);
  });
});
