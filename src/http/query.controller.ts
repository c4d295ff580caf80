// POST /query and GET /query (SPEC §1): the context factory decides who asks (identity, role,
// access, endpoint, zone, limits), then Apollo runs the request.
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { ApolloServer } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../executor/request-context.js';
import type { JqContext } from '../jq/context.js';
import { JqEngine } from '../jq/engine.js';
import { applyJqVariableToRequest, JQ_VARIABLE } from '../jq/variables.js';
import { RequestContextFactory } from '../pipeline/context.factory.js';
import { InProcessClient } from '../pipeline/in-process.js';
import { refusalBody, type RequestLimits, requestParts } from '../pipeline/limits/cost-limit.js';
import { APOLLO, LIMITS } from '../pipeline/tokens.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { sendFailure } from './errors.js';
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
import { prefersGraphqlResponse } from '../pipeline/graphql-server.js';
import { answerPrepared } from '../pipeline/fast-path/prepared.js';
import { SchemaService } from '../pipeline/schema.service.js';

@Controller()
export class QueryController {
  constructor(
    @Inject(APOLLO) private readonly apollo: ApolloServer<RequestContext>,
    @Inject(RequestContextFactory) private readonly contexts: RequestContextFactory,
    @Inject(InProcessClient) private readonly client: InProcessClient,
    @Inject(SchemaService) private readonly schemas: SchemaService,
    @Inject(LIMITS) private readonly limits: RequestLimits,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(JqEngine) private readonly jq: JqEngine,
  ) {}

  @Post('query')
  post(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle(req, reply);
  }

  @Get('query')
  get(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle(req, reply);
  }

  private async handle(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    let context: RequestContext;
    let body: unknown;
    const q = req.url.indexOf('?');
    let search = q >= 0 ? req.url.slice(q) : '';
    try {
      if (req.method === 'POST' && !/^application\/(graphql-response\+)?json\b/i.test(String(req.headers['content-type'] ?? ''))) {
        // Only JSON bodies: a form or text/plain POST is how cross-site request forgery arrives.
        throw new PublicError(ErrorCode.BadRequest, 'unsupported content type: send application/json', 415);
      }
      context = await this.contexts.fromHeaders(req.headers, '/query');
      // A `_jq` variable is evaluated before the GraphQL text is parsed (SPEC §8).
      // A `_jq` variable is a client's program (querySvc runs any text): not with a safelist.
      if (this.config.PERSISTED_QUERIES_ONLY && hasJqVariable(requestParts(req.method, req.body, search))) {
        throw new PublicError(ErrorCode.BadRequest, `PERSISTED_QUERIES_ONLY: the ${JQ_VARIABLE} variable is not accepted (it is a jq program of the client's)`, 400);
      }
      const jqContext: JqContext = { identity: context.identity, timezone: context.timezone, querySvc: this.client.querySvc(context) };
      const applied = await applyJqVariableToRequest({ method: req.method, body: req.body, search }, this.jq, jqContext);
      ({ body, search } = applied);
      if (applied.program !== undefined) context.jqPrograms.push(applied.program);
      const parts = requestParts(req.method, body, search);
      const tooDeep = this.limits.before?.(parts.query, parts.variables, context.identity, parts.variablesText);
      if (tooDeep) {
        // Refused before parsing, with the status and media type Apollo would answer (SPEC §1).
        const strict = prefersGraphqlResponse(req.headers.accept);
        // A document the parser would refuse (MAX_TOKENS) is 400 whatever the media type, as Apollo answers a syntax error.
        const status = strict || tooDeep.extensions.code === ErrorCode.GraphQLParseFailed ? 400 : 200;
        return void reply.status(status).header('content-type', strict ? 'application/graphql-response+json; charset=utf-8' : 'application/json').send(refusalBody(tooDeep));
      }
      // An operation the fast path answered before skips Apollo (src/pipeline/fast-path/prepared.ts),
      // unless Apollo's own plugins must see every request: Studio usage reports, federation traces.
      const apolloSeesAll = this.config.FEDERATION || (!!this.config.APOLLO_KEY && !!this.config.APOLLO_GRAPH_REF);
      if (req.method === 'POST' && !apolloSeesAll) {
        const text = await answerPrepared(this.schemas.current.schema, body, context, this.limits, req.headers.accept);
        // A refusal of the whole request (an internal cluster call without the secret: 401) keeps its status here too.
        if (text !== undefined) return void reply.status(context.httpStatus ?? 200).header('content-type', 'application/json; charset=utf-8').send(text);
      }
    } catch (e) {
      return sendFailure(reply, e, this.log);
    }
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const response = await this.apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search, body },
      context: async () => context,
    });
    void reply.status(response.status ?? 200);
    for (const [k, v] of response.headers) void reply.header(k, v);
    if (response.body.kind === 'complete') return void reply.send(response.body.string);
    let text = '';
    for await (const chunk of response.body.asyncIterator) text += chunk;
    return void reply.send(text);
  }
}
