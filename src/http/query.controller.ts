// POST /query and GET /query (SPEC §1): the context factory decides who asks (identity, role,
// access, endpoint, zone, limits), then the operation runner (src/pipeline/run-operation.ts) runs it.
import { Readable } from 'node:stream';
import { Controller, Get, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../executor/request-context.js';
import type { JqContext } from '../jq/context.js';
import { JqEngine } from '../jq/engine.js';
import { applyJqVariableToRequest, JQ_VARIABLE } from '../jq/variables.js';
import { SvcContext, SvcGuard } from '../pipeline/svc.guard.js';
import { InProcessClient } from '../pipeline/in-process.js';
import { requestParts } from '../pipeline/limits/cost-limit.js';
import { OperationRunner } from '../pipeline/run-operation.js';
import { clientJqRefusal } from '../pipeline/safelist.js';
import { streamedBody } from '../pipeline/streamed.js';
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

/** svc's own route is guarded like a team's (SvcGuard): the caller's context is made before the handler. */
@Controller()
@UseGuards(SvcGuard)
export class QueryController {
  constructor(
    @Inject(OperationRunner) private readonly operations: OperationRunner,
    @Inject(InProcessClient) private readonly client: InProcessClient,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(JqEngine) private readonly jq: JqEngine,
  ) {}

  @Post('query')
  post(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @SvcContext() context: RequestContext): Promise<void> {
    return this.handle(req, reply, context);
  }

  @Get('query')
  get(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @SvcContext() context: RequestContext): Promise<void> {
    return this.handle(req, reply, context);
  }

  private async handle(req: FastifyRequest, reply: FastifyReply, context: RequestContext): Promise<void> {
    let body: unknown;
    const q = req.url.indexOf('?');
    let search = q >= 0 ? req.url.slice(q) : '';
    try {
      if (req.method === 'POST' && !/^application\/(graphql-response\+)?json\b/i.test(String(req.headers['content-type'] ?? ''))) {
        // Only JSON bodies: a form or text/plain POST is how cross-site request forgery arrives.
        throw new PublicError(ErrorCode.BadRequest, 'unsupported content type: send application/json', 415);
      }
      if (this.config.STREAM_LIST_ROWS > 0) context.streamAbove = this.config.STREAM_LIST_ROWS;
      // A `_jq` variable is evaluated before the GraphQL text is parsed (SPEC §8).
      body = req.body;
      if (hasJqVariable(requestParts(req.method, req.body, search))) {
        const refused = clientJqRefusal(this.config, `the ${JQ_VARIABLE} variable`);
        if (refused) throw new PublicError(ErrorCode.BadRequest, refused, 400);
        const jqContext: JqContext = { identity: context.identity, timezone: context.timezone, querySvc: this.client.querySvc(context) };
        const applied = await applyJqVariableToRequest({ method: req.method, body: req.body, search }, this.jq, jqContext);
        ({ body, search } = applied);
        if (applied.program !== undefined) context.jqPrograms.push(applied.program);
      }
      const answer = await this.operations.run(context, { method: req.method, headers: req.headers, search, body, prepared: true });
      void reply.status(answer.status);
      for (const [k, v] of answer.headers) void reply.header(k, v);
      // Large root lists are read while they are written (src/pipeline/streamed.ts).
      if (context.streamed.length && answer.text.includes('\u0000')) return void reply.send(Readable.from(streamedBody(answer.text, context.streamed), { objectMode: false, highWaterMark: 1 << 16 }));
      return void reply.send(answer.text);
    } catch (e) {
      return sendFailure(reply, e, this.log);
    }
  }
}
