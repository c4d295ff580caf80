// PostGIS reports bad client geometry (unparsable WKT or GeoJSON, mixed SRIDs) with SQLSTATE XX000,
// the class of internal errors. Those are the client's values at fault: they become query errors
// that say so, instead of the generic internal message (DESIGN.md §3.6).
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { statementTimeout } from '../timeout.js';

const GEOMETRY_INPUT = /parse error - invalid geometry|unknown GeoJSON type|invalid GeoJSON representation|Unable to find 'coordinates'|Operation on mixed SRID geometries|geometry requires more points|GeoJSON|Invalid hex string|Invalid endian flag|unknown SRID/i;

/** A PublicError for a PostGIS input error, or the error unchanged. */
export function clientGeometryError(e: unknown, source: string): unknown {
  const err = e as { code?: string; message?: string };
  if (err?.code === 'XX000' && typeof err.message === 'string' && GEOMETRY_INPUT.test(err.message)) {
    return new PublicError(ErrorCode.QueryFailed, `${source}: invalid geometry value: ${err.message}`);
  }
  return e;
}

/** QUERY_TIMEOUT reached (statement_timeout cancels with SQLSTATE 57014), or the error unchanged. */
export function timeoutError(e: unknown, source: string, timeoutMs: number | undefined): unknown {
  const err = e as { code?: string; message?: string };
  return err?.code === '57014' && /statement timeout/i.test(err.message ?? '') ? statementTimeout(source, timeoutMs) : e;
}

/** A pg error as the client should see it (timeout, bad geometry), or unchanged. */
export function clientError(e: unknown, source: string, timeoutMs: number | undefined): unknown {
  return clientGeometryError(timeoutError(e, source, timeoutMs), source);
}
