// A mutation invalidates the tags of the objects it writes (SPEC §9): every committed set of
// written data-object names (src/executor/write-events.ts) becomes one invalidation of those tags,
// which reaches L1 and L2 of every process sharing Redis.
import type { WriteEvents } from '../executor/write-events.js';
import type { Logger } from '../shared/logger.js';
import type { ResultCache } from './result-cache.js';

/** Returns the unsubscribe function. Invalidation failures are logged; they never fail the write. */
export function subscribeWrites(cache: ResultCache, writes: WriteEvents, log?: Logger): () => void {
  if (!cache.enabled) return () => undefined;
  return writes.on((objects) => {
    cache.invalidate([...objects]).catch((e: unknown) => {
      log?.warn({ err: e instanceof Error ? e.message : String(e), objects: [...objects] }, 'cache: invalidation after a write failed');
    });
  });
}
