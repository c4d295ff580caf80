// The pure helpers: value encoding (BigInt exact), parseTtl, cacheKey. (/jq-query's cache headers: test/jq/cache.test.ts.)
import { describe, expect, it } from 'vitest';
import { cacheKey, parseTtl } from '../../src/cache/index.js';
import { decodeValue, encodeValue } from '../../src/cache/codec.js';
import { ErrorCode, PublicError } from '../../src/shared/errors.js';

function refusal(fn: () => unknown): PublicError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PublicError);
    return e as PublicError;
  }
  throw new Error('expected a refusal');
}

describe('value encoding', () => {
  it('round-trips BigInt values exactly, small and beyond 2^53, nested anywhere', () => {
    const v = { a: 9007199254740993n, b: [-12345678901234567890n, 5n, 5], c: { d: 0n }, s: 'plain', n: null };
    const back = decodeValue<typeof v>(encodeValue(v));
    expect(back).toEqual(v);
    expect(typeof back.b[1]).toBe('bigint');
    expect(typeof back.b[2]).toBe('number');
  });

  it('never revives a string that merely looks like a marker', () => {
    const v = { s: '\u0000big0123456789ab:12', t: '$bigint', big: 1n };
    expect(decodeValue(encodeValue(v))).toEqual(v);
  });

  it('leaves BigInt.prototype as it found it', () => {
    encodeValue({ a: 1n });
    expect((BigInt.prototype as { toJSON?: unknown }).toJSON).toBeUndefined();
    expect(() => JSON.stringify(1n)).toThrow();
  });
});

describe('parseTtl', () => {
  it('reads seconds and durations as milliseconds', () => {
    expect(parseTtl(300)).toBe(300_000);
    expect(parseTtl('300')).toBe(300_000);
    expect(parseTtl('30s')).toBe(30_000);
    expect(parseTtl('5m')).toBe(300_000);
    expect(parseTtl('1h')).toBe(3_600_000);
    expect(parseTtl('24h')).toBe(86_400_000);
    expect(parseTtl(0)).toBe(0);
    expect(parseTtl(undefined)).toBeUndefined();
    expect(parseTtl(null)).toBeUndefined();
    expect(parseTtl('')).toBeUndefined();
  });

  it('refuses anything else with a code and a message naming the value', () => {
    for (const bad of ['5 minutes', 'abc', '-5', '1y', 'h1'] as const) {
      const e = refusal(() => parseTtl(bad));
      expect(e.code).toBe(ErrorCode.BadUserInput);
      expect(e.status).toBe(400);
      expect(e.message).toContain(JSON.stringify(bad));
    }
    expect(refusal(() => parseTtl(-1)).code).toBe(ErrorCode.BadUserInput);
    expect(refusal(() => parseTtl(Number.NaN)).code).toBe(ErrorCode.BadUserInput);
  });
});

describe('cacheKey', () => {
  const base = { query: '{ shop { products { id } } }', variables: { a: 1, b: [1, 2] }, role: 'viewer', userId: '7', timezone: 'UTC', schemaVersion: 3 };

  it('is a stable sha256, independent of variable order', () => {
    const k = cacheKey(base);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey({ ...base, variables: { b: [1, 2], a: 1 } })).toBe(k);
    expect(cacheKey({ ...base, variables: { a: 2, b: [1, 2] } })).not.toBe(k);
  });

  it('namespaces by role, user, timezone and schema version, explicit key or not', () => {
    for (const parts of [base, { ...base, explicitKey: 'products' }]) {
      const k = cacheKey(parts);
      expect(cacheKey({ ...parts, role: 'admin' })).not.toBe(k);
      expect(cacheKey({ ...parts, userId: '8' })).not.toBe(k);
      expect(cacheKey({ ...parts, timezone: 'Europe/Berlin' })).not.toBe(k);
      expect(cacheKey({ ...parts, schemaVersion: 4 })).not.toBe(k);
    }
  });

  it('an explicit key ignores the query text but expands $variables', () => {
    const k = cacheKey({ ...base, explicitKey: 'p:$a' });
    expect(cacheKey({ ...base, query: '{ other }', explicitKey: 'p:$a' })).toBe(k);
    expect(cacheKey({ ...base, variables: { a: 2 }, explicitKey: 'p:$a' })).not.toBe(k);
    expect(cacheKey({ ...base, variables: { a: '1' }, explicitKey: 'p:$a' })).not.toBe(k);
  });
});
