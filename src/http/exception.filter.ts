// Errors that escape the routes (bad JSON bodies, oversized bodies, unknown paths) answered in the
// GraphQL error shape of SPEC §1.
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ErrorCode } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { sendError, sendFailure } from './errors.js';

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(private readonly log?: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof HttpException && !(exception.cause as { code?: string } | undefined)?.code) {
      const status = exception.getStatus();
      const code = status === 404 ? ErrorCode.NotFound : status >= 500 ? ErrorCode.Internal : ErrorCode.BadRequest;
      if (status >= 500 && this.log) return sendFailure(reply, exception, this.log);
      return sendError(reply, status, code, status >= 500 ? 'internal server error' : exception.message);
    }
    sendFailure(reply, (exception as { cause?: unknown })?.cause && exception instanceof HttpException ? exception.cause : exception, this.log);
  }
}
