// The result cache (SPEC §9). See docs/cache.md.
export { ResultCache, type CacheEntryOptions, type CacheStats } from './result-cache.js';
export { cacheOptionsFromConfig, DEFAULT_PREFIX, type ResultCacheOptions } from './options.js';
export { parseTtl } from '../shared/ttl.js';
export { cacheKey, expandKey, hashBody, type CacheKeyParts } from './keys.js';
export { ResultJqCache } from './jq-adapter.js';
export { subscribeWrites } from './writes.js';
export { cacheMetrics } from './metrics.js';
