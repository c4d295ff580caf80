// The store behind /jq-query caching (src/jq/cache.ts, JQ_CACHE): the jq controller already parses
// the headers and builds `<key>:<role>`; this adapter keeps the body text in the result cache.
import type { ResultCache } from './result-cache.js';

const NAMESPACE = 'jq:';

/** Satisfies `JqCache` (src/jq/cache.ts) by shape: the cache sits below jq and does not import it. */
export class ResultJqCache {
  constructor(private readonly cache: ResultCache) {}

  get(key: string): Promise<string | undefined> {
    return this.cache.get<string>(NAMESPACE + key);
  }

  set(key: string, body: string, options: { readonly ttlSeconds?: number; readonly tags: readonly string[] }): Promise<void> {
    const ttlMs = options.ttlSeconds !== undefined ? Math.round(options.ttlSeconds * 1000) : this.cache.defaultTtlMs;
    return this.cache.set(NAMESPACE + key, body, { ttlMs, tags: options.tags });
  }
}
