// The Nest application: providers wrap the runtime (src/system/runtime.ts); controllers are the
// HTTP surface of SPEC §1.
import { type DynamicModule, Inject, Injectable, Module, type ModuleMetadata, type OnApplicationShutdown } from '@nestjs/common';
import type { ApolloServer } from '@apollo/server';
import { IdentityService } from './auth/identity.service.js';
import type { Config } from './config/schema.js';
import type { RequestContext } from './executor/request-context.js';
import { AdminController } from './http/admin.controller.js';
import { JqEngine } from './jq/engine.js';
import { JqModule } from './jq/jq.module.js';
import { ResultJqCache } from './cache/index.js';
import { createGraphqlServer, formatError } from './pipeline/graphql-server.js';
import { jqFieldsPlugin } from './jq/apollo-plugin.js';
import { RequestContextFactory } from './pipeline/context.factory.js';
import { InProcessClient } from './pipeline/in-process.js';
import { SchemaService } from './pipeline/schema.service.js';
import { requestGuard, type RequestLimits } from './pipeline/limits/cost-limit.js';
import { SvcGuard } from './pipeline/svc.guard.js';
import { FieldStageDiscovery, FieldStages } from './pipeline/field-stage.js';
import { DiscoveryModule } from '@nestjs/core';
import { HealthController } from './http/health.controller.js';
import { MetricsController } from './http/metrics.controller.js';
import { QueryController } from './http/query.controller.js';
import { IpcController } from './http/ipc/ipc.controller.js';
import { IpcSocketServer } from './http/ipc/ipc.socket.js';
import { SubscriptionServer } from './http/subscribe/subscribe.server.js';
import { APOLLO, LIMITS } from './pipeline/tokens.js';
import { CONFIG } from './config/tokens.js';
import { RoleGate } from './permissions/roles.js';
import { LOGGER, type Logger } from './shared/logger.js';
import { SvcRuntime } from './system/runtime.js';
import { coreObject } from './system/core-catalog.js';
import { ExtensionsModule } from './extensions/extensions.module.js';

@Injectable()
class Shutdown implements OnApplicationShutdown {
  constructor(
    @Inject(SvcRuntime) private readonly runtime: SvcRuntime,
    @Inject(APOLLO) private readonly apollo: ApolloServer<RequestContext>,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.apollo.stop();
    await this.runtime.stop();
  }
}

@Module({})
export class AppModule {
  /**
   * `imports` are a team's own Nest modules (e.g. codegen's `ShopSourceModule`). The module is
   * global: their controllers can use `SvcGuard`, their providers inject `RequestContextFactory`,
   * `InProcessClient`, a generated typed client, or add a field stage (`@FieldStageProvider()`).
   */
  static forRoot(config: Config, log: Logger, imports: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: AppModule,
      global: true,
      // /jq-query results go to the same result cache as @cache (SPEC §9 headers).
      // ExtensionsModule merges the GraphQL fields of these modules' resolvers (docs/extending.md).
      imports: [DiscoveryModule, JqModule.withCache({ useFactory: (rt: SvcRuntime) => new ResultJqCache(rt.cache), inject: [SvcRuntime] }), ExtensionsModule, ...(imports ?? [])],
      exports: [SvcRuntime, CONFIG, LOGGER, IdentityService, RoleGate, APOLLO, LIMITS, RequestContextFactory, InProcessClient, SvcGuard, SchemaService, FieldStages],
      controllers: [QueryController, IpcController, HealthController, MetricsController, ...(config.ADMIN_UI ? [AdminController] : [])],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: log },
        { provide: SvcRuntime, useFactory: () => SvcRuntime.start(config, log) },
        { provide: LIMITS, useValue: requestGuard(config) },
        // The served schema, for what reads it outside Apollo (the prepared fast path of /query).
        { provide: SchemaService, useFactory: (rt: SvcRuntime) => rt.schema, inject: [SvcRuntime] },
        {
          // The only maker of request contexts (src/pipeline/context.factory.ts).
          provide: RequestContextFactory,
          useFactory: (rt: SvcRuntime, identities: IdentityService, roles: RoleGate) => new RequestContextFactory(identities, roles, rt.permissions, config),
          inject: [SvcRuntime, IdentityService, RoleGate],
        },
        {
          provide: InProcessClient,
          useFactory: (rt: SvcRuntime, contexts: RequestContextFactory, limits: RequestLimits) => new InProcessClient(rt.schema, rt.writes, contexts, limits),
          inject: [SvcRuntime, RequestContextFactory, LIMITS],
        },
        SvcGuard,
        // Field stages of every module (`@FieldStageProvider()`) join svc's own at start.
        { provide: FieldStages, useFactory: (rt: SvcRuntime) => rt.stages, inject: [SvcRuntime] },
        FieldStageDiscovery,
        {
          provide: APOLLO,
          useFactory: (rt: SvcRuntime, jq: JqEngine, client: InProcessClient) => {
            const format = formatError(log);
            // jq() fields are transformed once the whole result exists (SPEC §8), querySvc as the caller.
            const jqFields = jqFieldsPlugin({ engine: jq, client, formatError: (e) => format(e.toJSON(), e) });
            return createGraphqlServer(config, rt.schema, rt.writes, rt.roleSchemas, log, [jqFields]);
          },
          inject: [SvcRuntime, JqEngine, InProcessClient],
        },
        {
          provide: IdentityService,
          useFactory: (rt: SvcRuntime) => {
            const identities = new IdentityService(config, rt.core);
            // Managed keys are cached (tag $AuthAPIKeys); a committed write to them drops the cache.
            rt.writes.on((objects) => objects.has(coreObject('api_keys')) && identities.forgetApiKeys());
            rt.onInvalidate((tags) => (!tags || tags.includes('$AuthAPIKeys')) && identities.forgetApiKeys());
            return identities;
          },
          inject: [SvcRuntime],
        },
        {
          provide: RoleGate,
          useFactory: (rt: SvcRuntime) => {
            const gate = new RoleGate(rt.core);
            rt.writes.on((objects) => objects.has(coreObject('roles')) && gate.forget());
            rt.onInvalidate((tags) => (!tags || tags.includes('$role_permissions')) && gate.forget());
            return gate;
          },
          inject: [SvcRuntime],
        },
        Shutdown,
        SubscriptionServer,
        IpcSocketServer,
      ],
    };
  }
}
