// jq's worker pool starts its first worker with the first program, not with the server (issue 30:
// piscina started a worker thread, its own V8 isolate with jq-web, at once; the idle server held
// 277-286 MB with it, 251-255 MB without). Real workers, a real program.
import { afterAll, describe, expect, it } from 'vitest';
import { JqPool } from '../../src/jq/pool.js';

const pool = new JqPool({ threads: 1, memoryMb: 64, waitMs: 10_000 });
afterAll(() => pool.close());

describe("jq's worker pool", () => {
  it('starts no worker until the first program, then runs it', async () => {
    expect(pool.started).toBe(false);
    const r = await pool.run({ input: '{"a": [1, 2]}', program: '.a | length', svc: '{}' }, 10_000);
    expect(pool.started).toBe(true);
    expect(r).toMatchObject({ ok: true });
    expect((r as { stdout: string }).stdout.trim()).toBe('2');
  });
});
