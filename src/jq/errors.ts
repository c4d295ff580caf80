// Errors of the jq layer (DESIGN.md §3.6): each carries a public code and the HTTP status that
// /jq-query and the `_jq` variable answer with. Messages are safe to show to the caller.
import { ErrorCode, PublicError } from '../shared/errors.js';

export type JqErrorCode =
  /** The program does not compile (syntax error, unknown function or variable): the caller's fault. */
  | 'JQ_INVALID'
  /** The program compiled but failed while running (`error(...)`, a type error, a bad time string). */
  | 'JQ_ERROR'
  /** The program ran longer than the time limit (JQ_TIMEOUT) and was stopped. */
  | 'JQ_TIMEOUT'
  /** The program needed more memory than the bound (JQ_MAX_MEMORY) and was stopped. */
  | 'JQ_MEMORY'
  /** No worker took the program within JQ_WAIT_TIMEOUT (all busy, or starting): retryable, 503. */
  | 'JQ_BUSY'
  /** A fault of the engine itself (worker crash); logged, shown as a generic message. */
  | 'JQ_INTERNAL';

const STATUS: Record<JqErrorCode, number> = {
  JQ_INVALID: 400,
  // Seed 000 lists 400 only for an invalid expression; a failure while running is reported as a
  // server-side error during execution (500), with the jq message so the caller can fix it.
  JQ_ERROR: 500,
  JQ_TIMEOUT: 500,
  JQ_MEMORY: 500,
  JQ_BUSY: 503,
  JQ_INTERNAL: 500,
};

export class JqError extends Error {
  readonly status: number;

  constructor(
    readonly code: JqErrorCode,
    message: string,
    status?: number,
  ) {
    super(message);
    this.name = 'JqError';
    this.status = status ?? STATUS[code];
  }
}

/**
 * The same failure as a PublicError, for callers that answer through the shared error path
 * (src/http/errors.ts `sendFailure`), e.g. the `_jq` variable on /query (src/http/query.route.ts).
 */
export function toPublicError(e: JqError, prefix = ''): PublicError {
  const code = e.status === 400 ? ErrorCode.BadRequest : e.code === 'JQ_INTERNAL' ? ErrorCode.Internal : e.code === 'JQ_BUSY' ? ErrorCode.SourceUnavailable : ErrorCode.QueryFailed;
  return new PublicError(code, prefix + e.message, e.status);
}
