// Runs a GraphQL operation inside the process, through the same schema, resolvers, field stages and
// transaction handling as HTTP requests, always as a caller the context factory made: querySvc in
// jq programs (as the request's caller), teams' Nest modules and the generated typed clients.
import { type ExecutionResult, execute, GraphQLError, type GraphQLFormattedError, type GraphQLSchema, getOperationAST, parse } from 'graphql';
import type { Identity } from '../auth/identity.js';
import { RequestContext } from '../executor/request-context.js';
import type { WriteEvents } from '../executor/write-events.js';
import type { SchemaService } from './schema.service.js';
import type { RequestContextFactory } from './context.factory.js';
import type { RequestLimits } from './limits/cost-limit.js';
import { byResponseKey } from '../schema/by-response-key.js';
import { currentReadSink } from './read-sinks.js';
import { finishWrites } from './commit.js';
import type { Logger } from '../shared/logger.js';
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
 * Always named: a typed client finds the request's caller itself and refuses without one.
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
    /**
     * /query's error formatter (graphql-server.ts `formatOwnError`): what a jq program's querySvc reads is
     * masked as a client's answer is, whichever way the program came in (`_jq`, /jq-query, jq() fields).
     */
    private readonly format: (e: GraphQLError) => GraphQLFormattedError,
    /** Where a failed commit is logged (as for /query). */
    private readonly log: Logger,
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
  async execute(request: OperationRequest, caller: Caller, reads?: Set<string>): Promise<ExecutionResult> {
    return this.run(await this.contextOf(caller), request, reads);
  }

  /**
   * querySvc of a jq program (SPEC §8): each call is a new operation of the same caller (zone,
   * role, limits); the objects read join `reads` (the tags of a cached /jq-query answer).
   */
  querySvc(caller: RequestContext, options: { reads?: Set<string> } = {}): QueryRunner {
    // The formatter gives errors without a code Apollo's (INTERNAL_SERVER_ERROR) first (formatOwnError), so it masks them as on /query.
    return async (query, variables) => responseBody(await this.run(this.contexts.derive(caller), { query, variables }, options.reads), this.format);
  }

  private async contextOf(caller: Caller): Promise<RequestContext> {
    if (caller === 'system') return this.contexts.system();
    if (caller instanceof RequestContext) return this.contexts.derive(caller);
    return this.contexts.forCaller(caller);
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
      return { errors: [coded(e as GraphQLError, 'GRAPHQL_PARSE_FAILED')] };
    }
    const errors = validateOperation(schema, document, limits ? [...RULES, ...limits.rules] : RULES, variables);
    if (errors.length) return { errors: errors.map((e) => coded(e, 'GRAPHQL_VALIDATION_FAILED')) };
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
      // The same end as /query's (src/pipeline/commit.ts): a failed commit is an error of the answer,
      // and sources that committed before it drop their cached reads.
      const ok = !result.errors?.length;
      const failed = await finishWrites(ctx, ok, this.writes, this.log);
      if (failed) return { ...result, data: null, errors: [...(result.errors ?? []), new GraphQLError(failed.message, { extensions: failed.extensions })] };
      if (!ok) return { ...result, data: null };
    }
    return result;
  }
}

/**
 * `error` with `code` when it has none: the codes Apollo gives on /query (a parse or validation
 * failure, else INTERNAL_SERVER_ERROR), which the one error formatter reads to mask internal errors.
 */
export function coded(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code) return error;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: error.originalError, extensions: { ...error.extensions, code } });
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
