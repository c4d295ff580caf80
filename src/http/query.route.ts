// POST /query and GET /query (SPEC §1): the context factory decides who asks (identity, role,
// access, endpoint, zone, limits), then the operation runner (src/pipeline/run-operation.ts) runs it.
//
// Why this route is registered on Fastify and not as a Nest controller: it is the one route whose
// fixed cost per request is measured against a hand-written endpoint (issue 30). Nest's router
// wraps a handler in its execution context, guards consumer, interceptors consumer and response
// controller, about 20 promises per request whatever the route does; below Nest the request is
// decided by the same function SvcGuard calls (`admitRequest`, synchronous when nothing is waited
// for) and handed to the same operation runner. What Nest adds for controllers still applies here:
// Fastify's hooks (request log, caller gate, CORS, middleware), its body parser and the app's error
// handler for bodies refused before the route runs. A team's global guards and interceptors
// (APP_GUARD, APP_INTERCEPTOR) are Nest's: when a team's module registers one, /query is served by
// `QueryController` through Nest's chain instead, with the same handler (src/http/global-enhancers.ts).
import { Readable } from 'node:stream';
import { Controller, Get, Inject, Injectable, type OnModuleInit, Post, Req, Res, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../executor/request-context.js';
import type { JqContext } from '../jq/context.js';
import { JqEngine } from '../jq/engine.js';
import { applyJqVariableToRequest, JQ_VARIABLE } from '../jq/variables.js';
import { admitRequest, SvcContext, SvcGuard } from '../pipeline/svc.guard.js';
import { RequestContextFactory } from '../pipeline/context.factory.js';
import { InProcessClient } from '../pipeline/in-process.js';
import { requestParts } from '../pipeline/limits/cost-limit.js';
import { type OperationAnswer, OperationRunner } from '../pipeline/run-operation.js';
import { clientJqRefusal } from '../pipeline/safelist.js';
import { streamedBody } from '../pipeline/streamed.js';
import type { FormatError } from '../shared/json.js';
import { formatOwnError } from '../pipeline/graphql-server.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { sendFailure } from './errors.js';
import { SCOPE_IN_CONTEXT } from './request-log.js';
import { currentRequest, runInRequest } from '../shared/request-scope.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';

function hasJqVariable(parts: { variables: unknown; variablesText?: string }): boolean {
  let v = parts.variables;
  if (parts.variablesText !== undefined) {
    try {
      v = JSON.parse(parts.variablesText);
    } catch {
      return false; // Apollo answers the malformed variables
    }
  }
  return !!v && typeof v === 'object' && JQ_VARIABLE in v;
}

export const QUERY_PATH = '/query';

const DONE = Promise.resolve();

/** Injection token: true when /query is served by Nest's router (`QueryController`), a team's global guard or interceptor being registered. */
export const QUERY_THROUGH_NEST = Symbol('svc.query-through-nest');

/** GET and POST /query: the access decision (`admitRequest`, as SvcGuard's), then the operation. */
@Injectable()
export class QueryRoute implements OnModuleInit {
  constructor(
    @Inject(HttpAdapterHost) private readonly host: HttpAdapterHost,
    @Inject(RequestContextFactory) private readonly contexts: RequestContextFactory,
    @Inject(QUERY_THROUGH_NEST) private readonly throughNest: boolean,
    @Inject(OperationRunner) private readonly operations: OperationRunner,
    @Inject(InProcessClient) private readonly client: InProcessClient,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(JqEngine) private readonly jq: JqEngine,
  ) {
    this.format = formatOwnError(log);
  }

  /** The one error formatter of /query, for the errors a streamed list meets while it is written. */
  private readonly format: FormatError;

  onModuleInit(): void {
    if (this.throughNest) return;
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    // The request's scope rides on its context; the AsyncLocalStorage is entered only off the prepared fast path.
    fastify.route({ method: ['GET', 'POST'], url: QUERY_PATH, config: SCOPE_IN_CONTEXT, handler: (req, reply) => this.serve(req, reply) });
  }

  /**
   * Who asks first, then the operation: a caller the access decision refuses (401, 403, 400) is
   * answered as the app's error filter answers SvcGuard's refusals, and nothing else runs.
   */
  serve(req: FastifyRequest, reply: FastifyReply): void {
    let context: RequestContext | Promise<RequestContext>;
    try {
      context = admitRequest(this.contexts, req);
    } catch (e) {
      return sendFailure(reply, e, this.log, req.svcScope);
    }
    if (context instanceof Promise) void context.then((c) => this.handle(req, reply, c), (e: unknown) => sendFailure(reply, e, this.log, req.svcScope));
    else void this.handle(req, reply, context);
  }

  /**
   * Not an async function: the operation's promise is answered with one `then` (issue 30: an async
   * handler's own promise and await were each request's fixed cost). Whatever fails, before the
   * operation, in it or while the answer is sent, is answered by `sendFailure` as before.
   */
  handle(req: FastifyRequest, reply: FastifyReply, context: RequestContext): Promise<void> {
    let answer: Promise<OperationAnswer>;
    try {
      answer = this.answer(req, context);
    } catch (e) {
      sendFailure(reply, e, this.log, req.svcScope);
      return DONE;
    }
    return answer.then(
      (a) => {
        try {
          this.send(req, reply, context, a);
        } catch (e) {
          sendFailure(reply, e, this.log, req.svcScope);
        }
      },
      (e: unknown) => sendFailure(reply, e, this.log, req.svcScope),
    );
  }

  /** The operation's answer; a request refused before it runs throws. */
  private answer(req: FastifyRequest, context: RequestContext): Promise<OperationAnswer> {
    const q = req.url.indexOf('?');
    const search = q >= 0 ? req.url.slice(q) : '';
    if (req.method === 'POST' && !/^application\/(graphql-response\+)?json\b/i.test(String(req.headers['content-type'] ?? ''))) {
      // Only JSON bodies: a form or text/plain POST is how cross-site request forgery arrives.
      throw new PublicError(ErrorCode.BadRequest, 'unsupported content type: send application/json', 415);
    }
    if (this.config.STREAM_LIST_ROWS > 0) context.streamAbove = this.config.STREAM_LIST_ROWS;
    // A `_jq` variable is evaluated before the GraphQL text is parsed (SPEC §8), inside the request's
    // storage (its querySvc calls are in-process operations, as a team's code makes).
    if (hasJqVariable(requestParts(req.method, req.body, search))) {
      const scope = context.scope;
      return scope && currentRequest() !== scope ? runInRequest(scope, () => this.withJq(req, context, search)) : this.withJq(req, context, search);
    }
    return this.operations.run(context, { method: req.method, headers: req.headers, search, body: req.body, prepared: true });
  }

  private async withJq(req: FastifyRequest, context: RequestContext, search: string): Promise<OperationAnswer> {
    const refused = clientJqRefusal(this.config, `the ${JQ_VARIABLE} variable`);
    if (refused) throw new PublicError(ErrorCode.BadRequest, refused, 400);
    const jqContext: JqContext = { identity: context.identity, timezone: context.timezone, querySvc: this.client.querySvc(context) };
    const applied = await applyJqVariableToRequest({ method: req.method, body: req.body, search }, this.jq, jqContext);
    if (applied.program !== undefined) context.jqPrograms.push(applied.program);
    return this.operations.run(context, { method: req.method, headers: req.headers, search: applied.search, body: applied.body, prepared: true });
  }

  private send(req: FastifyRequest, reply: FastifyReply, context: RequestContext, answer: OperationAnswer): void {
    if (answer.refusedEarly && req.svcScope) req.svcScope.refusedByLimit = true;
    void reply.status(answer.status);
    for (const [k, v] of answer.headers) void reply.header(k, v);
    // Large root lists are read while they are written (src/pipeline/streamed.ts).
    if (context.streamed.length && answer.text.includes('\u0000')) {
      // Written after the operation ran, outside the request's storage on the prepared path: its errors
      // are formatted inside it (their log lines and ids name the request).
      const scope = context.scope;
      const format: FormatError = (e) => (scope && currentRequest() !== scope ? runInRequest(scope, () => this.format(e)) : this.format(e));
      return void reply.send(Readable.from(streamedBody(answer.text, context.streamed, format), { objectMode: false, highWaterMark: 1 << 16 }));
    }
    void reply.send(answer.text);
  }
}

/**
 * /query through Nest's router, guards and interceptors, for an application whose team modules
 * register a global guard or interceptor (src/app.module.ts decides): SvcGuard's decision, then the
 * same handler.
 */
@Controller()
@UseGuards(SvcGuard)
export class QueryController {
  constructor(@Inject(QueryRoute) private readonly route: QueryRoute) {}

  @Post('query')
  post(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @SvcContext() context: RequestContext): Promise<void> {
    return this.route.handle(req, reply, context);
  }

  @Get('query')
  get(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @SvcContext() context: RequestContext): Promise<void> {
    return this.route.handle(req, reply, context);
  }
}
