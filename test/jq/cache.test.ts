// Parsing of the /jq-query cache headers (seed 000 "Cache headers for /jq-query").
import { describe, expect, it } from 'vitest';
import { bodyHash, NoJqCache, parseCacheHeaders } from '../../src/jq/cache.js';

const body = { jq: '.', query: { query: '{ x }' } };

describe('parseCacheHeaders', () => {
  it('is null when no cache header is sent', () => {
    expect(parseCacheHeaders({ 'content-type': 'application/json' }, body, 'admin')).toBeNull();
  });

  it('reads TTL as seconds or a duration, tags as a list, and the invalidate flag', () => {
    expect(parseCacheHeaders({ 'x-svc-cache': '300' }, body, 'admin')).toEqual({ key: `${bodyHash(body)}:admin`, ttlSeconds: 300, tags: [], invalidate: false });
    expect(parseCacheHeaders({ 'x-svc-cache': '1h', 'x-svc-cache-tags': ' a,b ,,c', 'x-svc-cache-invalidate': 'TRUE' }, body, 'r')).toMatchObject({ ttlSeconds: 3600, tags: ['a', 'b', 'c'], invalidate: true });
    expect(parseCacheHeaders({ 'x-svc-cache-invalidate': '0' }, body, 'r')?.invalidate).toBe(false);
  });

  it('uses the custom key, or the body hash when it is empty, and always appends the role', () => {
    expect(parseCacheHeaders({ 'x-svc-cache-key': ' report ' }, body, 'viewer')?.key).toBe('report:viewer');
    expect(parseCacheHeaders({ 'x-svc-cache-key': '' }, body, 'viewer')?.key).toBe(`${bodyHash(body)}:viewer`);
    expect(bodyHash(body)).toMatch(/^[0-9a-f]{64}$/);
    expect(bodyHash(body)).not.toBe(bodyHash({ ...body, jq: '.x' }));
  });

  it('refuses values it cannot read', () => {
    expect(() => parseCacheHeaders({ 'x-svc-cache': '-5' }, body, 'r')).toThrow(/invalid X-Svc-Cache/);
    expect(() => parseCacheHeaders({ 'x-svc-cache': '5 fortnights' }, body, 'r')).toThrow(/invalid X-Svc-Cache/);
    expect(() => parseCacheHeaders({ 'x-svc-cache-invalidate': 'yes please' }, body, 'r')).toThrow(/invalid X-Svc-Cache-Invalidate/);
  });

  it('NoJqCache misses and stores nothing', async () => {
    const cache = new NoJqCache();
    await cache.set();
    expect(await cache.get()).toBeUndefined();
  });
});
