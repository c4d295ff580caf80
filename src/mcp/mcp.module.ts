// The MCP endpoint as a Nest module (docs/mcp.md), imported by the application when MCP_ENABLED=true.
// It adds no identity path and no execution path of its own: callers come from the context factory,
// GraphQL runs through the application's OperationRunner, jq through the jq module's engine.
import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { JqEngine } from '../jq/engine.js';
import { RoleSchemas } from '../permissions/schema-filter.js';
import { RequestContextFactory } from '../pipeline/context.factory.js';
import { InProcessClient } from '../pipeline/in-process.js';
import type { RequestLimits } from '../pipeline/limits/cost-limit.js';
import { SchemaService } from '../pipeline/schema.service.js';
import { OperationRunner } from '../pipeline/run-operation.js';
import { LIMITS } from '../pipeline/tokens.js';
import { McpController } from './mcp.controller.js';
import { RoleViews } from './role-view.js';
import { GraphqlRunner } from './runner.js';

@Module({
  controllers: [McpController],
  providers: [
    { provide: RoleViews, useFactory: (schemas: SchemaService, roleSchemas: RoleSchemas) => new RoleViews(schemas, roleSchemas), inject: [SchemaService, RoleSchemas] },
    {
      provide: GraphqlRunner,
      // The jq engine is the jq module's (one worker pool per process), found wherever it was registered.
      useFactory: (operations: OperationRunner, contexts: RequestContextFactory, refs: ModuleRef, client: InProcessClient, limits: RequestLimits, config: Config) =>
        new GraphqlRunner(operations, contexts, refs.get(JqEngine, { strict: false }), client, limits, config),
      inject: [OperationRunner, RequestContextFactory, ModuleRef, InProcessClient, LIMITS, CONFIG],
    },
  ],
})
export class McpModule {}
