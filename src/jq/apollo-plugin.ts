// Runs the jq() fields of an operation once Apollo has its result (src/jq/fields.ts). Added to
// Apollo's plugins after responsePlugin (src/http/graphql-server.ts); see src/jq/wiring.md.
import type { ApolloServerPlugin, GraphQLRequestContextWillSendResponse } from '@apollo/server';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import type { WriteEvents } from '../executor/write-events.js';
import type { PermissionService } from '../permissions/service.js';
import type { SchemaService } from '../schema/service.js';
import type { JqEngine } from './engine.js';
import { applyJqFields, mentionsJq } from './fields.js';
import type { InProcessGuard } from '../executor/in-process.js';
import { inProcessQueryRunner } from './query-runner.js';

export interface JqFieldsPluginDeps {
  readonly engine: JqEngine;
  readonly schemas: SchemaService;
  readonly writes?: WriteEvents;
  readonly permissions?: PermissionService;
  /** How /query formats errors, for querySvc answers (graphql-server.ts `formatError`). */
  readonly formatError?: (error: GraphQLError) => GraphQLFormattedError;
  /** The request limits, so querySvc calls are bounded as /query is. */
  readonly guard?: InProcessGuard;
}

export function jqFieldsPlugin(deps: JqFieldsPluginDeps): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse(rc: GraphQLRequestContextWillSendResponse<RequestContext>) {
          const body = rc.response.body;
          if (body.kind !== 'single' || !rc.document || !mentionsJq(rc.document)) return;
          const identity = rc.contextValue.identity;
          await applyJqFields({
            result: body.singleResult,
            document: rc.document,
            operationName: rc.operationName,
            variables: rc.request.variables,
            engine: deps.engine,
            context: { identity, timezone: rc.contextValue.timezone, querySvc: inProcessQueryRunner(deps, identity) },
          });
        },
      };
    },
  };
}
