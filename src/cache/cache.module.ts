// The cache's module: the result cache of SPEC §9 (a pass-through without a store) and tag
// invalidation, which also reaches the caches kept beside it and, in a cluster, the other nodes.
import { Global, Module } from '@nestjs/common';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { WriteEvents } from '../executor/write-events.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { Invalidation } from './invalidation.js';
import { ResultCache } from './result-cache.js';
import { subscribeWrites } from './writes.js';

@Global()
@Module({
  providers: [
    {
      provide: ResultCache,
      useFactory: async (c: Config, log: Logger, writes: WriteEvents) => {
        const cache = await ResultCache.create(c, log);
        // Committed writes drop the cached results tagged with the objects written (SPEC §9).
        subscribeWrites(cache, writes, log);
        return cache;
      },
      inject: [CONFIG, LOGGER, WriteEvents],
    },
    { provide: Invalidation, useFactory: (cache: ResultCache) => new Invalidation(cache), inject: [ResultCache] },
  ],
  exports: [ResultCache, Invalidation],
})
export class CacheModule {}
