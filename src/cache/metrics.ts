// Prometheus metrics of the result cache (SPEC §9, served on /metrics by the HTTP layer). They live
// in their own registry so the caller decides where to expose them: serve it directly or combine it
// with others through prom-client's `Registry.merge([register, cacheMetrics.registry])`.
import { Counter, Gauge, Registry } from 'prom-client';

const registry = new Registry();

export const cacheMetrics = {
  registry,
  hits: new Counter({ name: 'svc_cache_hits_total', help: 'Result cache hits by level', labelNames: ['level'] as const, registers: [registry] }),
  misses: new Counter({ name: 'svc_cache_misses_total', help: 'Result cache lookups that found nothing', registers: [registry] }),
  evictions: new Counter({ name: 'svc_cache_evictions_total', help: 'L1 entries evicted to stay within CACHE_L1_MAX_SIZE', registers: [registry] }),
  coalesced: new Counter({ name: 'svc_cache_coalesced_total', help: 'Misses that waited for a computation already running for the same key', registers: [registry] }),
  invalidations: new Counter({ name: 'svc_cache_invalidations_total', help: 'Invalidation requests (local and received from other processes)', labelNames: ['origin'] as const, registers: [registry] }),
  l2Errors: new Counter({ name: 'svc_cache_l2_errors_total', help: 'Redis commands that failed or timed out (each counted as a miss or a skipped write)', registers: [registry] }),
  l1Bytes: new Gauge({ name: 'svc_cache_l1_bytes', help: 'Bytes held by the in-process cache', registers: [registry] }),
  l1Entries: new Gauge({ name: 'svc_cache_l1_entries', help: 'Entries held by the in-process cache', registers: [registry] }),
  l2Up: new Gauge({ name: 'svc_cache_l2_up', help: '1 while the Redis cache is connected, 0 while it is away', registers: [registry] }),
};
