// The Nest application: the node's modules (src/system/node.module.ts), Apollo and the controllers
// of the HTTP surface of SPEC §1.
import { type DynamicModule, Inject, Injectable, Module, type ModuleMetadata, type OnApplicationShutdown } from '@nestjs/common';
import type { ApolloServer } from '@apollo/server';
import type { Config } from './config/schema.js';
import type { RequestContext } from './executor/request-context.js';
import { AdminController } from './http/admin.controller.js';
import { JqEngine } from './jq/engine.js';
import { JqModule } from './jq/jq.module.js';
import { OidcLogin } from './auth/oidc-login.js';
import { OidcLoginController } from './http/oidc-login.controller.js';
import { ResultJqCache } from './cache/index.js';
import { ResultCache } from './cache/result-cache.js';
import { WriteEvents } from './executor/write-events.js';
import { RoleSchemas } from './permissions/schema-filter.js';
import { NodeModule } from './system/node.module.js';
import { NodeBoot, NodeStop } from './system/system.module.js';
import { createGraphqlServer } from './pipeline/graphql-server.js';
import { jqFieldsPlugin } from './jq/apollo-plugin.js';
import { InProcessClient } from './pipeline/in-process.js';
import { SchemaService } from './pipeline/schema.service.js';
import { DiscoveryModule } from '@nestjs/core';
import { HealthController } from './http/health.controller.js';
import { MetricsController } from './http/metrics.controller.js';
import { QUERY_THROUGH_NEST, QueryController, QueryRoute } from './http/query.route.js';
import { globalEnhancers } from './http/global-enhancers.js';
import { IpcController } from './http/ipc/ipc.controller.js';
import { IpcSocketServer } from './http/ipc/ipc.socket.js';
import { SubscriptionServer } from './http/subscribe/subscribe.server.js';
import { APOLLO, LIMITS } from './pipeline/tokens.js';
import { OperationRunner } from './pipeline/run-operation.js';
import type { RequestLimits } from './pipeline/limits/cost-limit.js';
import type { Logger } from './shared/logger.js';
import { ExtensionsModule } from './extensions/extensions.module.js';
import { McpModule } from './mcp/mcp.module.js';

@Injectable()
class Shutdown implements OnApplicationShutdown {
  constructor(
    @Inject(NodeStop) private readonly node: NodeStop,
    @Inject(APOLLO) private readonly apollo: ApolloServer<RequestContext>,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.apollo.stop();
    await this.node.stop();
  }
}

@Module({})
export class AppModule {
  /**
   * `imports` are a team's own Nest modules (e.g. codegen's `ShopSourceModule`). The node's modules
   * are global: a team's controllers can use `SvcGuard`, their providers inject
   * `RequestContextFactory`, `InProcessClient`, a generated typed client, or add a field stage
   * (`@FieldStageProvider()`).
   */
  static forRoot(config: Config, log: Logger, imports: ModuleMetadata['imports'] = []): DynamicModule {
    // /query below Nest's router unless a team's module registers a global guard or interceptor,
    // which must run on it as on every route (src/http/query.route.ts).
    const enhancers = globalEnhancers(imports);
    if (enhancers.length) log.info({ enhancers }, "svc: /query runs through Nest's router: a module registers a global guard or interceptor");
    return {
      module: AppModule,
      global: true,
      // /jq-query results go to the same result cache as @cache (SPEC §9 headers).
      // ExtensionsModule merges the GraphQL fields of these modules' resolvers (docs/extending.md).
      imports: [
        NodeModule.forRoot(config, log),
        DiscoveryModule,
        JqModule.withCache({ useFactory: (cache: ResultCache) => new ResultJqCache(cache), inject: [ResultCache] }),
        ExtensionsModule.forApplication((imports ?? []).length > 0),
        // /mcp, for AI agents acting as the caller (docs/mcp.md); off unless MCP_ENABLED=true.
        ...(config.MCP_ENABLED ? [McpModule] : []),
        ...(imports ?? []),
      ],
      exports: [APOLLO, OperationRunner],
      controllers: [...(enhancers.length ? [QueryController] : []), IpcController, HealthController, MetricsController, ...(config.ADMIN_UI ? [AdminController] : []), ...(OidcLogin.configured(config.auth.oidc) ? [OidcLoginController] : [])],
      providers: [
        {
          provide: APOLLO,
          useFactory: async (schema: SchemaService, writes: WriteEvents, roleSchemas: RoleSchemas, jq: JqEngine, client: InProcessClient, limits: RequestLimits) => {
            // jq() fields are transformed once the whole result exists (SPEC §8), querySvc as the caller.
            const jqFields = jqFieldsPlugin({ engine: jq, client });
            return createGraphqlServer(config, schema, writes, roleSchemas, log, limits, [jqFields]);
          },
          inject: [SchemaService, WriteEvents, RoleSchemas, JqEngine, InProcessClient, LIMITS],
        },
        {
          // The one place an operation is run (src/pipeline/run-operation.ts); every entry point calls it.
          provide: OperationRunner,
          useFactory: (apollo: ApolloServer<RequestContext>, limits: RequestLimits, schema: SchemaService, boot: NodeBoot) => {
            const runner = new OperationRunner(apollo, limits, schema, config);
            boot.afterStart(() => runner.start());
            return runner;
          },
          inject: [APOLLO, LIMITS, SchemaService, NodeBoot],
        },
        // GET and POST /query, on Fastify below Nest's router (src/http/query.route.ts says why).
        QueryRoute,
        { provide: QUERY_THROUGH_NEST, useValue: enhancers.length > 0 },
        Shutdown,
        SubscriptionServer,
        IpcSocketServer,
      ],
    };
  }
}
