// Runs the jq() fields of an operation once Apollo has its result (src/jq/fields.ts), as the
// request's caller: its zone for the time functions, its role for querySvc (SPEC §8). The app adds
// it to Apollo's plugins after the response plugin (src/app.module.ts).
import type { ApolloServerPlugin, GraphQLRequestContextWillSendResponse } from '@apollo/server';
import type { RequestContext } from '../executor/request-context.js';
import type { InProcessClient } from '../pipeline/in-process.js';
import type { JqEngine } from './engine.js';
import { mentionsJq } from '../pipeline/jq-field.js';
import { applyJqFields } from './fields.js';

export interface JqFieldsPluginDeps {
  readonly engine: JqEngine;
  /** Runs querySvc as the request's caller (its answers formatted as /query's). */
  readonly client: InProcessClient;
}

export function jqFieldsPlugin(deps: JqFieldsPluginDeps): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse(rc: GraphQLRequestContextWillSendResponse<RequestContext>) {
          const body = rc.response.body;
          if (body.kind !== 'single' || !rc.document || !mentionsJq(rc.document)) return;
          const caller = rc.contextValue;
          await applyJqFields({
            result: body.singleResult,
            document: rc.document,
            operationName: rc.operationName,
            variables: rc.request.variables,
            engine: deps.engine,
            requestStarted: caller.started,
            context: { identity: caller.identity, timezone: caller.timezone, querySvc: deps.client.querySvc(caller) },
          });
        },
      };
    },
  };
}
