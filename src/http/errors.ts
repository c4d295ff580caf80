// The GraphQL response shape for errors raised outside execution (SPEC §1): bad JSON, oversized
// bodies, authentication and authorisation failures.
import type { FastifyReply } from 'fastify';
import { ErrorCode, PublicError } from '../shared/errors.js';

export function errorBody(code: string, message: string): string {
  return JSON.stringify({ data: null, extensions: {}, errors: [{ message, extensions: { code } }] });
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string): void {
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(errorBody(code, message));
}

/** Maps an error thrown before or around execution to a status and a public message. */
export function sendFailure(reply: FastifyReply, e: unknown): void {
  if (e instanceof PublicError) return sendError(reply, e.status === 200 ? 400 : e.status, e.code, e.message);
  const err = e as { statusCode?: number; code?: string; message?: string };
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
    return sendError(reply, 413, ErrorCode.PayloadTooLarge, 'request body is larger than the limit (MAX_BODY_SIZE)');
  }
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
    return sendError(reply, 415, ErrorCode.BadRequest, 'unsupported content type: send application/json');
  }
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (err.statusCode === 400 && /JSON/i.test(String(err.message)))) {
    return sendError(reply, 400, ErrorCode.BadRequest, `malformed JSON body: ${String(err.message).replace(/^Body is not valid JSON but content-type is set to 'application\/json'/, 'invalid JSON')}`);
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return sendError(reply, err.statusCode, ErrorCode.BadRequest, String(err.message));
  return sendError(reply, 500, ErrorCode.Internal, 'internal server error');
}
