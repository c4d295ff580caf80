// Runs a GraphQL operation inside the process, through the same schema, resolvers and transaction
// handling as HTTP requests: for teams' own Nest modules (typed clients from codegen), and later jq.
import { type DocumentNode, execute, type ExecutionResult, GraphQLError, type GraphQLSchema, type OperationDefinitionNode, parse, type ValidationRule, getOperationAST } from 'graphql';
import { validateOperation, validationRules } from '../http/validation.js';
import { byResponseKey } from '../schema/resolvers.js';
import type { SchemaService } from '../schema/service.js';
import { RequestContext } from './request-context.js';
import type { Identity } from '../auth/identity.js';
import type { WriteEvents } from './write-events.js';
import type { PermissionService } from '../permissions/service.js';

/** In-process callers are code, not clients: no MAX_DEPTH. */
const RULES = validationRules(0);

export const SYSTEM_IDENTITY: Identity = { role: 'admin', userId: 'system', userName: 'system', authType: 'internal' };

/**
 * The limits /query applies (MAX_DEPTH, MAX_QUERY_COST, ...), for queries a caller runs in the
 * process (querySvc); the system identity's typed clients go without.
 */
export interface InProcessGuard {
  /** graphql-js parse option: a longer document is refused before it is parsed whole. */
  readonly maxTokens?: number;
  readonly rules: readonly ValidationRule[];
  /** Refuses a request before parsing (values nested too deep for the recursive parser, too many aliases). */
  before?(query: string | undefined, variables: unknown, identity: Identity, variablesText?: string): GraphQLError | undefined;
  check(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, identity: Identity): GraphQLError | undefined;
}

export async function executeInProcess(
  schemas: SchemaService,
  request: { query: string; variables?: Record<string, unknown>; operationName?: string; identity?: Identity; reads?: Set<string>; guard?: InProcessGuard },
  writes?: WriteEvents,
  permissions?: PermissionService,
): Promise<ExecutionResult> {
  const { schema } = schemas.current;
  const early = request.guard?.before?.(request.query, request.variables ?? {}, request.identity ?? SYSTEM_IDENTITY);
  if (early) return { errors: [early] };
  let document;
  try {
    document = parse(request.query, request.guard?.maxTokens ? { maxTokens: request.guard.maxTokens } : undefined);
  } catch (e) {
    return { errors: [e as GraphQLError] };
  }
  const errors = validateOperation(schema, document, request.guard ? [...RULES, ...request.guard.rules] : RULES, request.variables);
  if (errors.length) return { errors };
  const operation = getOperationAST(document, request.operationName);
  const refused = operation && request.guard?.check(schema, document, operation, request.variables ?? {}, request.identity ?? SYSTEM_IDENTITY);
  if (refused) return { errors: [refused] };
  // A caller's identity brings its role's permissions; the system identity is unrestricted.
  const access = request.identity && permissions ? await permissions.forRole(request.identity.role) : undefined;
  const ctx = new RequestContext(request.identity ?? SYSTEM_IDENTITY, access);
  const result = await execute({ schema, document, variableValues: request.variables ?? {}, operationName: request.operationName, contextValue: ctx, fieldResolver: byResponseKey });
  // The caller learns which objects were read (the tags of a cached /jq-query answer).
  for (const r of ctx.reads) request.reads?.add(r);
  if (ctx.transactions.active) {
    const ok = !result.errors?.length;
    await ctx.transactions.end(ok);
    if (!ok) return { ...result, data: null };
    writes?.committed(ctx.written);
  }
  return result;
}
