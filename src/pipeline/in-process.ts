// Runs a GraphQL operation inside the process, through the same schema, resolvers, field stages and
// transaction handling as HTTP requests, always as a caller the context factory made: querySvc in
// jq programs (as the request's caller), teams' Nest modules and the generated typed clients.
import { type ExecutionResult, execute, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema, getOperationAST, parse } from 'graphql';
import type { Identity } from '../auth/identity.js';
import { RequestContext } from '../executor/request-context.js';
import type { WriteEvents } from '../executor/write-events.js';
import type { SchemaService } from './schema.service.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { currentRequest } from '../shared/request-scope.js';
import type { RequestContextFactory } from './context.factory.js';
import type { RequestLimits } from './limits/cost-limit.js';
import { byResponseKey } from '../schema/by-response-key.js';
import { currentReadSink } from './read-sinks.js';
import { validateOperation, validationRules } from './validation.js';

/** In-process callers are code, not clients: no MAX_DEPTH unless the caller's limits apply. */
const RULES = validationRules(0);

export interface OperationRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
}

/**
 * Who an in-process operation runs as: a context the factory made (a request's caller), an
 * identity (role gate, access and the configured zone apply), or `'system'`, asked for by name.
 * Omitted: the caller of the request being served; outside any request, the system identity.
 */
export type Caller = RequestContext | Identity | 'system';

/** Runs a GraphQL request as the caller; resolves to the complete response `{data, extensions, errors?}`. */
export type QueryRunner = (query: string, variables: Record<string, unknown>) => Promise<unknown>;

export class InProcessClient {
  constructor(
    private readonly schemas: SchemaService,
    private readonly writes: WriteEvents,
    private readonly contexts: RequestContextFactory,
    /** The limits of /query (src/pipeline/limits/cost-limit.ts), applied to limited callers. */
    private readonly limits: RequestLimits,
  ) {}

  /** The schema served now (what a typed client's selection is checked against). */
  schema(): GraphQLSchema {
    return this.schemas.current.schema;
  }

  /** The caller of the request being served, when svc identified one (a typed client's default). */
  requestCaller(): RequestContext | undefined {
    return this.contexts.current();
  }

  /** One operation as `caller`; GraphQL errors are in the result, as /query reports them. */
  async execute(request: OperationRequest, caller?: Caller, reads?: Set<string>): Promise<ExecutionResult> {
    return this.run(await this.contextOf(caller), request, reads);
  }

  /**
   * querySvc of a jq program (SPEC §8): each call is a new operation of the same caller (zone,
   * role, limits); the objects read join `reads` (the tags of a cached /jq-query answer).
   */
  querySvc(caller: RequestContext, options: { reads?: Set<string>; formatError?: (e: GraphQLError) => GraphQLFormattedError } = {}): QueryRunner {
    return async (query, variables) => responseBody(await this.run(this.contexts.derive(caller), { query, variables }, options.reads), options.formatError);
  }

  private async contextOf(caller: Caller | undefined): Promise<RequestContext> {
    if (caller === 'system') return this.contexts.system();
    if (caller instanceof RequestContext) return this.contexts.derive(caller);
    if (caller) return this.contexts.forCaller(caller);
    const current = this.contexts.current();
    if (current) return this.contexts.derive(current);
    // Inside a request svc did not identify (a team's route without SvcGuard), acting as the
    // system would hand an anonymous caller everything: refuse instead.
    if (currentRequest()) {
      throw new PublicError(ErrorCode.Internal, 'an in-process query ran inside a request svc has not identified: guard the route with SvcGuard, or name the caller (as(...))');
    }
    return this.contexts.system();
  }

  private async run(ctx: RequestContext, request: OperationRequest, reads?: Set<string>): Promise<ExecutionResult> {
    const { schema } = this.schemas.current;
    const variables = request.variables ?? {};
    const limits = ctx.limited ? this.limits : undefined;
    const early = limits?.before?.(request.query, variables, ctx.identity);
    if (early) return { errors: [early] };
    let document;
    try {
      document = parse(request.query, limits?.maxTokens ? { maxTokens: limits.maxTokens } : undefined);
    } catch (e) {
      return { errors: [e as GraphQLError] };
    }
    const errors = validateOperation(schema, document, limits ? [...RULES, ...limits.rules] : RULES, variables);
    if (errors.length) return { errors };
    const operation = getOperationAST(document, request.operationName);
    const refused = operation && limits?.check(schema, document, operation, variables, ctx.identity);
    if (refused) return { errors: [refused] };
    const result = await execute({ schema, document, variableValues: variables, operationName: request.operationName, contextValue: ctx, fieldResolver: byResponseKey });
    const sink = currentReadSink();
    for (const r of ctx.reads) {
      reads?.add(r);
      sink?.add(r);
    }
    if (ctx.transactions.active) {
      const ok = !result.errors?.length;
      await ctx.transactions.end(ok);
      if (!ok) return { ...result, data: null };
      this.writes.committed(ctx.written);
    }
    return result;
  }
}

/** The response shape of /query (SPEC §1) for an in-process execution result. */
export function responseBody(
  result: ExecutionResult,
  format: (e: NonNullable<ExecutionResult['errors']>[number]) => GraphQLFormattedError = (e) => e.toJSON(),
): { data: unknown; extensions: Record<string, unknown>; errors?: GraphQLFormattedError[] } {
  return {
    data: result.data ?? null,
    extensions: (result.extensions as Record<string, unknown> | undefined) ?? {},
    ...(result.errors?.length ? { errors: result.errors.map(format) } : {}),
  };
}
