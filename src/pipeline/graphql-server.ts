// Apollo Server over the catalog-built schema. The schema comes through a small gateway object so
// that load_data_source can swap it without a restart (DESIGN.md §1); requests in flight finish on
// the schema they started with.
import { currentRequest } from '../shared/request-scope.js';
import { startSpan } from '../shared/tracing.js';
import {
  ApolloServer, type ApolloServerOptions, type ApolloServerPlugin, type GraphQLRequestContextWillSendResponse, type GraphQLResponse, HeaderMap, type HTTPGraphQLResponse,
} from '@apollo/server';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { execute, GraphQLError, type GraphQLFormattedError, Kind } from 'graphql';
import { accessOf } from '../permissions/access.js';
import type { RoleSchemas } from '../permissions/schema-filter.js';
import type { Config } from '../config/schema.js';
import type { RequestContext } from '../executor/request-context.js';
import { DbError } from '../executor/db-errors.js';
import { finishWrites } from './commit.js';
import type { WriteEvents } from '../executor/write-events.js';
import { byResponseKey } from '../schema/by-response-key.js';
import type { SchemaService } from './schema.service.js';
import { ErrorCode, isLoggedCode, PublicError } from '../shared/errors.js';
import { stringifyResponse } from '../shared/json.js';
import type { Logger } from '../shared/logger.js';
import { fastPathPlugin } from './fast-path/plugin.js';
import { valueNotRepresentable } from './value-errors.js';
import { statsExtensions } from './stages/stats-tree.js';
import { planningWork } from './metrics.js';
import { validationPlugin, validationRules } from './validation.js';
import { coded } from './in-process.js';
import { costPlugin, type RequestLimits } from './limits/cost-limit.js';
import { exactIntegersPlugin } from './exact-json.js';
import { apolloStudio } from './apollo-studio.js';
import { Safelist } from './safelist.js';

/** Codes that mean "parsed, but cannot be executed": 200 under application/json (SPEC §1). */
const UNEXECUTABLE = new Set(['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'MAX_DEPTH_EXCEEDED', 'OPERATION_RESOLUTION_FAILURE']);

/** True when the client accepts application/graphql-response+json but not application/json. */
export function prefersGraphqlResponse(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/graphql-response+json') && !types.includes('application/json') && !types.includes('*/*');
}

function gatewayFor(schemas: SchemaService): GatewayInterface {
  return {
    async load() {
      return { executor: null };
    },
    onSchemaLoadOrUpdate(callback) {
      const s = schemas.current;
      callback({ apiSchema: s.schema, coreSupergraphSdl: s.sdl });
      return schemas.onUpdate((next) => callback({ apiSchema: next.schema, coreSupergraphSdl: next.sdl }));
    },
    async stop() {},
  };
}

/** Commits or rolls back the request's writes, then shapes the body as SPEC §1 says. */
function responsePlugin(log: Logger, writes: WriteEvents, schemas: SchemaService, roleSchemas: RoleSchemas): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async parsingDidStart() {
          const span = startSpan('graphql.parse');
          return async (error) => {
            if (error) span.recordException(error);
            span.end();
          };
        },
        async didResolveOperation(rc) {
          // The request's log line names its operation (a jq querySvc inside it does not rename it).
          const scope = currentRequest();
          if (scope) scope.operation ??= rc.operationName ?? rc.operation?.operation;
        },
        // Introspection answers from the role's own schema (SPEC §7), so nothing hidden or
        // disabled shows; data fields keep running on the full schema.
        async responseForOperation(rc) {
          const rules = rc.contextValue.access;
          if (rules.unrestricted || !rc.operation) return null;
          const roots = rc.operation.selectionSet.selections;
          const intro = (s: (typeof roots)[number]) => s.kind === Kind.FIELD && s.name.value.startsWith('__');
          if (!roots.some((s) => s.kind === Kind.FIELD && (s.name.value === '__schema' || s.name.value === '__type'))) return null;
          if (!roots.every(intro)) {
            return singleResponse({ data: null, errors: [new GraphQLError('for this role, introspection (__schema, __type) must be asked in an operation of its own', { extensions: { code: ErrorCode.BadUserInput } })] });
          }
          const served = schemas.current;
          const schema = roleSchemas.get(served.schema, served.version, accessOf(rules, served.scope));
          const result = await execute({ schema, document: rc.document, operationName: rc.operationName ?? null, variableValues: rc.request.variables ?? {} });
          return singleResponse(result);
        },
        async willSendResponse(rc: GraphQLRequestContextWillSendResponse<RequestContext>) {
          const body = rc.response.body;
          if (body.kind !== 'single') return;
          const result = body.singleResult;
          const tx = rc.contextValue.transactions;
          if (tx.active) {
            const failed = await finishWrites(rc.contextValue, !result.errors?.length, writes, log);
            if (failed) result.errors = [...(result.errors ?? []), failed];
            // An error before the commits rolls every source back, so no partial data is reported (SPEC §4.3).
            if (result.errors?.length) result.data = null;
          }
          if (!('data' in result)) result.data = null;
          result.extensions ??= {};
          result.extensions = statsExtensions(rc.contextValue, rc.operation, result.extensions) ?? result.extensions;
          const codes = (result.errors ?? []).map((e) => e.extensions?.code);
          // The request's log line says it failed, with the codes (src/http/request-log.ts): the HTTP
          // status of a GraphQL answer stays 200 (SPEC §1).
          const scope = currentRequest();
          if (scope && codes.length) {
            scope.errorCodes.push(...codes.map((c) => String(c ?? 'UNKNOWN')));
            scope.outcome = result.data === null || result.data === undefined ? 'failed' : 'partial';
          }
          const strict = prefersGraphqlResponse(rc.request.http?.headers.get('accept'));
          if (!strict && codes.length && codes.every((c) => UNEXECUTABLE.has(String(c)))) rc.response.http.status = 200;
          if (rc.contextValue.httpStatus) rc.response.http.status = rc.contextValue.httpStatus;
        },
      };
    },
  };
}

function singleResponse(result: { data?: unknown; errors?: readonly GraphQLError[] }): GraphQLResponse {
  return {
    http: { status: undefined, headers: new HeaderMap() },
    body: { kind: 'single', singleResult: { data: (result.data ?? null) as Record<string, unknown> | null, ...(result.errors ? { errors: result.errors } : {}) } },
  } as GraphQLResponse;
}

/**
 * An internal error was logged with the request's id (the logger adds it); the client's error
 * carries the same id, so the two can be matched.
 */
function logged(code: string): { request_id?: string } {
  const id = isLoggedCode(code) ? currentRequest()?.id : undefined;
  return id ? { request_id: id } : {};
}

export function formatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = (error as { originalError?: unknown })?.originalError;
    if (original instanceof DbError) {
      // A database's error in svc's words (src/executor/db-errors.ts), naming the field it happened in.
      const field = [...(formatted.path ?? [])].reverse().find((p): p is string => typeof p === 'string');
      const id = original.ours ? currentRequest()?.id : undefined;
      const extensions = { code: original.code, reason: original.reason, ...(original.retryable ? { retryable: true } : {}), ...(id ? { request_id: id } : {}) };
      return { ...formatted, message: original.inField(field), extensions };
    }
    if (original instanceof PublicError) {
      if (isLoggedCode(original.code)) log.error({ err: original, path: formatted.path }, 'resolver failed');
      // An unavailable source may answer the same request a moment later.
      const retryable = original.code === ErrorCode.SourceUnavailable ? { retryable: true } : {};
      return { ...formatted, message: original.message, extensions: { code: original.code, ...retryable, ...logged(original.code) } };
    }
    const value = valueNotRepresentable(formatted);
    if (value) return value;
    if (original && !(original as { extensions?: unknown }).extensions && formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
      log.error({ err: original, path: formatted.path }, 'resolver failed');
      return { ...formatted, message: 'internal server error', extensions: { code: ErrorCode.Internal, ...logged(ErrorCode.Internal) } };
    }
    const { stacktrace: _drop, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    // graphql-js words the maxTokens refusal without naming the setting (and misspelt).
    const tokens = /^Syntax Error: Document contains more tha[nt] (\d+) tokens/.exec(formatted.message);
    if (tokens) return { ...formatted, message: `the query document has more than ${tokens[1]} tokens (MAX_TOKENS)`, extensions };
    return { ...formatted, extensions };
  };
}

/**
 * formatError for an error svc met itself, with no Apollo in between (in-process operations, a
 * streamed list's rows): an error without a code gets Apollo's INTERNAL_SERVER_ERROR first, so it is
 * masked, logged and given the request's id as on /query.
 */
export function formatOwnError(log: Logger): (e: GraphQLError) => GraphQLFormattedError {
  const format = formatError(log);
  return (e) => {
    const c = coded(e, ErrorCode.Internal);
    return format(c.toJSON(), c);
  };
}

/**
 * Apollo Server with the safelist in front (PERSISTED_QUERIES_ONLY): an operation that is not
 * listed is refused before Apollo parses it, for /query and for /jq-query's inner query alike.
 */
class SafelistedApolloServer extends ApolloServer<RequestContext> {
  constructor(options: ApolloServerOptions<RequestContext>, private readonly safelist: Safelist) {
    super(options);
  }

  override async executeHTTPGraphQLRequest(request: Parameters<ApolloServer<RequestContext>['executeHTTPGraphQLRequest']>[0]): Promise<HTTPGraphQLResponse> {
    const { method, body, search, headers } = request.httpGraphQLRequest;
    const refused = this.safelist.refusal(method, body, search);
    if (!refused) return super.executeHTTPGraphQLRequest(request);
    // Refused like a query that cannot be executed (SPEC §1): 200, or 400 for graphql-response+json clients.
    const strict = prefersGraphqlResponse(headers.get('accept'));
    return {
      status: strict ? 400 : 200,
      headers: new HeaderMap([['content-type', strict ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8']]),
      body: { kind: 'complete', string: JSON.stringify({ data: null, errors: [refused.toJSON()], extensions: {} }) },
    };
  }
}

/** The Apollo server of the served schema, not yet started (OperationRunner starts it). */
export async function createGraphqlServer(
  config: Config, schemas: SchemaService, writes: WriteEvents, roleSchemas: RoleSchemas, log: Logger,
  /** The request limits (LIMITS): the one object every entry point applies. */
  guard: RequestLimits,
  /** Plugins of features above the pipeline (jq's jq() fields), run after svc's own. */
  extraPlugins: readonly ApolloServerPlugin<RequestContext>[] = [],
): Promise<ApolloServer<RequestContext>> {
  const format = formatError(log);
  const studio = await apolloStudio(config, schemas, log);
  const safelist = config.PERSISTED_QUERIES_ONLY ? Safelist.load(config.PERSISTED_QUERIES_MANIFEST) : undefined;
  if (safelist) log.info({ operations: safelist.size, manifest: config.PERSISTED_QUERIES_MANIFEST }, 'svc: only persisted queries are served');
  const options: ApolloServerOptions<RequestContext> = {
    // Apollo's own messages (reporting started, a report that failed) go to svc's log.
    logger: { debug: (m) => log.debug(String(m)), info: (m) => log.info(String(m)), warn: (m) => log.warn(String(m)), error: (m) => log.error(String(m)) },
    ...(studio.apollo ? { apollo: studio.apollo } : {}),
    // Automatic persisted queries (Apollo's, in memory per node); with a safelist, its manifest is the store.
    ...(safelist ? { persistedQueries: { cache: safelist.apqCache() } } : {}),
    gateway: gatewayFor(schemas),
    fieldResolver: byResponseKey,
    // svc validates with its own rule list (src/pipeline/validation.ts): graphql-js's rules, with jq's
    // variables and duration ttls accepted, plus MAX_DEPTH.
    dangerouslyDisableValidation: true,
    ...(guard.maxTokens ? { parseOptions: { maxTokens: guard.maxTokens } } : {}),
    formatError: format,
    // Answers of the fast path may hold the database's JSON text, written in as it is.
    stringifyResult: (v) => stringifyResponse(v as Record<string, unknown>),
    includeStacktraceInErrorResponses: false,
    // Bodies are parsed by Fastify, which accepts JSON only; GET cannot run mutations. That is the
    // protection Apollo's CSRF check adds, and the check would refuse plain GET /query calls.
    csrfPrevention: false,
    introspection: true,
    // Apollo would stop itself on SIGTERM and kill the process; src/start.ts stops the whole server.
    stopOnTerminationSignals: false,
    // No cache-control hints: results are cached by svc's own interceptor (SPEC §9), and the
    // plugin's per-field hook costs time on every resolved field.
    plugins: [
      validationPlugin(validationRules(config.MAX_DEPTH), format),
      responsePlugin(log, writes, schemas, roleSchemas),
      // Apollo calls this only when its document cache misses (one parsed document per query text);
      // validations are counted where svc makes them (validation.ts).
      { async requestDidStart() { return { async parsingDidStart() { planningWork.inc({ step: 'parse' }); } }; } },
      // Before execution (didResolveOperation), whichever plugin then answers.
      exactIntegersPlugin(),
      costPlugin(guard),
      // After responsePlugin: a restricted role's introspection is answered there first.
      fastPathPlugin(),
      // e.g. jq() fields, transformed once the whole result exists (SPEC §8).
      ...extraPlugins,
      ApolloServerPluginCacheControlDisabled(),
      ...studio.plugins,
    ],
  };
  // Started by OperationRunner once the node has started (its sources loaded): not here.
  return safelist ? new SafelistedApolloServer(options, safelist) : new ApolloServer<RequestContext>(options);
}

export { HeaderMap };
