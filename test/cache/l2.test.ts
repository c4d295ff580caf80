// L2 on the real Redis (SVC_TEST_REDIS), with two caches standing for two processes sharing it
// (a separate OS process is in child-process.test.ts).
import { createClient, type RedisClientType } from '@keyv/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResultCache, subscribeWrites } from '../../src/cache/index.js';
import { WriteEvents } from '../../src/executor/write-events.js';
import { openCache, REDIS, sleep, uniquePrefix, waitFor } from './helpers.js';

let raw: RedisClientType;
beforeAll(async () => {
  const [host, port] = REDIS.split(':');
  raw = createClient({ socket: { host, port: Number(port ?? 6379) } });
  await raw.connect();
});
afterAll(async () => {
  raw.destroy();
});

const caches: ResultCache[] = [];
/** Two caches with L1 and L2 on one prefix: "process A" and "process B". */
async function pair(l1 = true): Promise<[ResultCache, ResultCache, string]> {
  const prefix = uniquePrefix();
  const over = { prefix, l2: { address: REDIS }, ...(l1 ? { l1: { maxBytes: 1 << 20, maxItemBytes: 1 << 20 } } : {}) };
  const a = await openCache(over);
  const b = await openCache(over);
  caches.push(a, b);
  return [a, b, prefix];
}
afterEach(async () => {
  for (const c of caches.splice(0)) {
    await c.invalidate();
    await c.stop();
  }
});

async function keysUnder(prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) out.push(...batch.map(String));
  return out.sort();
}

describe('L2 (Redis) result cache', () => {
  it('serves a value written by another process, and an L2 hit fills L1', async () => {
    const [a, b] = await pair();
    expect(a.l2Ready && b.l2Ready).toBe(true);
    await a.set('k', { rows: [1, 2] }, { ttlMs: 10_000, tags: ['t'] });
    expect(await b.get('k')).toEqual({ rows: [1, 2] });
    expect(await b.get('k')).toEqual({ rows: [1, 2] });
    expect(b.stats()).toMatchObject({ l2Hits: 1, l1Hits: 1, misses: 0, l1Entries: 1 });
  });

  it('works with L2 alone and lets Redis expire entries and their tag sets', async () => {
    const [a, b, prefix] = await pair(false);
    let runs = 0;
    const compute = async () => ++runs;
    expect(await a.wrap('e', { ttlMs: 300, tags: ['short'] }, compute)).toEqual({ value: 1, hit: false });
    expect(await b.wrap('e', { ttlMs: 300, tags: ['short'] }, compute)).toEqual({ value: 1, hit: true });
    const pttl = await raw.pTTL(`${prefix}tag:short`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(300);
    await sleep(400);
    expect(await b.wrap('e', { ttlMs: 300, tags: ['short'] }, compute)).toEqual({ value: 2, hit: false });
    await a.set('p', 1, { ttlMs: 0, tags: ['short'] });
    expect(await raw.pTTL(`${prefix}tag:short`)).toBe(-1); // an entry without expiry keeps its tag set
    expect(await raw.pTTL(`${prefix}k:p`)).toBe(-1);
  });

  it('an invalidation in one process drops L2 and the other process\'s L1', async () => {
    const [a, b, prefix] = await pair();
    await a.set('orders', [1], { ttlMs: 0, tags: ['shop_orders'] });
    await a.set('customers', [2], { ttlMs: 0, tags: ['shop_customers'] });
    expect(await b.get('orders')).toEqual([1]);
    expect(await b.get('customers')).toEqual([2]);
    expect(b.stats().l1Entries).toBe(2);

    expect(await a.invalidate(['shop_orders'])).toBe(1);
    await waitFor(() => b.stats().l1Entries === 1); // B's L1 copy went by pub/sub
    expect(await b.get('orders')).toBeUndefined();
    expect(await b.get('customers')).toEqual([2]);
    expect(await keysUnder(`${prefix}k:`)).toEqual([`${prefix}k:customers`]);
    expect(await raw.exists(`${prefix}tag:shop_orders`)).toBe(0);
  });

  it('invalidate() clears every process and the whole prefix, and nothing outside it', async () => {
    const [a, b, prefix] = await pair();
    const outside = `${uniquePrefix()}k:keep`;
    await raw.set(outside, 'x', { PX: 10_000 });
    for (let i = 0; i < 5; i++) await b.set(`k${i}`, i, { ttlMs: 10_000, tags: [`t${i}`] });
    for (let i = 0; i < 5; i++) expect(await a.get(`k${i}`)).toBe(i);
    expect(a.stats().l1Entries).toBe(5);

    expect(await b.invalidate()).toBe(5);
    await waitFor(() => a.stats().l1Entries === 0);
    expect(await keysUnder(prefix)).toEqual([]);
    expect(await a.get('k1')).toBeUndefined();
    expect(await raw.get(outside)).toBe('x');
    await raw.del(outside);
  });

  it('round-trips BigInt values exactly through Redis', async () => {
    const [a, b] = await pair(false);
    const v = { total: 123456789012345678901234567890n, small: 7n, list: [-9007199254740993n], f: 1.5 };
    await a.set('big', v, { ttlMs: 10_000, tags: [] });
    const back = await b.get<typeof v>('big');
    expect(back).toEqual(v);
    expect(typeof back!.small).toBe('bigint');
  });

  it('committed writes invalidate the tags of the objects written, in every process', async () => {
    const [a, b] = await pair();
    const writes = new WriteEvents();
    const off = subscribeWrites(a, writes);
    await a.set('q1', 'orders', { ttlMs: 0, tags: ['shop_orders'] });
    await a.set('q2', 'products', { ttlMs: 0, tags: ['shop_products'] });
    expect(await b.get('q1')).toBe('orders');
    expect(await b.get('q2')).toBe('products');
    writes.committed(new Set(['shop_orders']));
    await waitFor(async () => (await a.get('q1')) === undefined && b.stats().l1Entries === 1);
    expect(await b.get('q1')).toBeUndefined();
    expect(await b.get('q2')).toBe('products');
    off();
    writes.committed(new Set(['shop_products']));
    await sleep(50);
    expect(await a.get('q2')).toBe('products');
  });

  it('single flight per process: 50 concurrent misses compute once and the result is shared through L2', async () => {
    const [a, b] = await pair();
    let runs = 0;
    const compute = async () => {
      runs++;
      await sleep(30);
      return { n: runs };
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => a.wrap('sf', { ttlMs: 10_000, tags: [] }, compute)));
    expect(runs).toBe(1);
    expect(results.every((r) => (r.value as { n: number }).n === 1)).toBe(true);
    expect(await b.wrap('sf', { ttlMs: 10_000, tags: [] }, compute)).toEqual({ value: { n: 1 }, hit: true });
  });
});
