// MySQL / MariaDB errors the source itself turns into client errors: the statement time limit and
// a lost connection. Every other error goes on as the driver gave it: src/executor/db-errors.ts
// maps each errno class to a message in svc's words (no database text reaches a client).
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { statementTimeout } from '../timeout.js';

/** ER_STATEMENT_TIMEOUT (MariaDB max_statement_time) and MySQL's max_execution_time. */
const TIMEOUT = new Set([1969, 3024]);
const CONNECTION = new Set(['ECONNREFUSED', 'PROTOCOL_CONNECTION_LOST', 'ETIMEDOUT', 'ECONNRESET']);

export function mysqlError(e: unknown, source: string, timeoutMs: number | undefined): unknown {
  const err = e as { errno?: number; code?: string };
  if (err?.errno !== undefined && TIMEOUT.has(err.errno)) return statementTimeout(source, timeoutMs);
  if (err?.code && CONNECTION.has(err.code)) return new PublicError(ErrorCode.SourceUnavailable, `data source "${source}" is unavailable`);
  return e;
}
