// querySvc (SPEC §8): one GraphQL request per call, run in the process as the caller, so that the
// caller's role permissions apply; the answer is the complete response {data, extensions, errors?}.
import type { GraphQLError } from 'graphql';
import { executeInProcess, type InProcessGuard } from '../executor/in-process.js';
import type { Identity } from '../auth/identity.js';
import type { WriteEvents } from '../executor/write-events.js';
import type { PermissionService } from '../permissions/service.js';
import type { SchemaService } from '../schema/service.js';
import { type QueryRunner, responseBody } from './context.js';

export interface QueryRunnerDeps {
  readonly schemas: SchemaService;
  readonly writes?: WriteEvents;
  /** The caller's role permissions apply to its querySvc queries (SPEC §7). */
  readonly permissions?: PermissionService;
  /** Collects the data objects the queries read (cache tags of /jq-query answers). */
  readonly reads?: Set<string>;
  /** Formats errors as /query does (src/http/graphql-server.ts `formatError`); default: toJSON. */
  readonly formatError?: (error: GraphQLError) => ReturnType<GraphQLError['toJSON']>;
  /** The request limits of /query (src/http/cost-limit.ts), so querySvc is bounded the same way. */
  readonly guard?: InProcessGuard;
}

export function inProcessQueryRunner(deps: QueryRunnerDeps, identity: Identity): QueryRunner {
  return async (query, variables) => {
    const result = await executeInProcess(deps.schemas, { query, variables, identity, ...(deps.reads ? { reads: deps.reads } : {}), ...(deps.guard ? { guard: deps.guard } : {}) }, deps.writes, deps.permissions);
    return responseBody(result, deps.formatError);
  };
}
