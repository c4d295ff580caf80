// Redis away (SPEC §9 and the brief): at start, mid-run, and stuck. Queries keep working on L1,
// failed commands count as misses, one warning is logged, and the cache reconnects by itself.
import { createClient } from '@keyv/redis';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultCache } from '../../src/cache/index.js';
import { openCache, recordingLogger, REDIS, RedisRelay, sleep, ThrowawayRedis, uniquePrefix, waitFor } from './helpers.js';

const L1 = { maxBytes: 1 << 20, maxItemBytes: 1 << 20 };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});
async function track(c: Promise<ResultCache>): Promise<ResultCache> {
  const cache = await c;
  cleanup.push(() => cache.stop());
  return cache;
}

describe('Redis outage', () => {
  it('starts without Redis, warns once and works as L1 only', async () => {
    const rec = recordingLogger();
    const t0 = Date.now();
    const c = await track(openCache({ l1: L1, l2: { address: '127.0.0.1:1' }, connectWaitMs: 300 }, rec.log));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(c.enabled).toBe(true);
    expect(c.l2Ready).toBe(false);
    let runs = 0;
    expect(await c.wrap('k', { ttlMs: 0, tags: ['t'] }, async () => ++runs)).toEqual({ value: 1, hit: false });
    expect(await c.wrap('k', { ttlMs: 0, tags: ['t'] }, async () => ++runs)).toEqual({ value: 1, hit: true });
    await c.set('other', 'v', { ttlMs: 0, tags: [] });
    expect(await c.invalidate(['t'])).toBe(1);
    expect(await c.get('other')).toBe('v');
    expect(await c.invalidate()).toBe(1);
    const warnings = rec.warnings().filter((m) => m.includes('Redis'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('L1 only');
  });

  it('keeps answering when Redis goes away mid-run, and reconnects when it returns', async () => {
    const redis = await ThrowawayRedis.start();
    cleanup.push(() => redis.stop());
    const rec = recordingLogger();
    // A loaded machine may take longer than the default second to connect, or a command longer than
    // 250 ms: each is a warning of its own before the outage (a CI run at load 15-20 saw 3 instead of 2).
    const slow = { connectWaitMs: 10_000, commandTimeoutMs: 2_000 };
    const both = await track(openCache({ l1: L1, l2: { address: redis.address }, ...slow }, rec.log));
    const shared = await track(openCache({ prefix: 'svc:', l2: { address: redis.address }, ...slow }, rec.log));
    expect(both.l2Ready && shared.l2Ready).toBe(true);
    await shared.set('s', 'stored', { ttlMs: 0, tags: [] });
    expect(await shared.get('s')).toBe('stored');
    await both.set('local', 'kept', { ttlMs: 0, tags: ['t'] });

    const before = rec.warnings().length;
    await redis.stop();
    await waitFor(() => !shared.l2Ready);
    let runs = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      expect(await shared.wrap('s', { ttlMs: 0, tags: [] }, async () => `computed ${++runs}`)).toEqual({ value: `computed ${runs}`, hit: false });
      expect(Date.now() - t0).toBeLessThan(1000);
    }
    expect(await both.get('local')).toBe('kept'); // L1 still serves
    await expect(both.set('x', 1, { ttlMs: 0, tags: ['t'] })).resolves.toBeUndefined();
    await expect(shared.invalidate(['t'])).resolves.toBe(0);
    const downWarnings = rec.warnings().slice(before).filter((m) => m.includes('unavailable'));
    expect(downWarnings).toHaveLength(2); // one per cache, however many commands failed

    await redis.start();
    await waitFor(() => both.l2Ready && shared.l2Ready, 8000);
    // Invalidations may have been missed while away, so L1 starts over once subscribed again.
    await waitFor(() => both.stats().l1Entries === 0, 8000);
    expect(rec.lines.some((l) => l.msg.includes('is back'))).toBe(true);
    await shared.set('after', 'again', { ttlMs: 0, tags: [] });
    expect(await shared.get('after')).toBe('again');
  });

  it('a stuck Redis costs at most the command timeout', async () => {
    const redis = await ThrowawayRedis.start();
    cleanup.push(() => redis.stop());
    const rec = recordingLogger();
    const c = await track(openCache({ l2: { address: redis.address }, commandTimeoutMs: 200 }, rec.log));
    await c.set('k', 'v', { ttlMs: 0, tags: [] });
    const admin = createClient({ socket: { host: '127.0.0.1', port: redis.port } });
    await admin.connect();
    cleanup.push(async () => admin.destroy());
    await admin.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
    const pausedAt = Date.now();
    const r = await c.wrap('k', { ttlMs: 0, tags: [] }, async () => 'computed');
    expect(r).toEqual({ value: 'computed', hit: false });
    expect(Date.now() - pausedAt).toBeLessThan(1000); // lookup and write each give up after 200 ms
    expect(rec.warnings().filter((m) => m.includes('unavailable'))).toHaveLength(1);
    // Once Redis answers again, so does the cache, and it says so.
    await sleep(Math.max(0, 1700 - (Date.now() - pausedAt)));
    // (the write of 'computed' timed out here but reached Redis after the pause: either value is fine)
    await waitFor(async () => (await c.get('k')) !== undefined, 3000);
    expect(rec.lines.some((l) => l.msg.includes('is back'))).toBe(true);
  });

  it('an invalidation that times out while connected is tried again, with no reconnection to wait for', async () => {
    const redis = await ThrowawayRedis.start();
    cleanup.push(() => redis.stop());
    const prefix = uniquePrefix();
    const writer = await track(openCache({ prefix, l2: { address: redis.address }, commandTimeoutMs: 200 }));
    // Another process with L1: only the published invalidation reaches its copy.
    const reader = await track(openCache({ prefix, l1: L1, l2: { address: redis.address } }));
    await writer.set('k', 'v', { ttlMs: 0, tags: ['t'] });
    expect(await reader.get('k')).toBe('v');
    expect(await reader.get('k')).toBe('v');
    expect(reader.stats().l1Entries).toBe(1);
    const admin = createClient({ socket: { host: '127.0.0.1', port: redis.port } });
    await admin.connect();
    cleanup.push(async () => admin.destroy());
    // Writes (the invalidation's script, then its announcement) wait 600 ms; reads go on.
    await admin.sendCommand(['CLIENT', 'PAUSE', '600', 'WRITE']);
    expect(await writer.invalidate(['t'])).toBe(0);
    expect(writer.l2Ready).toBe(true);
    await waitFor(() => reader.stats().l1Entries === 0, 5000);
    expect(await reader.get('k')).toBeUndefined();
  });

  it('replays invalidations made while Redis was away, once it is back', async () => {
    const relay = await RedisRelay.start(REDIS);
    cleanup.push(() => relay.close());
    const prefix = uniquePrefix();
    const away = await track(openCache({ prefix, l1: L1, l2: { address: relay.address } }));
    const direct = await track(openCache({ prefix, l2: { address: REDIS } }));
    cleanup.push(async () => void (await direct.invalidate()));
    await away.set('orders', 1, { ttlMs: 0, tags: ['shop_orders'] });
    await away.set('products', 2, { ttlMs: 0, tags: ['shop_products'] });

    await relay.close();
    await waitFor(() => !away.l2Ready);
    expect(await away.invalidate(['shop_orders'])).toBe(1); // its own L1 at once
    expect(await direct.get('orders')).toBe(1); // Redis not reached yet

    await relay.open();
    await waitFor(() => away.l2Ready, 8000);
    await waitFor(async () => (await direct.get('orders')) === undefined, 5000);
    expect(await direct.get('products')).toBe(2);
  });
});
