// The request pipeline's module (README "The request pipeline"): the only maker of request
// contexts, the guard any controller can use, the in-process client (querySvc, generated clients),
// the request limits and the field stages around every root field. The served schema
// (`SchemaService`) is the system module's: it is rebuilt whenever a source loads or unloads.
import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { IdentityService } from '../auth/identity.service.js';
import { ResultCache } from '../cache/result-cache.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { WriteEvents } from '../executor/write-events.js';
import { RoleGate } from '../permissions/roles.js';
import { PermissionService } from '../permissions/service.js';
import { RequestContextFactory } from './context.factory.js';
import { FieldStageDiscovery, FieldStages } from './field-stage.js';
import { InProcessClient } from './in-process.js';
import { formatOwnError } from './graphql-server.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { requestGuard, type RequestLimits } from './limits/cost-limit.js';
import { SchemaService } from './schema.service.js';
import { CacheStage } from './stages/cache.stage.js';
import { StatsStage } from './stages/stats.stage.js';
import { SvcGuard } from './svc.guard.js';
import { LIMITS } from './tokens.js';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    { provide: LIMITS, useFactory: (c: Config) => requestGuard(c), inject: [CONFIG] },
    {
      provide: RequestContextFactory,
      useFactory: (identities: IdentityService, roles: RoleGate, permissions: PermissionService, c: Config) => new RequestContextFactory(identities, roles, permissions, c),
      inject: [IdentityService, RoleGate, PermissionService, CONFIG],
    },
    {
      provide: InProcessClient,
      useFactory: (schemas: SchemaService, writes: WriteEvents, contexts: RequestContextFactory, limits: RequestLimits, log: Logger) => {
        return new InProcessClient(schemas, writes, contexts, limits, formatOwnError(log), log);
      },
      inject: [SchemaService, WriteEvents, RequestContextFactory, LIMITS, LOGGER],
    },
    SvcGuard,
    // Around every root field, outermost first: @stats, the result cache, then the field stages of
    // every module (`@FieldStageProvider()`, found at start by FieldStageDiscovery).
    { provide: FieldStages, useFactory: (cache: ResultCache) => new FieldStages([new StatsStage(), new CacheStage(cache)]), inject: [ResultCache] },
    FieldStageDiscovery,
  ],
  exports: [LIMITS, RequestContextFactory, InProcessClient, SvcGuard, FieldStages],
})
export class PipelineModule {}
