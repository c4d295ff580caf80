// One GraphQL operation, whichever way it came in (issue 27): /query, /jq-query's inner query, /ipc
// (POST and WebSocket) and /subscribe's runs all call `OperationRunner.run` with a request context the
// factory made. Its steps, top to bottom:
//   refuse before parse (size, tokens, nesting, aliases: LIMITS.before)
//   -> a prepared operation answered by the fast path (POST /query only, src/pipeline/fast-path/)
//   -> Apollo: safelist -> parse -> validate -> cost -> role introspection -> execute -> commit
//      -> shape the response with the one error formatter (src/pipeline/graphql-server.ts)
// Each entry point is left with its transport: reading its request and writing the answer.
import type { ApolloServer } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { Config } from '../config/schema.js';
import type { RequestContext } from '../executor/request-context.js';
import { ErrorCode } from '../shared/errors.js';
import { noteLimitRefusal } from '../shared/limit-refusal.js';
import { currentRequest, runInRequest, scopeOf } from '../shared/request-scope.js';
import { answerPrepared } from './fast-path/prepared.js';
import { prefersGraphqlResponse } from './graphql-server.js';
import { refusalBody, type RequestLimits, requestParts } from './limits/cost-limit.js';
import type { SchemaService } from './schema.service.js';

export interface OperationCall {
  /** GET or POST, as the client sent it (GET reads `query`/`variables` from `search`). */
  readonly method?: string;
  /** The client's headers (Accept decides 200 or 400 for a refusal, SPEC §1); none for internal callers. */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly search?: string;
  /** `{query, variables?, operationName?, extensions?}` as the client sent it. */
  readonly body: unknown;
  /**
   * The caller reads the answer itself (jq, /ipc, /subscribe): Apollo is asked for plain JSON, so a
   * validation error is a 200 with `errors`, as /query answers `application/json` clients.
   */
  readonly json?: boolean;
  /** May a prepared operation skip Apollo (POST /query)? */
  readonly prepared?: boolean;
}

export interface OperationAnswer {
  readonly status: number;
  readonly headers: HeaderMap;
  /** The response body (SPEC §1's `{data, extensions, errors?}`), as written to the client. */
  readonly text: string;
  /** Refused before parsing (a limit): nothing was planned or run. */
  readonly refusedEarly: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** The headers of every prepared answer: one map, read by the entry points and never changed (a new map per request was measurable on Q0, issue 30). */
const PREPARED_HEADERS = new HeaderMap([['content-type', JSON_TYPE]]);

/** A header as HeaderMap reads it: names in any case, repeated values joined. */
function headerOf(headers: OperationCall['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  let v = headers[name];
  if (v === undefined) for (const k in headers) if (k.toLowerCase() === name) v = headers[k];
  return v === undefined ? undefined : typeof v === 'string' ? v : v.join(', ');
}

export class OperationRunner {
  /** Apollo's own plugins must see every request (Studio usage reports, federation traces): no fast path. */
  private readonly apolloSeesAll: boolean;

  constructor(
    private readonly apollo: ApolloServer<RequestContext>,
    private readonly limits: RequestLimits,
    private readonly schemas: SchemaService,
    config: Pick<Config, 'FEDERATION' | 'APOLLO_KEY' | 'APOLLO_GRAPH_REF'>,
  ) {
    this.apolloSeesAll = config.FEDERATION || (!!config.APOLLO_KEY && !!config.APOLLO_GRAPH_REF);
  }

  /** Starts Apollo on the served schema: once the node has started (src/system/system.module.ts NodeBoot), before the listener opens. */
  start(): Promise<void> {
    return this.apollo.start();
  }

  /**
   * Not an async function: a prepared answer is one `then` on the fast path's promise (issue 30: an
   * async function's promise and awaits were each request's fixed cost). A throw is a rejection.
   */
  run(ctx: RequestContext, call: OperationCall): Promise<OperationAnswer> {
    try {
      return this.answer(ctx, call);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private answer(ctx: RequestContext, call: OperationCall): Promise<OperationAnswer> {
    const method = (call.method ?? 'POST').toUpperCase();
    const search = call.search ?? '';
    // Apollo's header map is made only for Apollo: a refused or prepared request reads Accept alone.
    const accept = call.json ? 'application/json' : headerOf(call.headers, 'accept');

    const parts = requestParts(method, call.body, search);
    const refused = this.limits.before?.(parts.query, parts.variables, ctx.identity, parts.variablesText);
    if (refused) {
      // Whichever entry point asked (/query, /ipc, a jq program's querySvc): the caller gate holds an anonymous address after it.
      noteLimitRefusal(scopeOf(ctx));
      // The status and media type Apollo would answer (SPEC §1).
      const strict = prefersGraphqlResponse(accept);
      const type = strict ? 'application/graphql-response+json; charset=utf-8' : JSON_TYPE;
      // A document the parser would refuse (MAX_TOKENS) is 400 whatever the media type, as Apollo answers a syntax error.
      const status = strict || refused.extensions.code === ErrorCode.GraphQLParseFailed ? 400 : 200;
      return Promise.resolve({ status, headers: new HeaderMap([['content-type', type]]), text: refusalBody(refused), refusedEarly: true });
    }
    if (call.prepared && method === 'POST' && !this.apolloSeesAll) {
      return answerPrepared(this.schemas.current.schema, call.body, ctx, this.limits, accept).then((text) =>
        // A refusal of the whole request (an internal cluster call without the secret: 401) keeps its status here too.
        text !== undefined ? { status: ctx.httpStatus ?? 200, headers: PREPARED_HEADERS, text, refusedEarly: false } : this.throughApollo(ctx, call, method, search));
    }
    return this.throughApollo(ctx, call, method, search);
  }

  /**
   * Apollo's plugins, formatError and whatever a resolver calls read the request's scope from the
   * AsyncLocalStorage: a request whose context carries it enters it here (src/shared/request-scope.ts).
   */
  private throughApollo(ctx: RequestContext, call: OperationCall, method: string, search: string): Promise<OperationAnswer> {
    const scope = ctx.scope;
    if (scope && currentRequest() !== scope) return runInRequest(scope, () => this.apolloAnswer(ctx, call, method, search));
    return this.apolloAnswer(ctx, call, method, search);
  }

  private async apolloAnswer(ctx: RequestContext, call: OperationCall, method: string, search: string): Promise<OperationAnswer> {
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(call.headers ?? {})) if (v !== undefined) headers.set(k, typeof v === 'string' ? v : v.join(', '));
    if (call.json) {
      headers.set('content-type', 'application/json');
      headers.set('accept', 'application/json');
    } else if (method === 'POST' && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const response = await this.apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method, headers, search, body: call.body }, context: async () => ctx });
    let text = '';
    if (response.body.kind === 'complete') text = response.body.string;
    else for await (const chunk of response.body.asyncIterator) text += chunk;
    return { status: response.status ?? 200, headers: response.headers, text, refusedEarly: false };
  }
}
