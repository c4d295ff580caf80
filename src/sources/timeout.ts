// QUERY_TIMEOUT (issue 15): one statement may run this long on any source. PostgreSQL enforces it
// with statement_timeout, DuckDB by interrupting the connection; both answer with this error.
import { ErrorCode, PublicError } from '../shared/errors.js';
import { noteLimitRefusal } from '../shared/limit-refusal.js';

/** `60000` -> `60s`, `250` -> `250ms`: the way the setting is written. */
export function durationText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

export function statementTimeout(source: string, ms: number | undefined): PublicError {
  const limit = ms ? ` of ${durationText(ms)}` : '';
  noteLimitRefusal();
  return new PublicError(ErrorCode.QueryTimeout, `${source}: the statement was cancelled after the time limit${limit} (QUERY_TIMEOUT)`);
}

/** The client went away (or the request was cancelled) while its statement ran: it was interrupted. */
export function statementCancelled(source: string): PublicError {
  return new PublicError(ErrorCode.QueryFailed, `${source}: the statement was cancelled because the request was cancelled`);
}
