// From Config (SPEC §2 CACHE_*) to a running cache, and the /jq-query store adapter.
import { describe, expect, it } from 'vitest';
import { cacheOptionsFromConfig, ResultCache, ResultJqCache } from '../../src/cache/index.js';
import type { Config } from '../../src/config/schema.js';
import { ErrorCode, PublicError } from '../../src/shared/errors.js';
import { quiet, REDIS, sleep, uniquePrefix } from './helpers.js';

const config = (cache: Config['cache'], CACHE_TTL: number | string = 0): Config => ({ CACHE_TTL, cache }) as unknown as Config;

describe('cacheOptionsFromConfig', () => {
  it('reads MB for the L1 size, bytes for the item ceiling, and durations for the TTL', () => {
    const o = cacheOptionsFromConfig(config({ ttl: '60s', l1: { enabled: true, max_size: 2, max_item_size: 4096 } }));
    expect(o).toMatchObject({ defaultTtlMs: 60_000, l1: { maxBytes: 2 * 1024 * 1024, maxItemBytes: 4096 }, prefix: 'svc:' });
    expect(o.l2).toBeUndefined();
    expect(cacheOptionsFromConfig(config({ ttl: '60s' }, '5m')).defaultTtlMs).toBe(300_000); // CACHE_TTL set wins
    expect(cacheOptionsFromConfig(config({})).defaultTtlMs).toBe(0);
    expect(cacheOptionsFromConfig(config({ l1: { enabled: true } })).l1).toEqual({ maxBytes: 128 << 20, maxItemBytes: 32 << 20 });
  });

  it('takes the first L2 address and the credentials; refuses L2 without one', () => {
    const o = cacheOptionsFromConfig(config({ l2: { enabled: true, backend: 'redis', addresses: ['10.0.0.1:6380', '10.0.0.2:6380'], database: 2, username: 'u', password: 'p' } }));
    expect(o.l2).toEqual({ address: '10.0.0.1:6380', database: 2, username: 'u', password: 'p' });
    try {
      cacheOptionsFromConfig(config({ l2: { enabled: true, backend: 'redis', addresses: [] } }));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PublicError);
      expect((e as PublicError).code).toBe(ErrorCode.ConfigInvalid);
      expect((e as PublicError).message).toContain('CACHE_L2_ADDRESSES');
    }
  });

  it('ResultCache.create builds what the config asks for, with disabled stores passing through', async () => {
    const off = await ResultCache.create(config({ l1: { enabled: false } }), quiet);
    expect(off.enabled).toBe(false);
    const on = await ResultCache.create(config({ ttl: 1, l1: { enabled: true, max_size: 1 }, l2: { enabled: true, backend: 'redis', addresses: [REDIS] } }), quiet, { prefix: uniquePrefix() });
    try {
      expect(on.enabled && on.l2Ready).toBe(true);
      expect(on.defaultTtlMs).toBe(1000);
    } finally {
      await on.invalidate();
      await on.stop();
    }
  });
});

describe('ResultJqCache', () => {
  it('keeps /jq-query bodies with the header TTL, or the default one, and their tags', async () => {
    const cache = await ResultCache.open({ defaultTtlMs: 200, prefix: uniquePrefix(), commandTimeoutMs: 250, connectWaitMs: 500, l1: { maxBytes: 1 << 20, maxItemBytes: 1 << 20 } }, quiet);
    const jq = new ResultJqCache(cache);
    await jq.set('abc:viewer', '{"a":1}', { ttlSeconds: 60, tags: ['daily'] });
    await jq.set('def:viewer', '[1]', { tags: [] });
    expect(await jq.get('abc:viewer')).toBe('{"a":1}');
    expect(await jq.get('abc:admin')).toBeUndefined();
    await sleep(300);
    expect(await jq.get('def:viewer')).toBeUndefined(); // default TTL of 200 ms
    await cache.invalidate(['daily']);
    expect(await jq.get('abc:viewer')).toBeUndefined();
    await cache.stop();
  });
});
