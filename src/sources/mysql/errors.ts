// MySQL / MariaDB errors -> client errors, as src/executor/db-errors.ts does for PostgreSQL codes:
// errors about the statement's values name the problem; anything else stays internal.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { statementTimeout } from '../timeout.js';

/** errno -> what went wrong (https://mariadb.com/kb/en/mariadb-error-codes/). */
const KNOWN: Readonly<Record<number, string>> = {
  1062: 'unique constraint violated',
  1451: 'foreign key constraint violated (rows still reference it)',
  1452: 'foreign key constraint violated',
  1048: 'a required (NOT NULL) column is missing',
  1364: 'a required column has no value and no default',
  4025: 'check constraint violated',
  3819: 'check constraint violated',
  1292: 'invalid input value',
  1366: 'invalid input value',
  1264: 'numeric value out of range',
  1406: 'value too long for its column',
  3140: 'invalid JSON value',
  4038: 'invalid JSON value',
  1146: 'a table named by the catalog does not exist',
  1054: 'a column named by the catalog does not exist',
  1305: 'a function named by the catalog does not exist',
};

/** ER_STATEMENT_TIMEOUT (MariaDB max_statement_time) and MySQL's max_execution_time. */
const TIMEOUT = new Set([1969, 3024]);
const CONNECTION = new Set(['ECONNREFUSED', 'PROTOCOL_CONNECTION_LOST', 'ETIMEDOUT', 'ECONNRESET']);

export function mysqlError(e: unknown, source: string, timeoutMs: number | undefined): unknown {
  const err = e as { errno?: number; code?: string; sqlMessage?: string; message?: string };
  if (err?.errno !== undefined && TIMEOUT.has(err.errno)) return statementTimeout(source, timeoutMs);
  if (err?.code && CONNECTION.has(err.code)) return new PublicError(ErrorCode.SourceUnavailable, `data source "${source}" is unavailable`);
  const known = err?.errno !== undefined ? KNOWN[err.errno] : undefined;
  // sqlMessage quotes the offending value or key, never other rows: the client sent it.
  if (known) return new PublicError(ErrorCode.QueryFailed, `${source}: ${known}: ${err.sqlMessage ?? err.message}`);
  return e;
}
