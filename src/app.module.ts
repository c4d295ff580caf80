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
import { createGraphqlServer } from './http/graphql-server.js';
import { HealthController } from './http/health.controller.js';
import { MetricsController } from './http/metrics.controller.js';
import { QueryController } from './http/query.controller.js';
import { IpcController } from './http/ipc/ipc.controller.js';
import { IpcSocketServer } from './http/ipc/ipc.socket.js';
import { SubscriptionServer } from './http/subscribe/subscribe.server.js';
import { APOLLO } from './pipeline/tokens.js';
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
   * `imports` are a team's own Nest modules (e.g. codegen's `ShopSourceModule`); the runtime is
   * global, so their providers can inject `SvcRuntime` or a generated typed client.
   */
  static forRoot(config: Config, log: Logger, imports: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: AppModule,
      global: true,
      // /jq-query results go to the same result cache as @cache (SPEC §9 headers).
      // ExtensionsModule merges the GraphQL fields of these modules' resolvers (docs/extending.md).
      imports: [JqModule.withCache({ useFactory: (rt: SvcRuntime) => new ResultJqCache(rt.cache), inject: [SvcRuntime] }), ExtensionsModule, ...(imports ?? [])],
      exports: [SvcRuntime, CONFIG, LOGGER, IdentityService, RoleGate, APOLLO],
      controllers: [QueryController, IpcController, HealthController, MetricsController, ...(config.ADMIN_UI ? [AdminController] : [])],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: log },
        { provide: SvcRuntime, useFactory: () => SvcRuntime.start(config, log) },
        {
          provide: APOLLO,
          useFactory: (rt: SvcRuntime, jq: JqEngine) => createGraphqlServer(config, rt.schema, rt.writes, rt.roleSchemas, log, { engine: jq, permissions: rt.permissions }),
          inject: [SvcRuntime, JqEngine],
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
