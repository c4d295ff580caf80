// PostgreSQL errors the source itself turns into client errors: the statement time limit. Every
// other error goes on as the driver gave it: src/executor/db-errors.ts maps each SQLSTATE class
// (bad client geometry, reported by PostGIS as XX000, included) to a message in svc's words.
import { statementTimeout } from '../timeout.js';

/** QUERY_TIMEOUT reached (statement_timeout cancels with SQLSTATE 57014), or the error unchanged. */
export function timeoutError(e: unknown, source: string, timeoutMs: number | undefined): unknown {
  const err = e as { code?: string; message?: string };
  return err?.code === '57014' && /statement timeout/i.test(err.message ?? '') ? statementTimeout(source, timeoutMs) : e;
}

/** A pg error as the client should see it (a timeout), or unchanged. */
export function clientError(e: unknown, source: string, timeoutMs: number | undefined): unknown {
  return timeoutError(e, source, timeoutMs);
}
