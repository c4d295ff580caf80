// POST /ipc (SPEC §13): the same request as /query — same credentials, role, endpoint rule
// (`_endpoints` `/ipc`), limits and time zone — answered as multipart/mixed with Arrow IPC streams.
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { ApolloServer } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse } from 'graphql';
import { IdentityService } from '../../auth/identity.service.js';
import { RequestContext, type RowStream } from '../../executor/request-context.js';
import { RoleGate } from '../../permissions/roles.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseDbJson } from '../../shared/json.js';
import { metrics } from '../../shared/metrics.js';
import { requestTimeZone } from '../../shared/timezone.js';
import { SvcRuntime } from '../../system/runtime.js';
import { refusalBody, requestGuard, requestParts } from '../cost-limit.js';
import { sendFailure } from '../errors.js';
import { APOLLO } from '../tokens.js';
import { type GraphqlAnswer, writeAnswer } from './answer.js';
import { BOUNDARY, MultipartWriter } from './multipart.js';
import { fragmentsOf, operationOf, resultParts } from './parts.js';

@Controller()
export class IpcController {
  constructor(
    @Inject(APOLLO) private readonly apollo: ApolloServer<RequestContext>,
    @Inject(IdentityService) private readonly identities: IdentityService,
    @Inject(RoleGate) private readonly roles: RoleGate,
    @Inject(SvcRuntime) private readonly runtime: SvcRuntime,
  ) {}

  /** The caller's context, as /query makes it, with root lists registered for streaming. */
  private async context(req: FastifyRequest): Promise<RequestContext> {
    const identity = await this.identities.identify(req.headers);
    await this.roles.check(identity.role);
    const access = await this.runtime.permissions.forRole(identity.role);
    if (access.endpointDenied('/ipc')) {
      metrics.authFailures.inc({ reason: 'endpoint_denied' });
      throw new PublicError(ErrorCode.Forbidden, `role "${identity.role}" may not use /ipc`, 403);
    }
    const context = new RequestContext(identity, access, requestTimeZone(req.headers, this.runtime.config.DB_TIMEZONE));
    context.streams = new Map<string, RowStream>();
    return context;
  }

  @Post('ipc')
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let context: RequestContext;
    let query: string;
    try {
      if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) {
        throw new PublicError(ErrorCode.BadRequest, 'unsupported content type: send application/json', 415);
      }
      context = await this.context(req);
      const parts = requestParts('POST', req.body, '');
      const refused = requestGuard(this.runtime.config).before?.(parts.query, parts.variables, context.identity, parts.variablesText);
      if (refused) return void reply.status(200).header('content-type', 'application/json').send(refusalBody(refused));
      query = String(parts.query ?? '');
    } catch (e) {
      return sendFailure(reply, e, this.runtime.log);
    }
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    // /ipc answers in its own media type; Apollo is asked for plain JSON.
    headers.set('accept', 'application/json');
    const response = await this.apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: 'POST', headers, search: '', body: req.body }, context: async () => context });
    let text = '';
    if (response.body.kind === 'complete') text = response.body.string;
    else for await (const chunk of response.body.asyncIterator) text += chunk;
    const status = response.status ?? 200;
    const answer = parseDbJson(text) as GraphqlAnswer;
    const document = status === 200 && answer.data ? safeParse(query) : undefined;
    const operation = document && operationOf(document, (req.body as { operationName?: string } | undefined)?.operationName ?? undefined);
    if (!document || !operation) {
      // Refused before execution (syntax, validation, authorisation): the same JSON answer as /query.
      return void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(text);
    }
    const served = this.runtime.schema.current;
    const fragments = fragmentsOf(document);
    const parts = resultParts(served.schema, operation, fragments, served.index.modules);
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': `multipart/mixed; boundary=${BOUNDARY}`, 'x-request-id': String(req.id) });
    const out = new MultipartWriter(reply.raw);
    try {
      await writeAnswer(out, answer, parts, context.streams!, fragments, this.runtime.log);
    } catch (e) {
      this.runtime.log.error({ err: e }, 'ipc: answer failed');
      reply.raw.destroy();
    }
  }
}

function safeParse(query: string): ReturnType<typeof parse> | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}
