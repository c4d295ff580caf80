// The GraphQL response shape for errors raised outside execution (SPEC §1): bad JSON, oversized
// bodies, authentication and authorisation failures.
import type { FastifyReply } from 'fastify';
import { ErrorCode, isLoggedCode, PublicError } from '../shared/errors.js';
import { currentRequest, type RequestScope } from '../shared/request-scope.js';
import { type Logger, requestLogger } from '../shared/logger.js';

/** `scope`: the request answered (the reply's), else the AsyncLocalStorage's. */
export function errorBody(code: string, message: string, scope: RequestScope | undefined = currentRequest()): string {
  // An unavailable source may answer the same request a moment later; an internal fault names the
  // request id its log line carries.
  const retryable = code === ErrorCode.SourceUnavailable || code === ErrorCode.TooManyRequests ? { retryable: true } : {};
  const id = isLoggedCode(code) ? scope?.id : undefined;
  return JSON.stringify({ data: null, extensions: {}, errors: [{ message, extensions: { code, ...retryable, ...(id ? { request_id: id } : {}) } }] });
}

/** `scope`: as errorBody's (a route handler outside the AsyncLocalStorage gives its request's). */
export function sendError(reply: FastifyReply, status: number, code: string, message: string, scope: RequestScope | undefined = currentRequest()): void {
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(errorBody(code, message, scope));
}

/** A body refused while it was read: over MAX_BODY_SIZE or MAX_LIST_VALUES (413), nested too deep (400). */
function refusedByLimit(e: unknown): boolean {
  if (e instanceof PublicError) return e.code === ErrorCode.PayloadTooLarge || (e.code === ErrorCode.BadUserInput && e.status === 400);
  const err = e as { statusCode?: number; code?: string } | undefined;
  return err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err?.statusCode === 413;
}

/** The status of a PublicError raised before execution (its own, else 503 or 400 by code). */
function statusOf(e: PublicError): number {
  if (e.status !== 200) return e.status;
  return e.code === ErrorCode.SourceUnavailable ? 503 : 400;
}

/** Maps an error thrown before or around execution to a status and a public message. */
/**
 * `scope`: the request being answered, as errorBody's: the AsyncLocalStorage's unless the handler runs
 * outside it (the /query route gives its request's). Its line names the id its answer names.
 */
export function sendFailure(reply: FastifyReply, e: unknown, given?: Logger, scope: RequestScope | undefined = currentRequest()): void {
  if (refusedByLimit(e)) {
    const own = (reply.request as { svcScope?: RequestScope } | undefined)?.svcScope;
    if (own) own.refusedByLimit = true;
  }
  const log = given && requestLogger(given, scope);
  if (e instanceof PublicError) {
    if (isLoggedCode(e.code)) log?.error({ err: e }, 'request failed');
    return sendError(reply, statusOf(e), e.code, e.message, scope);
  }
  const err = e as { statusCode?: number; code?: string; message?: string };
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
    return sendError(reply, 413, ErrorCode.PayloadTooLarge, 'request body is larger than the limit (MAX_BODY_SIZE)', scope);
  }
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
    return sendError(reply, 415, ErrorCode.BadRequest, 'unsupported content type: send application/json', scope);
  }
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (err.statusCode === 400 && /JSON/i.test(String(err.message)))) {
    return sendError(reply, 400, ErrorCode.BadRequest, `malformed JSON body: ${String(err.message).replace(/^Body is not valid JSON but content-type is set to 'application\/json'/, 'invalid JSON')}`, scope);
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return sendError(reply, err.statusCode, ErrorCode.BadRequest, String(err.message), scope);
  // Unexpected (a team's own module included): logged with the request id the answer names.
  log?.error({ err: e }, 'request failed');
  return sendError(reply, 500, ErrorCode.Internal, 'internal server error', scope);
}
