// The fast path (issue 16) inside Apollo: a query whose root fields are catalog reads, each compiled
// whole into its statement, is answered without graphql-js (answer.ts). When the database's JSON
// is already the answer (the common case) it goes into the response as text, never parsed into
// objects and stringified again. Anything the fast path cannot prove identical (an error, a null
// in a non-null field, a value its scalar would change) is completed by graphql-js, from the
// answers already fetched. An operation answered this way is remembered (prepared.ts), so the
// next request with the same text skips Apollo altogether.
import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { getVariableValues } from 'graphql';
import type { RequestContext } from '../../executor/request-context.js';
import { mentionsJq } from '../jq-field.js';
import { answerFast } from './answer.js';
import { preparedOperations } from './prepared.js';

export function fastPathPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async responseForOperation(rc) {
          const operation = rc.operation;
          const schema = rc.schema;
          const ctx = rc.contextValue;
          // Answers the prepared route fetched already are completed by graphql-js.
          if (ctx.prefetched.size) return null;
          if (!operation || operation.operation !== 'query' || !rc.document || mentionsJq(rc.document)) return null;
          // A request sampled for a field-level trace (Apollo Studio, federation ftv1) is executed by
          // graphql-js, whose resolver calls the trace records.
          if (rc.metrics.captureTraces) return null;
          const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rc.request.variables ?? {});
          if (coerced.errors) return null;
          const data = await answerFast(schema, rc.document, operation, coerced.coerced, ctx);
          if (!data) return null;
          if (typeof rc.request.query === 'string' && !ctx.jqPrograms.length) preparedOperations.remember(schema, rc.request.query, rc.request.operationName, rc.document, operation);
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data } } } as GraphQLResponse;
        },
      };
    },
  };
}
