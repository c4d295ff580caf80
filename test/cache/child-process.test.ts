// Invalidation across real OS processes: the cache modules are compiled (swc) into a temporary
// directory and run in a child `node`, which shares Redis with the cache of this test process.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { transformFileSync } from '@swc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultCache } from '../../src/cache/index.js';
import { openCache, REDIS, uniquePrefix, waitFor } from './helpers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Compiles src/cache and the helpers it imports; returns the directory. */
function build(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cache-child-'));
  // The cache imports nothing but src/shared (scripts/layers.mjs keeps it so); its Nest module
  // (cache.module.ts, wiring for the application) is not part of what the child loads.
  const files = ['src/cache', 'src/shared'].flatMap((d) => readdirSync(join(ROOT, d)).filter((f) => f.endsWith('.ts') && !f.endsWith('.module.ts')).map((f) => `${d}/${f}`));
  for (const f of files) {
    const out = join(dir, f.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    const { code } = transformFileSync(join(ROOT, f), { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' }, sourceMaps: false });
    writeFileSync(out, code);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(
    join(dir, 'child.js'),
    `import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { ResultCache } from './src/cache/index.js';
const cache = await ResultCache.open(JSON.parse(process.argv[2]), pino({ level: 'silent' }));
const reply = (id, result) => process.stdout.write(JSON.stringify({ id, result: result ?? null }) + '\\n');
reply(0, { ready: cache.l2Ready });
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.op === 'get') reply(m.id, await cache.get(m.key));
  else if (m.op === 'set') reply(m.id, await cache.set(m.key, m.value, { ttlMs: 0, tags: m.tags }));
  else if (m.op === 'invalidate') reply(m.id, await cache.invalidate(m.tags));
  else if (m.op === 'stats') reply(m.id, cache.stats());
  else if (m.op === 'stop') { await cache.stop(); reply(m.id, 'stopped'); process.exit(0); }
}
`,
  );
  return dir;
}

class Child {
  private next = 1;
  private readonly waiting = new Map<number, (v: unknown) => void>();
  readonly started: Promise<unknown>;

  constructor(private readonly proc: ChildProcessByStdio<Writable, Readable, null>) {
    this.started = new Promise((r) => this.waiting.set(0, r));
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const { id, result } = JSON.parse(line) as { id: number; result: unknown };
      this.waiting.get(id)?.(result);
      this.waiting.delete(id);
    });
  }

  call<T>(msg: Record<string, unknown>): Promise<T> {
    const id = this.next++;
    return new Promise<T>((r) => {
      this.waiting.set(id, r as (v: unknown) => void);
      this.proc.stdin.write(`${JSON.stringify({ ...msg, id })}\n`);
    });
  }
}

let dir: string;
let child: Child;
let proc: ChildProcessByStdio<Writable, Readable, null>;
let cache: ResultCache;

beforeAll(async () => {
  dir = build();
  const prefix = uniquePrefix();
  const options = { defaultTtlMs: 0, prefix, commandTimeoutMs: 250, connectWaitMs: 2000, l1: { maxBytes: 1 << 20, maxItemBytes: 1 << 20 }, l2: { address: REDIS } };
  proc = spawn(process.execPath, [join(dir, 'child.js'), JSON.stringify(options)], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
  child = new Child(proc);
  expect(await child.started).toEqual({ ready: true });
  cache = await openCache(options);
});

afterAll(async () => {
  await cache?.invalidate();
  await cache?.stop();
  if (child) await child.call({ op: 'stop' });
  rmSync(dir, { recursive: true, force: true });
});

describe('two OS processes sharing Redis', () => {
  it('see each other\'s entries and invalidations, in L2 and in L1', async () => {
    await cache.set('orders', { n: 1 }, { ttlMs: 0, tags: ['shop_orders'] });
    await cache.set('customers', { n: 2 }, { ttlMs: 0, tags: ['shop_customers'] });
    expect(await child.call({ op: 'get', key: 'orders' })).toEqual({ n: 1 });
    expect(await child.call({ op: 'get', key: 'customers' })).toEqual({ n: 2 });
    expect(await child.call({ op: 'stats' })).toMatchObject({ l2Hits: 2, l1Entries: 2 });

    // Parent invalidates: the child's L1 copy goes (pub/sub), and L2 is gone for it too.
    expect(await cache.invalidate(['shop_orders'])).toBe(1);
    await waitFor(async () => (await child.call<{ l1Entries: number }>({ op: 'stats' })).l1Entries === 1);
    expect(await child.call({ op: 'get', key: 'orders' })).toBeNull();
    expect(await child.call({ op: 'get', key: 'customers' })).toEqual({ n: 2 });

    // Child writes and invalidates everything: the parent's L1 empties.
    await child.call({ op: 'set', key: 'from-child', value: 'hello', tags: ['x'] });
    expect(await cache.get('from-child')).toBe('hello');
    expect(cache.stats().l1Entries).toBeGreaterThan(0);
    expect(await child.call({ op: 'invalidate' })).toBeGreaterThanOrEqual(2);
    await waitFor(() => cache.stats().l1Entries === 0);
    expect(await cache.get('from-child')).toBeUndefined();
    expect(await cache.get('customers')).toBeUndefined();
  });
});
