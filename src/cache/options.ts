// From the typed Config (SPEC §2 CACHE_*) to the options the cache runs with. Units are decided
// here once: CACHE_L1_MAX_SIZE is megabytes (SPEC §2), CACHE_L1_MAX_ITEM_SIZE is bytes
// (docs/cache.md, "Decisions").
import type { Config } from '../config/schema.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { parseTtl } from '../shared/ttl.js';
import type { RedisOptions } from './l2.js';

export interface ResultCacheOptions {
  /** Lifetime of entries whose caller gives none (`@cache` without ttl); 0 = no expiry. */
  readonly defaultTtlMs: number;
  readonly l1?: { readonly maxBytes: number; readonly maxItemBytes: number };
  /** The Redis connection; prefix and timeout are shared with the rest of the cache (below). */
  readonly l2?: Omit<RedisOptions, 'prefix' | 'commandTimeoutMs'>;
  /** Namespace of every Redis key and of the pub/sub channel. */
  readonly prefix: string;
  /** A Redis command slower than this is a miss; keeps a stuck Redis from stalling requests. */
  readonly commandTimeoutMs: number;
  /** How long start-up waits for the first Redis connection before going on without it. */
  readonly connectWaitMs: number;
}

export const DEFAULT_PREFIX = 'svc:';
const MB = 1024 * 1024;
const DEFAULT_L1_MB = 128;

export function cacheOptionsFromConfig(config: Config): ResultCacheOptions {
  const c = config.cache ?? {};
  // CACHE_TTL defaults to 0, so a non-zero value is one somebody set; otherwise the YAML cache.ttl.
  const flat = config.CACHE_TTL;
  const ttl = flat !== undefined && flat !== 0 && flat !== '0' && flat !== '' ? flat : c.ttl;
  const defaultTtlMs = parseTtl(ttl) ?? 0;
  let l1: ResultCacheOptions['l1'];
  if (c.l1?.enabled) {
    const maxBytes = (c.l1.max_size && c.l1.max_size > 0 ? c.l1.max_size : DEFAULT_L1_MB) * MB;
    // Without a ceiling one result could push out everything else; a quarter of the cache is the default.
    const maxItemBytes = c.l1.max_item_size && c.l1.max_item_size > 0 ? c.l1.max_item_size : Math.floor(maxBytes / 4);
    l1 = { maxBytes, maxItemBytes };
  }
  let l2: ResultCacheOptions['l2'];
  if (c.l2?.enabled) {
    const address = c.l2.addresses.map((a) => a.trim()).find(Boolean);
    if (!address) throw new PublicError(ErrorCode.ConfigInvalid, 'CACHE_L2_ENABLED is true but CACHE_L2_ADDRESSES is empty: give host:port of the Redis server');
    l2 = {
      address,
      ...(c.l2.database !== undefined ? { database: c.l2.database } : {}),
      ...(c.l2.username ? { username: c.l2.username } : {}),
      ...(c.l2.password ? { password: c.l2.password } : {}),
    };
  }
  return { defaultTtlMs, l1, l2, prefix: c.l2?.prefix || DEFAULT_PREFIX, commandTimeoutMs: 250, connectWaitMs: 1000 };
}
