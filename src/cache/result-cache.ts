// The result cache of SPEC §9: L1 (in-process LRU) in front of L2 (Redis), tags, invalidation that
// reaches every process, and single flight. Callers see one small API; which stores are on comes
// from the config, and with neither on every call passes straight through to `compute`.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config/schema.js';
import type { Logger } from '../shared/logger.js';
import { decodeValue, encodeValue } from './codec.js';
import { MemoryStore, type StoredEntry } from './l1.js';
import { RedisStore, type InvalidationMessage } from './l2.js';
import { cacheMetrics } from './metrics.js';
import { cacheOptionsFromConfig, type ResultCacheOptions } from './options.js';

export interface CacheEntryOptions {
  /** Lifetime in ms; 0 = no expiry (until evicted or invalidated); negative = do not store. */
  readonly ttlMs: number;
  /** Groups for invalidation: explicit `@cache(tags:)` plus the names of the data objects read. */
  readonly tags: readonly string[];
}

export interface CacheStats {
  readonly l1Hits: number;
  readonly l2Hits: number;
  readonly misses: number;
  readonly evictions: number;
  readonly l1Bytes: number;
  readonly l1Entries: number;
}

interface Flight {
  readonly value: unknown;
  /** The stored form; waiters decode their own copy so no two requests share one object. */
  readonly text: string | undefined;
  readonly hit: boolean;
}

export class ResultCache {
  readonly enabled: boolean;
  readonly defaultTtlMs: number;
  private readonly flights = new Map<string, Promise<Flight>>();
  /** Bumped by every invalidation: a result computed across one is returned but not stored. */
  private epoch = 0;
  private readonly counts = { l1Hits: 0, l2Hits: 0, misses: 0, evictions: 0 };
  private readonly l1: MemoryStore | undefined;
  private l2: RedisStore | undefined;
  readonly instanceId = randomUUID();

  private constructor(
    options: ResultCacheOptions,
    private readonly log: Logger,
  ) {
    this.defaultTtlMs = options.defaultTtlMs;
    this.enabled = Boolean(options.l1 || options.l2);
    this.l1 = options.l1
      ? new MemoryStore(options.l1.maxBytes, options.l1.maxItemBytes, {
          evicted: (n) => {
            this.counts.evictions += n;
            cacheMetrics.evictions.inc(n);
          },
          resized: (bytes, entries) => {
            cacheMetrics.l1Bytes.inc(bytes);
            cacheMetrics.l1Entries.inc(entries);
          },
        })
      : undefined;
  }

  /** L1 and/or L2 as configured (SPEC §2 CACHE_*); `overrides` for tests and tools. */
  static create(config: Config, log: Logger, overrides: Partial<ResultCacheOptions> = {}): Promise<ResultCache> {
    return ResultCache.open({ ...cacheOptionsFromConfig(config), ...overrides }, log);
  }

  static async open(options: ResultCacheOptions, log: Logger): Promise<ResultCache> {
    const cache = new ResultCache(options, log);
    if (options.l1 && options.l1.maxItemBytes < 1024) {
      log.warn({ maxItemBytes: options.l1.maxItemBytes }, 'cache: CACHE_L1_MAX_ITEM_SIZE is in bytes; this ceiling keeps almost every result out of L1');
    }
    if (options.l2) {
      cache.l2 = await RedisStore.open(
        { ...options.l2, prefix: options.prefix, commandTimeoutMs: options.commandTimeoutMs },
        log,
        cache.instanceId,
        { message: (m) => cache.received(m), resubscribed: () => cache.resync() },
        options.connectWaitMs,
      );
    }
    return cache;
  }

  /** Single flight: concurrent callers of one key run `compute` once; others await its result. */
  /** `keep`: whether a computed value may be stored (a partial answer is not). */
  async wrap<T>(key: string, options: CacheEntryOptions, compute: () => Promise<T>, opts: { refresh?: boolean; keep?: (value: T) => boolean } = {}): Promise<{ value: T; hit: boolean }> {
    if (!this.enabled) return { value: await compute(), hit: false };
    if (!opts.refresh) {
      const running = this.flights.get(key);
      if (running) {
        cacheMetrics.coalesced.inc();
        const f = await running;
        return { value: (f.text === undefined ? f.value : this.decodeOr(f.text, f.value)) as T, hit: f.hit };
      }
    }
    const flight = this.fly(key, options, compute, Boolean(opts.refresh), opts.keep as ((value: unknown) => boolean) | undefined);
    // A refresh replaces a running flight: later callers must get the fresh result, not the old one.
    this.flights.set(key, flight);
    try {
      const f = await flight;
      return { value: f.value as T, hit: f.hit };
    } finally {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    }
  }

  async get<T>(key: string): Promise<T | undefined> {
    if (!this.enabled) return undefined;
    const found = await this.lookup(key);
    if (!found) return undefined;
    try {
      return decodeValue<T>(found.text);
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown, options: CacheEntryOptions): Promise<void> {
    if (!this.enabled) return;
    await this.store(key, encodeValue(value), options);
  }

  /** Drops every entry carrying any of the tags; no tags = everything. Returns entries removed (best effort). */
  async invalidate(tags?: readonly string[]): Promise<number> {
    if (!this.enabled) return 0;
    this.epoch++;
    cacheMetrics.invalidations.inc({ origin: 'local' });
    const all = !tags || tags.length === 0;
    const dropLocal = (): number => (this.l1 ? (all ? this.l1.clear() : this.l1.invalidate(tags)) : 0);
    const local = dropLocal();
    const shared = this.l2 ? await this.l2.invalidate(all ? null : [...new Set(tags)]) : 0;
    // Again: a lookup may have refilled L1 from L2 before Redis had deleted the entries.
    dropLocal();
    // L1 and L2 usually hold the same entries, so the larger count is the better estimate.
    return Math.max(local, shared);
  }

  async stop(): Promise<void> {
    await this.l2?.close();
    this.l2 = undefined;
    this.flights.clear();
  }

  /** Whether the shared store is connected now (false when it is off). */
  get l2Ready(): boolean {
    return this.l2?.ready ?? false;
  }

  stats(): CacheStats {
    return { ...this.counts, l1Bytes: this.l1?.bytes ?? 0, l1Entries: this.l1?.size ?? 0 };
  }

  private async fly(key: string, options: CacheEntryOptions, compute: () => Promise<unknown>, refresh: boolean, keep?: (value: unknown) => boolean): Promise<Flight> {
    if (!refresh) {
      const found = await this.lookup(key);
      if (found) {
        try {
          return { value: decodeValue(found.text), text: found.text, hit: true };
        } catch {
          // a value this version cannot read: compute it again below
        }
      }
    }
    const epoch = this.epoch;
    const value = await compute();
    if (keep && !keep(value)) return { value, text: undefined, hit: false };
    let text: string | undefined;
    try {
      text = encodeValue(value);
    } catch (e) {
      this.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'cache: result is not JSON-serialisable; not cached');
    }
    // An invalidation while computing may mean the result already misses a write.
    if (text !== undefined && epoch === this.epoch) await this.store(key, text, options);
    return { value, text, hit: false };
  }

  private async lookup(key: string): Promise<StoredEntry | undefined> {
    const now = Date.now();
    const local = this.l1?.get(key, now);
    if (local) {
      this.counts.l1Hits++;
      cacheMetrics.hits.inc({ level: 'l1' });
      return local;
    }
    const epoch = this.epoch;
    const shared = this.l2 ? await this.l2.get(key) : undefined;
    if (shared) {
      this.counts.l2Hits++;
      cacheMetrics.hits.inc({ level: 'l2' });
      // Not into L1 when an invalidation ran meanwhile: the copy may be one it just deleted.
      if (epoch === this.epoch && (!shared.expiresAt || shared.expiresAt > now)) this.l1?.set(key, shared);
      return shared;
    }
    this.counts.misses++;
    cacheMetrics.misses.inc();
    return undefined;
  }

  private async store(key: string, text: string, options: CacheEntryOptions): Promise<void> {
    if (!(options.ttlMs >= 0)) return;
    const entry: StoredEntry = { text, tags: [...new Set(options.tags)], expiresAt: options.ttlMs ? Date.now() + options.ttlMs : 0 };
    this.l1?.set(key, entry);
    await this.l2?.set(key, entry, options.ttlMs);
  }

  private decodeOr(text: string, fallback: unknown): unknown {
    try {
      return decodeValue(text);
    } catch {
      return fallback;
    }
  }

  private readonly remoteListeners = new Set<(tags: readonly string[] | undefined) => void>();

  /**
   * Invalidations published by other processes sharing L2: caches kept outside this one (role
   * permissions, managed keys) hear them here, so a change made on one node applies on all (SPEC §12).
   */
  onRemoteInvalidation(listener: (tags: readonly string[] | undefined) => void): void {
    this.remoteListeners.add(listener);
  }

  /** Another process invalidated: drop our L1 copies (L2 was handled by the sender). */
  private received(msg: InvalidationMessage): void {
    this.epoch++;
    cacheMetrics.invalidations.inc({ origin: 'remote' });
    for (const l of this.remoteListeners) l(msg.tags?.length ? msg.tags : undefined);
    if (!this.l1) return;
    if (msg.tags === null || msg.tags.length === 0) this.l1.clear();
    else this.l1.invalidate(msg.tags);
  }

  /** The subscription came back after a gap: invalidations may have been missed, so L1 starts over. */
  private resync(): void {
    this.epoch++;
    this.l1?.clear();
    for (const l of this.remoteListeners) l(undefined);
  }
}
