// How the MCP tools run GraphQL: through OperationRunner, exactly as /query and /jq-query do (the caller's
// context, svc's validation and MAX_DEPTH, the cost limits, the safelist, jq() fields, the
// transaction commit, role introspection), after a check against the caller's own schema so an
// error can only name what the role may see (Apollo validates against the whole served schema, and
// graphql-js's "Did you mean" would suggest from all of it).
import { type GraphQLError, getOperationAST, parse } from 'graphql';
import type { Config } from '../config/schema.js';
import type { RequestContext } from '../executor/request-context.js';
import type { JqEngine } from '../jq/engine.js';
import { JqError } from '../jq/errors.js';
import { operationVariables } from '../jq/fields.js';
import type { RequestContextFactory } from '../pipeline/context.factory.js';
import type { InProcessClient } from '../pipeline/in-process.js';
import type { OperationRunner } from '../pipeline/run-operation.js';
import type { RequestLimits } from '../pipeline/limits/cost-limit.js';
import { validateOperation, validationRules } from '../pipeline/validation.js';
import { clientJqRefusal } from '../pipeline/safelist.js';
import { parseDbJson } from '../shared/json.js';
import type { RoleView } from './role-view.js';

export type OperationKind = 'query' | 'mutation';

export interface RunRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
  /** A jq program applied to the whole response `{data, errors?, extensions}` (as /jq-query does). */
  readonly jq?: string;
}

/** A refusal or failure, worded for the agent; `argument` names the tool argument at fault. */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly argument?: string,
  ) {
    super(argument ? `${argument}: ${message}` : message);
  }
}

const where = (e: GraphQLError) => (e.locations?.length ? ` (line ${e.locations[0]!.line}, column ${e.locations[0]!.column})` : '');

export class GraphqlRunner {
  private readonly rules;

  constructor(
    private readonly operations: OperationRunner,
    private readonly contexts: RequestContextFactory,
    private readonly jq: JqEngine,
    private readonly client: InProcessClient,
    private readonly limits: RequestLimits,
    private readonly config: Config,
  ) {
    this.rules = validationRules(config.MAX_DEPTH);
  }

  /** Parses and checks against the role's schema; the failures, one line each, or none. */
  check(view: RoleView, request: RunRequest, caller: RequestContext, kind?: OperationKind): string[] {
    const early = caller.limited ? this.limits.before?.(request.query, request.variables, caller.identity) : undefined;
    if (early) return [early.message];
    let document;
    try {
      document = parse(request.query, this.limits.maxTokens && caller.limited ? { maxTokens: this.limits.maxTokens } : undefined);
    } catch (e) {
      return [`${(e as GraphQLError).message}`];
    }
    const operation = getOperationAST(document, request.operationName);
    if (!operation) return [request.operationName ? `the document has no operation named "${request.operationName}"` : 'the document has several operations: name one with operationName'];
    if (kind && String(operation.operation) !== kind) {
      return [kind === 'query' ? `this is a ${operation.operation}: the query tool runs queries only${operation.operation === 'mutation' ? ' (use the mutate tool, where it is offered)' : ''}` : `this is a ${operation.operation}: the mutate tool runs mutations only`];
    }
    const errors = validateOperation(view.schema, document, this.rules, request.variables, request.jq ? [request.jq] : []);
    return errors.map((e) => `${e.message}${where(e)}`);
  }

  /** Runs the request as the caller; the response (after jq) as a value. Throws ToolFailure. */
  async run(view: RoleView, caller: RequestContext, request: RunRequest, kind: OperationKind): Promise<{ value: unknown; errors: string[] }> {
    const refused = request.jq !== undefined ? clientJqRefusal(this.config, 'the jq argument') : undefined;
    if (refused) throw new ToolFailure(refused, 'jq');
    const problems = this.check(view, request, caller, kind);
    if (problems.length) throw new ToolFailure(problems.join('\n'), 'query');
    // Each tool call is an operation of its own: its own transactions, statements and reads.
    const context = this.contexts.derive(caller);
    if (request.jq !== undefined) context.jqPrograms.push(request.jq);
    const body = { query: request.query, ...(request.variables ? { variables: request.variables } : {}), ...(request.operationName ? { operationName: request.operationName } : {}) };
    // The one way an operation runs (src/pipeline/run-operation.ts), asked for plain JSON.
    const { text } = await this.operations.run(context, { body, json: true });
    const parsed = parseDbJson(text) as { data?: unknown; errors?: { message?: string; path?: unknown[] }[] };
    const errors = (parsed.errors ?? []).map((e) => `${e.message ?? 'error'}${e.path ? ` (at ${e.path.join('.')})` : ''}`);
    // Failed, rather than partly answered, when no root field has a value.
    const data = parsed.data as Record<string, unknown> | null | undefined;
    if (errors.length && (!data || Object.values(data).every((v) => v === null))) throw new ToolFailure(errors.join('\n'));
    if (request.jq === undefined) return { value: data ?? null, errors };
    try {
      const jqContext = { identity: context.identity, timezone: context.timezone, querySvc: this.client.querySvc(context) };
      const operation = getOperationAST(parse(request.query), request.operationName);
      const result = await this.jq.run({ program: request.jq, input: text, variables: operationVariables(operation, request.variables), context: jqContext });
      return { value: parseDbJson(result.text), errors };
    } catch (e) {
      if (e instanceof JqError) throw new ToolFailure(e.code === 'JQ_INTERNAL' ? 'the jq engine failed' : e.message, 'jq');
      throw e;
    }
  }
}
