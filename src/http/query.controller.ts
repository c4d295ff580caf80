// POST /query and GET /query (SPEC §1): authenticate, then hand the request to Apollo.
import { metrics } from '../shared/metrics.js';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { ApolloServer } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdentityService } from '../auth/identity.service.js';
import { RequestContext } from '../executor/request-context.js';
import { RoleGate } from '../permissions/roles.js';
import { SvcRuntime } from '../system/runtime.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { requestTimeZone } from '../shared/timezone.js';
import { sendFailure } from './errors.js';
import type { JqContext } from '../jq/context.js';
import { JqEngine } from '../jq/engine.js';
import { inProcessQueryRunner } from '../jq/query-runner.js';
import { refusalBody, requestGuard, requestParts } from './cost-limit.js';
import { applyJqVariableToRequest, JQ_VARIABLE } from '../jq/variables.js';

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
import { APOLLO } from '../pipeline/tokens.js';
import { prefersGraphqlResponse } from './graphql-server.js';
import { answerPrepared } from '../pipeline/fast-path/prepared.js';

@Controller()
export class QueryController {
  constructor(
    @Inject(APOLLO) private readonly apollo: ApolloServer<RequestContext>,
    @Inject(IdentityService) private readonly identities: IdentityService,
    @Inject(RoleGate) private readonly roles: RoleGate,
    @Inject(SvcRuntime) private readonly runtime: SvcRuntime,
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
      const identity = await this.identities.identify(req.headers);
      await this.roles.check(identity.role);
      const access = await this.runtime.permissions.forRole(identity.role);
      if (access.endpointDenied('/query')) {
        metrics.authFailures.inc({ reason: 'endpoint_denied' });
        throw new PublicError(ErrorCode.Forbidden, `role "${identity.role}" may not use /query`, 403);
      }
      const timezone = requestTimeZone(req.headers, this.runtime.config.DB_TIMEZONE);
      context = new RequestContext(identity, access, timezone);
      // A `_jq` variable is evaluated before the GraphQL text is parsed (SPEC §8).
      const rt = this.runtime;
      // A `_jq` variable is a client's program (querySvc runs any text): not with a safelist.
      if (rt.config.PERSISTED_QUERIES_ONLY && hasJqVariable(requestParts(req.method, req.body, search))) {
        throw new PublicError(ErrorCode.BadRequest, `PERSISTED_QUERIES_ONLY: the ${JQ_VARIABLE} variable is not accepted (it is a jq program of the client's)`, 400);
      }
      const jqContext: JqContext = { identity, timezone, querySvc: inProcessQueryRunner({ schemas: rt.schema, writes: rt.writes, permissions: rt.permissions, guard: requestGuard(rt.config) }, identity) };
      const applied = await applyJqVariableToRequest({ method: req.method, body: req.body, search }, this.jq, jqContext);
      ({ body, search } = applied);
      if (applied.program !== undefined) context.jqPrograms.push(applied.program);
      const parts = requestParts(req.method, body, search);
      const guard = requestGuard(rt.config);
      const tooDeep = guard.before?.(parts.query, parts.variables, identity, parts.variablesText);
      if (tooDeep) {
        // Refused before parsing, with the status and media type Apollo would answer (SPEC §1).
        const strict = prefersGraphqlResponse(req.headers.accept);
        return void reply.status(strict ? 400 : 200).header('content-type', strict ? 'application/graphql-response+json; charset=utf-8' : 'application/json').send(refusalBody(tooDeep));
      }
      // An operation the fast path answered before skips Apollo (src/pipeline/fast-path/prepared.ts),
      // unless Apollo's own plugins must see every request: Studio usage reports, federation traces.
      const apolloSeesAll = rt.config.FEDERATION || (!!rt.config.APOLLO_KEY && !!rt.config.APOLLO_GRAPH_REF);
      if (req.method === 'POST' && !apolloSeesAll) {
        const text = await answerPrepared(rt.schema.current.schema, body, context, guard, req.headers.accept);
        if (text !== undefined) return void reply.status(200).header('content-type', 'application/json; charset=utf-8').send(text);
      }
    } catch (e) {
      return sendFailure(reply, e, this.runtime.log);
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
