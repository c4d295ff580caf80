// Database errors -> client errors. Constraint violations name the object and field; anything
// unexpected is logged in full and shown as a generic message (DESIGN.md §3.6).
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

const PG_CODES: Record<string, string> = {
  '23505': 'unique constraint violated',
  '23503': 'foreign key constraint violated',
  '23502': 'a required (NOT NULL) column is missing',
  '23514': 'check constraint violated',
  '22P02': 'invalid input value',
  '22007': 'invalid date/time value',
  '22008': 'date/time value out of range',
  '22003': 'numeric value out of range',
  '42P01': 'a table named by the catalog does not exist',
  '42703': 'a column named by the catalog does not exist',
  '42883': 'a function named by the catalog does not exist (or not for these argument types)',
  '57014': 'statement timed out or was cancelled',
};

export function translateDbError(e: unknown, source: string, log: Logger): Error {
  if (e instanceof PublicError) return e;
  const err = e as { code?: string; message?: string; detail?: string; table?: string; column?: string; constraint?: string };
  const message = String(err.message ?? e);
  // SQLSTATE class 22 is "data exception": the value is at fault, not the server.
  const known = err.code ? PG_CODES[err.code] ?? (err.code.startsWith('22') ? 'invalid input value' : undefined) : undefined;
  if (err.code && known) {
    const what = [err.table && `table "${err.table}"`, err.column && `column "${err.column}"`, err.constraint && `constraint "${err.constraint}"`].filter(Boolean).join(', ');
    return new PublicError(ErrorCode.QueryFailed, `${source}: ${known}${what ? ` (${what})` : ''}: ${err.detail ?? message}`);
  }
  if (/Conflict on (update|tuple deletion)|could not serialize access|deadlock detected/i.test(message) || err.code === '40001' || err.code === '40P01') {
    // Another writer changed the same rows at the same moment; nothing of this request was written.
    return new PublicError(ErrorCode.QueryFailed, `${source}: the rows were changed by a concurrent request; nothing was written, try again`);
  }
  if (/^(Constraint|Conversion|Binder|Catalog|Invalid Input|Parser|Out of Range|Not implemented|Invalid) Error/i.test(message) || /violat/i.test(message)) {
    // DuckDB errors describe the statement's problem, not the server; they are safe to show.
    return new PublicError(ErrorCode.QueryFailed, `${source}: ${message.split('\n')[0]}`);
  }
  if (/timeout exceeded when trying to connect/.test(message)) {
    // pg.Pool waited connectionTimeoutMillis for a free connection (src/sources/postgres/source.ts).
    return new PublicError(ErrorCode.SourceUnavailable, `data source "${source}" has no free connection: its pool is busy; try again`);
  }
  if (/ECONNREFUSED|Connection terminated|terminating connection|connect ETIMEDOUT/i.test(message)) {
    return new PublicError(ErrorCode.SourceUnavailable, `data source "${source}" is unavailable`);
  }
  log.error({ err: e, source }, 'query failed');
  return new PublicError(ErrorCode.Internal, `internal error while querying data source "${source}"`);
}
