// The executor's module: runs the planner's statements (one per source per level) and announces
// committed writes to whoever listens (the result cache, permission caches, subscriptions).
import { Global, Module } from '@nestjs/common';
import { type Config, parallelLimit } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { Executor } from './executor.js';
import { anonymousLimits, type ResponseLimits } from './response-budget.js';
import { WriteEvents } from './write-events.js';

const responseLimits = (c: Config): ResponseLimits => ({ rows: c.MAX_RESPONSE_ROWS, bytes: c.MAX_RESPONSE_BYTES });

@Global()
@Module({
  providers: [
    { provide: Executor, useFactory: (c: Config, log: Logger) => new Executor(log, c.DEBUG, parallelLimit(c), c.ALLOW_PARALLEL, {
        share: c.SOURCE_ROLE_SHARE, anonymousShare: c.ANONYMOUS_SOURCE_SHARE, queue: c.SOURCE_QUEUE_SIZE, waitMs: c.SOURCE_QUEUE_TIMEOUT,
      }, responseLimits(c), anonymousLimits(responseLimits(c), { rows: c.ANONYMOUS_MAX_RESPONSE_ROWS, bytes: c.ANONYMOUS_MAX_RESPONSE_BYTES })), inject: [CONFIG, LOGGER] },
    { provide: WriteEvents, useFactory: () => new WriteEvents() },
  ],
  exports: [Executor, WriteEvents],
})
export class ExecutorModule {}
