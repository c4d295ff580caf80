// Prepared operations (issue 16 item 2): a query the fast path answered once (plugin.ts) is known to
// parse, validate and be a query of catalog reads. The next POST /query with the same text and
// operation name, on the same served schema, is answered here without Apollo: the variables are
// coerced and the cost limits checked as Apollo's plugins would, then answer.ts runs the root
// fields through their resolvers as always. Whatever the fast path cannot answer whole goes to
// Apollo, with the answers already fetched waiting in the request context.
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { getVariableValues } from 'graphql';
import type { RequestContext } from '../../executor/request-context.js';
import type { RequestLimits } from '../limits/cost-limit.js';
import { fitBigInts, hasBigInt } from '../exact-json.js';
import { scopeOf } from '../../shared/request-scope.js';
import { stringifyResponse } from '../../shared/json.js';
import { preparedAnswers } from '../metrics.js';
import { answerFast } from './answer.js';
import { statsExtensions } from '../stages/stats-tree.js';

interface Prepared {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
}

/** Operations remembered per served schema (a swapped schema starts empty). */
const PER_SCHEMA = 1000;

class PreparedOperations {
  private readonly bySchema = new WeakMap<GraphQLSchema, Map<string, Prepared>>();

  private static key(query: string, operationName: string | null | undefined): string {
    return `${operationName ?? ''}\u0000${query}`;
  }

  remember(schema: GraphQLSchema, query: string, operationName: string | null | undefined, document: DocumentNode, operation: OperationDefinitionNode): void {
    let m = this.bySchema.get(schema);
    if (!m) this.bySchema.set(schema, (m = new Map()));
    const key = PreparedOperations.key(query, operationName);
    if (m.has(key)) return;
    if (m.size >= PER_SCHEMA) m.delete(m.keys().next().value as string);
    m.set(key, { document, operation });
  }

  get(schema: GraphQLSchema, query: string, operationName: string | null | undefined): Prepared | undefined {
    return this.bySchema.get(schema)?.get(PreparedOperations.key(query, operationName));
  }
}

export const preparedOperations = new PreparedOperations();

/** True when Apollo would answer this Accept header with application/json (SPEC §1). */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept || accept === '*/*' || accept === 'application/json') return true;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return !types.includes('application/graphql-response+json') && (types.includes('application/json') || types.includes('*/*'));
}

/**
 * The response body of a POST /query request whose operation is prepared and answered whole by the
 * fast path; undefined sends the request on to Apollo.
 */
export function answerPrepared(
  schema: GraphQLSchema, body: unknown, ctx: RequestContext, guard: RequestLimits, accept: string | undefined,
): Promise<string | undefined> {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !acceptsJson(accept) || ctx.jqPrograms.length) return NOT_PREPARED;
  const b = body as { query?: unknown; operationName?: unknown; variables?: unknown; extensions?: unknown };
  if (typeof b.query !== 'string' || b.extensions !== undefined) return NOT_PREPARED;
  if (b.operationName !== undefined && b.operationName !== null && typeof b.operationName !== 'string') return NOT_PREPARED;
  const prepared = preparedOperations.get(schema, b.query, b.operationName);
  if (!prepared) return NOT_PREPARED;
  if (b.variables !== undefined && b.variables !== null && (typeof b.variables !== 'object' || Array.isArray(b.variables))) return NOT_PREPARED;
  // One `then` rather than an async function's own promise and await (issue 30).
  return answerWith(schema, prepared, b.variables as Record<string, unknown> | null | undefined, ctx, guard).then((text) => {
    preparedAnswers.inc([text === undefined ? 'apollo' : 'answered']);
    return text;
  });
}

const NOT_PREPARED: Promise<undefined> = Promise.resolve(undefined);

async function answerWith(
  schema: GraphQLSchema, { document, operation }: Prepared, variables: Record<string, unknown> | null | undefined, ctx: RequestContext, guard: RequestLimits,
): Promise<string | undefined> {
  // As Apollo's plugins do before execution (src/pipeline/exact-json.ts, src/pipeline/limits/cost-limit.ts).
  const sent = { ...(variables ?? {}) };
  if (hasBigInt(sent)) fitBigInts(schema, operation, sent);
  // An operation without variable definitions coerces to no variables, whatever was sent.
  const coerced = operation.variableDefinitions?.length ? getVariableValues(schema, operation.variableDefinitions, sent) : { coerced: {} };
  if (coerced.errors || guard.check?.(schema, document, operation, sent, ctx.identity)) return undefined;
  const scope = scopeOf(ctx);
  if (scope) scope.operation ??= operation.name?.value ?? operation.operation;
  const data = await answerFast(schema, document, operation, coerced.coerced, ctx);
  if (!data) return undefined;
  return stringifyResponse({ data, extensions: statsExtensions(ctx, operation) ?? {} });
}
