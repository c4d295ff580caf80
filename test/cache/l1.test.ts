// L1 alone (SPEC §9): hits and misses, TTL, the size bound (LRU, evictions), the item ceiling,
// tags, invalidate all, single flight and the metrics it reports.
import { afterEach, describe, expect, it } from 'vitest';
import { cacheMetrics, ResultCache } from '../../src/cache/index.js';
import { openCache, quiet, sleep } from './helpers.js';

const caches: ResultCache[] = [];
async function l1Cache(maxBytes = 1 << 20, maxItemBytes = 1 << 20): Promise<ResultCache> {
  const c = await openCache({ l1: { maxBytes, maxItemBytes } });
  caches.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.stop()));
});

const opts = (ttlMs = 0, tags: string[] = []) => ({ ttlMs, tags });

describe('L1 result cache', () => {
  it('misses, then hits without computing again', async () => {
    const c = await l1Cache();
    let runs = 0;
    const compute = async () => ({ rows: [{ id: 1, name: 'tea' }], n: ++runs });
    const first = await c.wrap('k', opts(), compute);
    const second = await c.wrap('k', opts(), compute);
    expect(first).toEqual({ value: { rows: [{ id: 1, name: 'tea' }], n: 1 }, hit: false });
    expect(second).toEqual({ value: { rows: [{ id: 1, name: 'tea' }], n: 1 }, hit: true });
    expect(runs).toBe(1);
    expect(await c.get('other')).toBeUndefined();
    expect(c.stats()).toMatchObject({ l1Hits: 1, misses: 2, l1Entries: 1 });
  });

  it('returns a copy on a hit, so a caller mutating its result cannot change the cache', async () => {
    const c = await l1Cache();
    await c.set('k', { list: [1, 2] }, opts());
    const a = await c.get<{ list: number[] }>('k');
    a!.list.push(3);
    expect(await c.get('k')).toEqual({ list: [1, 2] });
  });

  it('expires entries after their TTL', async () => {
    const c = await l1Cache();
    await c.set('short', 'v', opts(300));
    await c.set('forever', 'v', opts(0));
    expect(await c.get('short')).toBe('v');
    await sleep(400);
    expect(await c.get('short')).toBeUndefined();
    expect(await c.get('forever')).toBe('v');
  });

  it('keeps within the byte bound, evicting the least recently used entries', async () => {
    const c = await l1Cache(1000, 1000);
    const before = (await cacheMetrics.evictions.get()).values[0]?.value ?? 0;
    const value = 'x'.repeat(240); // 244 bytes once encoded: four fit in 1000
    for (let i = 0; i < 4; i++) await c.set(`k${i}`, value, opts());
    expect(c.stats()).toMatchObject({ l1Entries: 4, evictions: 0 });
    expect(await c.get('k0')).toBe(value); // k0 becomes the most recently used
    await c.set('k4', value, opts());
    expect(await c.get('k1')).toBeUndefined(); // the least recently used went first
    expect(await c.get('k0')).toBe(value);
    for (let i = 5; i < 10; i++) await c.set(`k${i}`, value, opts());
    const s = c.stats();
    expect(s.l1Bytes).toBeLessThanOrEqual(1000);
    expect(s.l1Entries).toBe(4);
    expect(s.evictions).toBe(6);
    expect(await c.get('k9')).toBe(value);
    expect(((await cacheMetrics.evictions.get()).values[0]?.value ?? 0) - before).toBe(6);
  });

  it('does not keep items above the item ceiling', async () => {
    const c = await l1Cache(10_000, 100);
    await c.set('small', 'y'.repeat(50), opts());
    await c.set('big', 'y'.repeat(200), opts());
    expect(await c.get('small')).toBe('y'.repeat(50));
    expect(await c.get('big')).toBeUndefined();
    let runs = 0;
    const r1 = await c.wrap('big2', opts(), async () => 'z'.repeat((++runs, 300)));
    const r2 = await c.wrap('big2', opts(), async () => 'z'.repeat((++runs, 300)));
    expect(r1.value).toHaveLength(300);
    expect(r2.hit).toBe(false);
    expect(runs).toBe(2);
  });

  it('drops the entries of an invalidated tag and only those', async () => {
    const c = await l1Cache();
    await c.set('orders-1', 1, opts(0, ['shop_orders']));
    await c.set('both', 2, opts(0, ['shop_orders', 'shop_customers']));
    await c.set('customers', 3, opts(0, ['shop_customers']));
    expect(await c.invalidate(['shop_orders'])).toBe(2);
    expect(await c.get('orders-1')).toBeUndefined();
    expect(await c.get('both')).toBeUndefined();
    expect(await c.get('customers')).toBe(3);
    expect(await c.invalidate(['nothing_here'])).toBe(0);
  });

  it('invalidate() without tags (or with an empty list) clears everything', async () => {
    const c = await l1Cache();
    for (let i = 0; i < 5; i++) await c.set(`k${i}`, i, opts(0, [`t${i}`]));
    expect(await c.invalidate()).toBe(5);
    expect(await c.get('k3')).toBeUndefined();
    await c.set('again', 1, opts());
    expect(await c.invalidate([])).toBe(1);
    expect(c.stats()).toMatchObject({ l1Entries: 0, l1Bytes: 0 });
  });

  it('runs compute once for 50 concurrent misses of one key', async () => {
    const c = await l1Cache();
    let runs = 0;
    const compute = async () => {
      runs++;
      await sleep(50);
      return { n: 42n, rows: [1, 2, 3] };
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => c.wrap('same', opts(), compute)));
    expect(runs).toBe(1);
    for (const r of results) expect(r.value).toEqual({ n: 42n, rows: [1, 2, 3] });
    // Waiters get their own copies.
    expect(new Set(results.map((r) => r.value)).size).toBe(50);
    expect((await c.wrap('same', opts(), compute)).hit).toBe(true);
  });

  it('does not cache a failure: every waiter sees it and the next call computes again', async () => {
    const c = await l1Cache();
    let runs = 0;
    const failing = async () => {
      runs++;
      await sleep(20);
      throw new Error('source down');
    };
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => c.wrap('f', opts(), failing)));
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(runs).toBe(1);
    expect(await c.wrap('f', opts(), async () => 'ok')).toEqual({ value: 'ok', hit: false });
  });

  it('refresh re-runs compute and replaces the entry', async () => {
    const c = await l1Cache();
    await c.wrap('r', opts(), async () => 'old');
    const r = await c.wrap('r', opts(), async () => 'new', { refresh: true });
    expect(r).toEqual({ value: 'new', hit: false });
    expect(await c.get('r')).toBe('new');
  });

  it('does not store a result computed across an invalidation', async () => {
    const c = await l1Cache();
    const pending = c.wrap('race', opts(0, ['t']), async () => {
      await sleep(50);
      return 'before the write';
    });
    await sleep(10);
    await c.invalidate(['t']);
    expect((await pending).value).toBe('before the write');
    expect(await c.get('race')).toBeUndefined();
  });

  it('passes straight through when no store is enabled', async () => {
    const c = await ResultCache.open({ defaultTtlMs: 0, prefix: 'x:', commandTimeoutMs: 100, connectWaitMs: 100 }, quiet);
    let runs = 0;
    expect(c.enabled).toBe(false);
    await c.wrap('k', opts(), async () => ++runs);
    expect(await c.wrap('k', opts(), async () => ++runs)).toEqual({ value: 2, hit: false });
    expect(await c.invalidate()).toBe(0);
  });

  it('exports Prometheus metrics in its registry', async () => {
    const c = await l1Cache();
    await c.wrap('m', opts(), async () => 1);
    await c.wrap('m', opts(), async () => 1);
    const text = await cacheMetrics.registry.metrics();
    expect(text).toMatch(/svc_cache_hits_total\{level="l1"\} [1-9]/);
    expect(text).toMatch(/svc_cache_misses_total [1-9]/);
    expect(text).toContain('svc_cache_evictions_total');
    expect(text).toMatch(/svc_cache_l1_bytes [1-9]/);
  });
});
