// A limit refused the request being served, before it ran or while it ran (issue 31): a document
// over a limit, an answer over MAX_RESPONSE_ROWS / MAX_RESPONSE_BYTES, a statement stopped at
// QUERY_TIMEOUT. The request's scope says so: its log line is sampled apart (src/http/request-log.ts),
// and an anonymous caller's address keeps its turn for ANONYMOUS_REFUSAL_HOLD after the answer
// (src/http/caller-gate.ts), whichever limit it was: a flood of requests refused at execution costs
// the server the statements run up to the limit, as a flood refused before parsing costs the scan.
import { currentRequest, type RequestScope } from './request-scope.js';

/** `scope`: the request's, when the caller has it (its context's); else the AsyncLocalStorage's. */
export function noteLimitRefusal(scope: RequestScope | undefined = currentRequest()): void {
  if (scope) scope.refusedByLimit = true;
}
