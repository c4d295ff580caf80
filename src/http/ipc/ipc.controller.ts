// POST /ipc (SPEC §13): the same request as /query — same credentials, role, endpoint rule
// (`_endpoints` `/ipc`), limits and time zone — answered as multipart/mixed with Arrow IPC streams.
import { Controller, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { SchemaService } from '../../pipeline/schema.service.js';
import { LOGGER, type Logger } from '../../shared/logger.js';
import { SvcContext, SvcGuard } from '../../pipeline/svc.guard.js';
import type { RequestContext } from '../../executor/request-context.js';
import { sendFailure } from '../errors.js';
import { OperationRunner } from '../../pipeline/run-operation.js';
import { writeAnswer } from './answer.js';
import { BOUNDARY, MultipartWriter } from './multipart.js';
import { type IpcOutcome, type IpcRequest, runIpc } from './runner.js';

/** Guarded like a team's route (SvcGuard): the caller's context is made before the handler. */
@Controller()
@UseGuards(SvcGuard)
export class IpcController {
  constructor(
    @Inject(OperationRunner) readonly operations: OperationRunner,
    @Inject(SchemaService) readonly schemas: SchemaService,
    @Inject(LOGGER) readonly log: Logger,
  ) {}

  @Post('ipc')
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @SvcContext() context: RequestContext): Promise<void> {
    let outcome: IpcOutcome;
    try {
      if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) {
        throw new PublicError(ErrorCode.BadRequest, 'unsupported content type: send application/json', 415);
      }
      outcome = await runIpc(this, context, (req.body ?? {}) as IpcRequest, req.headers);
    } catch (e) {
      return sendFailure(reply, e, this.log);
    }
    if (outcome.kind === 'json') return void reply.status(outcome.status).header('content-type', 'application/json; charset=utf-8').send(outcome.text);
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': `multipart/mixed; boundary=${BOUNDARY}`, 'x-request-id': String(req.id) });
    try {
      await writeAnswer(new MultipartWriter(reply.raw), outcome.answer, outcome.parts, outcome.streams, outcome.fragments, this.log);
    } catch (e) {
      this.log.error({ err: e }, 'ipc: answer failed');
      reply.raw.destroy();
    }
  }
}
