// Runs a GraphQL operation inside the process, through the same schema, resolvers and transaction
// handling as HTTP requests: for teams' own Nest modules (typed clients from codegen), and later jq.
import { execute, type ExecutionResult, GraphQLError, parse } from 'graphql';
import { validateOperation, validationRules } from '../http/validation.js';
import { byResponseKey } from '../schema/resolvers.js';
import type { SchemaService } from '../schema/service.js';
import { type Identity, RequestContext } from './request-context.js';
import type { WriteEvents } from './write-events.js';
import type { PermissionService } from '../permissions/service.js';

/** In-process callers are code, not clients: no MAX_DEPTH. */
const RULES = validationRules(0);

export const SYSTEM_IDENTITY: Identity = { role: 'admin', userId: 'system', userName: 'system', authType: 'internal' };

export async function executeInProcess(
  schemas: SchemaService,
  request: { query: string; variables?: Record<string, unknown>; operationName?: string; identity?: Identity; reads?: Set<string> },
  writes?: WriteEvents,
  permissions?: PermissionService,
): Promise<ExecutionResult> {
  const { schema } = schemas.current;
  let document;
  try {
    document = parse(request.query);
  } catch (e) {
    return { errors: [e as GraphQLError] };
  }
  const errors = validateOperation(schema, document, RULES, request.variables);
  if (errors.length) return { errors };
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
