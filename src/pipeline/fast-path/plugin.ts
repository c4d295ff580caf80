// The fast path (issue 16): a query whose root fields are catalog reads, each compiled whole into
// its statement, is answered without graphql-js. Each root field still runs through its own
// resolver (permission guard, plan cache, result cache, @stats, the executor), so every decision
// is the one the general path makes; only the completion differs. When the database's JSON is
// already the answer (the common case) it goes into the response as text, never parsed into
// objects and stringified again. Anything the fast path cannot prove identical (an error, a null
// in a non-null field, a value its scalar would change) is completed by graphql-js, from the
// answers already fetched.
import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import {
  type DocumentNode, type FragmentDefinitionNode, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema, Kind,
  type OperationDefinitionNode, getArgumentValues, getVariableValues,
} from 'graphql';
import type { RequestContext } from '../../executor/request-context.js';
import { accessOf, scopeOf } from '../../permissions/access.js';
import { mentionsJq } from '../../jq/fields.js';
import { RawJson } from '../../shared/json.js';
import { fastPathAnswers } from '../metrics.js';
import { completesToItself, complete } from './complete.js';
import { ShapeCache } from './shape-cache.js';
import type { OperationShape, RootShape } from './shape.js';

type Settled = { readonly value: unknown } | { readonly error: unknown };

/** The root field's resolver called as graphql-js would call it. */
function runRoot(
  schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: GraphQLResolveInfo['fragments'], ctx: RequestContext,
  variables: Record<string, unknown>, root: RootShape,
): Promise<unknown> {
  const query = schema.getQueryType()!;
  const info: GraphQLResolveInfo = {
    fieldName: root.field.name, fieldNodes: root.nodes, returnType: root.field.type, parentType: query,
    path: { prev: undefined, key: root.key, typename: query.name }, schema, fragments, rootValue: undefined, operation, variableValues: variables,
  };
  const args = getArgumentValues(root.field, root.nodes[0]!, variables);
  const resolve = root.field.resolve as GraphQLFieldResolver<unknown, RequestContext>;
  return Promise.resolve(resolve(undefined, args, ctx, info));
}

function fragmentsOf(document: DocumentNode): GraphQLResolveInfo['fragments'] {
  const out: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out[d.name.value] = d;
  return out;
}

/** The completed answer of one root field, or undefined when graphql-js must complete it. */
function completed(root: RootShape, value: unknown): unknown {
  const raw = value instanceof RawJson ? value : undefined;
  const parsed = raw ? raw.parse() : value;
  try {
    if (completesToItself(root.out, parsed)) return raw ?? parsed;
    return complete(root.out, parsed);
  } catch {
    return undefined;
  }
}

export function fastPathPlugin(): ApolloServerPlugin<RequestContext> {
  const shapes = new ShapeCache();
  return {
    async requestDidStart() {
      return {
        async responseForOperation(rc) {
          const operation = rc.operation;
          const schema = rc.schema;
          if (!operation || operation.operation !== 'query' || !rc.document || mentionsJq(rc.document)) return null;
          // A request sampled for a field-level trace (Apollo Studio, federation ftv1) is executed by
          // graphql-js, whose resolver calls the trace records.
          if (rc.metrics.captureTraces) return null;
          const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rc.request.variables ?? {});
          if (coerced.errors) return null;
          const variables = coerced.coerced;
          const ctx = rc.contextValue;
          const fragments = fragmentsOf(rc.document);
          // The same access decisions as the field guard (src/permissions/access.ts).
          const scope = scopeOf(schema);
          if (!scope) return null;
          const shape: OperationShape | undefined = shapes.get(schema, operation, fragments, variables, accessOf(ctx.access, scope));
          if (!shape) return null;
          const roots = shape.filter((r): r is RootShape => 'field' in r);
          ctx.rawJson = true;
          let settled: Settled[];
          try {
            settled = await Promise.all(
              roots.map((r) => {
                try {
                  return runRoot(schema, operation, fragments, ctx, variables, r).then((value) => ({ value }), (error: unknown) => ({ error }));
                } catch (error) {
                  return { error };
                }
              }),
            );
          } finally {
            ctx.rawJson = false;
          }
          const data: Record<string, unknown> = {};
          let whole = true;
          roots.forEach((r, i) => {
            const s = settled[i]!;
            const v = 'error' in s ? undefined : completed(r, s.value);
            if (v === undefined) whole = false;
            else data[r.key] = v;
          });
          if (!whole) {
            fastPathAnswers.inc({ outcome: 'general' });
            // graphql-js completes the whole operation from the answers already fetched.
            roots.forEach((r, i) => {
              const s = settled[i]!;
              ctx.prefetched.set(r.key, 'error' in s ? s : { value: s.value instanceof RawJson ? s.value.parse() : s.value });
            });
            return null;
          }
          fastPathAnswers.inc({ outcome: Object.values(data).some((v) => v instanceof RawJson) ? 'spliced' : 'completed' });
          const ordered: Record<string, unknown> = {};
          for (const r of shape) ordered[r.key] = 'typename' in r ? r.typename : data[r.key];
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data: ordered } } } as GraphQLResponse;
        },
      };
    },
  };
}
