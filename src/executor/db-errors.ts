// Database errors -> client errors, for every SQL source in one place (issue 29 item 4). The
// database's own text never reaches a client: each class of error (a PostgreSQL SQLSTATE, a MySQL
// errno, a DuckDB error type) becomes a DbError with a code, a `reason` and a message in svc's
// words naming the source (the field is added where the error is formatted, from its path). The
// original is logged with the request's id, its quoted values masked (they may be anyone's data).
import { udfMessageOf } from '../shared/udf-message.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

export type DbErrorReason =
  | 'unique_violation' | 'foreign_key_violation' | 'not_null_violation' | 'check_violation'
  | 'invalid_value' | 'out_of_range' | 'invalid_geometry' | 'catalog_mismatch' | 'not_supported'
  | 'conflict' | 'permission_denied' | 'pool_busy' | 'unavailable' | 'key_refused';

interface ErrorClass {
  readonly code: ErrorCode;
  /** What went wrong, in svc's words. */
  readonly text: string;
  /** About the source as a whole, not the statement of a field: `data source "x" <text>`, no field named. */
  readonly whole?: boolean;
  /** The catalog or the server is at fault, not the request: logged at error, the client gets the request id. */
  readonly ours?: boolean;
  /** The same request may succeed a moment later. */
  readonly retryable?: boolean;
}

const CLASSES: Readonly<Record<DbErrorReason, ErrorClass>> = {
  unique_violation: { code: ErrorCode.QueryFailed, text: 'unique constraint violated: a row with the same key exists' },
  foreign_key_violation: { code: ErrorCode.QueryFailed, text: 'foreign key constraint violated: the referenced row does not exist, or rows still reference this one' },
  not_null_violation: { code: ErrorCode.QueryFailed, text: 'a required (NOT NULL) column is missing' },
  check_violation: { code: ErrorCode.QueryFailed, text: 'check constraint violated' },
  invalid_value: { code: ErrorCode.QueryFailed, text: 'invalid input value: a value does not fit its column or argument type' },
  out_of_range: { code: ErrorCode.QueryFailed, text: 'numeric value out of range for its column or argument type' },
  invalid_geometry: { code: ErrorCode.QueryFailed, text: 'invalid geometry value (GeoJSON or WKT expected, one SRID)' },
  catalog_mismatch: {
    code: ErrorCode.CatalogInvalid, ours: true,
    text: 'the database cannot run what the catalog declares (a table, column or function it lacks, or SQL it refuses); the catalog needs fixing',
  },
  // A unique or foreign key violation told to a role with row filters (src/pipeline/write-check.ts):
  // "a row with the same key exists" would confirm a row the role cannot read.
  key_refused: { code: ErrorCode.QueryFailed, text: 'a unique key or foreign key constraint refused the write' },
  not_supported: { code: ErrorCode.QueryFailed, text: 'the database does not support this operation' },
  conflict: { code: ErrorCode.QueryFailed, retryable: true, text: 'the rows were changed by a concurrent request; nothing was written, try again' },
  permission_denied: { code: ErrorCode.SourceUnavailable, ours: true, text: 'the database refused svc access to an object the catalog names' },
  pool_busy: { code: ErrorCode.SourceUnavailable, retryable: true, whole: true, text: 'has no free connection: its pool is busy; try again' },
  unavailable: { code: ErrorCode.SourceUnavailable, retryable: true, whole: true, text: 'is unavailable' },
};

/** A database error in svc's words. */
export class DbError extends PublicError {
  constructor(
    readonly reason: DbErrorReason,
    readonly source: string,
    /** A column the error is about, where the database names it in a field of its own. */
    readonly column?: string,
  ) {
    const c = CLASSES[reason];
    super(c.code, c.whole ? `data source "${source}" ${c.text}` : `${source}: ${c.text}${column ? ` (column "${column}")` : ''}`);
    this.name = 'DbError';
  }

  get retryable(): boolean {
    return !!CLASSES[this.reason].retryable;
  }

  /** Logged at error with the request id the client is given. */
  get ours(): boolean {
    return !!CLASSES[this.reason].ours;
  }

  /** The message with the GraphQL field it happened in. */
  inField(field: string | undefined): string {
    return field && !CLASSES[this.reason].whole ? `${this.message} (field "${field}")` : this.message;
  }
}

/** PostgreSQL SQLSTATE -> class (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const PG: Readonly<Record<string, DbErrorReason>> = {
  '23505': 'unique_violation', '23503': 'foreign_key_violation', '23502': 'not_null_violation', '23514': 'check_violation',
  '22003': 'out_of_range', '42P01': 'catalog_mismatch', '42703': 'catalog_mismatch', '42883': 'catalog_mismatch', '42601': 'catalog_mismatch',
  '42804': 'catalog_mismatch', '42846': 'catalog_mismatch', '42P10': 'catalog_mismatch', '42702': 'catalog_mismatch', '42803': 'catalog_mismatch',
  '42501': 'permission_denied', '40001': 'conflict', '40P01': 'conflict', '0A000': 'not_supported', '25006': 'not_supported',
  '57P01': 'unavailable', '57P03': 'unavailable', '53300': 'unavailable',
};

/** MySQL / MariaDB errno -> class (https://mariadb.com/kb/en/mariadb-error-codes/). */
const MYSQL: Readonly<Record<number, DbErrorReason>> = {
  1062: 'unique_violation', 1451: 'foreign_key_violation', 1452: 'foreign_key_violation', 1048: 'not_null_violation', 1364: 'not_null_violation',
  4025: 'check_violation', 3819: 'check_violation', 1292: 'invalid_value', 1366: 'invalid_value', 1406: 'invalid_value', 1265: 'invalid_value',
  3140: 'invalid_value', 4038: 'invalid_value', 1411: 'invalid_value', 1264: 'out_of_range', 1690: 'out_of_range', 3037: 'invalid_geometry',
  1146: 'catalog_mismatch', 1054: 'catalog_mismatch', 1305: 'catalog_mismatch', 1064: 'catalog_mismatch', 1052: 'catalog_mismatch', 1584: 'catalog_mismatch',
  1142: 'permission_denied', 1143: 'permission_denied', 1370: 'permission_denied', 1213: 'conflict', 1205: 'conflict', 1290: 'not_supported', 1235: 'not_supported',
};

/** DuckDB names an error's type at the start of its message ("Binder Error: ..."). */
function duckdbReason(message: string): DbErrorReason | undefined {
  const type = /^([A-Za-z ]+?) Error:/.exec(message)?.[1]?.toLowerCase();
  if (!type) return undefined;
  if (type === 'constraint') {
    if (/foreign key/i.test(message)) return 'foreign_key_violation';
    if (/NOT NULL/i.test(message)) return 'not_null_violation';
    if (/CHECK/i.test(message)) return 'check_violation';
    return 'unique_violation';
  }
  if (type === 'conversion' || type === 'invalid input') {
    if (/geometry|WKT|WKB|GeoJSON/i.test(message)) return 'invalid_geometry';
    // "Type INT32 with value 40000 can't be cast because the value is out of range for the destination
    // type INT16": out of range, as PostgreSQL's 22003 and MariaDB's 1264 say it.
    // A number too wide for a DECIMAL(p, s) is "Could not convert string "12345678901.5" to DECIMAL(12,2)".
    return /value is out of range for the destination type|Could not (convert string "-?[\d.]+"|cast value -?[\d.]+) to DECIMAL/.test(message) ? 'out_of_range' : 'invalid_value';
  }
  if (type === 'out of range') return 'out_of_range';
  if (type === 'binder' || type === 'catalog' || type === 'parser') return 'catalog_mismatch';
  if (type === 'not implemented') return 'not_supported';
  if (type === 'transactioncontext' || /Conflict on (update|tuple deletion)/i.test(message)) return 'conflict';
  if (type === 'permission') return 'permission_denied';
  return undefined;
}

/** PostGIS reports a client's bad geometry (WKT, GeoJSON, mixed SRIDs) as internal error XX000. */
const PG_GEOMETRY = /parse error - invalid geometry|unknown GeoJSON type|invalid GeoJSON representation|Unable to find 'coordinates'|Operation on mixed SRID geometries|geometry requires more points|GeoJSON|Invalid hex string|Invalid endian flag|unknown SRID/i;
const CONNECTION = /ECONNREFUSED|ECONNRESET|EPIPE|Connection terminated|terminating connection|connect ETIMEDOUT|PROTOCOL_CONNECTION_LOST/i;

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
  column?: string;
}

/** The class of a driver's error, or undefined when svc does not know it (an internal error). */
export function classifyDbError(e: unknown): { reason: DbErrorReason; column?: string } | undefined {
  const err = (e ?? {}) as DriverError;
  const message = String(err.message ?? e);
  // mysql2 errors carry an errno and a string code (ER_DUP_ENTRY); pg errors a five-character SQLSTATE.
  if (typeof err.errno === 'number' && typeof err.code === 'string' && err.code.startsWith('ER_')) {
    const reason = MYSQL[err.errno];
    const column = reason === 'not_null_violation' ? /Column '([^']+)'|Field '([^']+)'/.exec(message)?.slice(1).find(Boolean) : undefined;
    return reason ? { reason, ...(column ? { column } : {}) } : undefined;
  }
  if (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && /\d/.test(err.code)) {
    if (err.code === 'XX000' && PG_GEOMETRY.test(message)) return { reason: 'invalid_geometry' };
    const reason = PG[err.code] ?? (err.code.startsWith('22') ? 'invalid_value' : err.code.startsWith('08') ? 'unavailable' : undefined);
    if (!reason) return undefined;
    return { reason, ...(reason === 'not_null_violation' && err.column ? { column: err.column } : {}) };
  }
  if (/timeout exceeded when trying to connect/.test(message)) return { reason: 'pool_busy' }; // pg.Pool's connectionTimeoutMillis
  if (CONNECTION.test(message) || (typeof err.code === 'string' && CONNECTION.test(err.code))) return { reason: 'unavailable' };
  const reason = duckdbReason(message);
  if (!reason) return undefined;
  const column = reason === 'not_null_violation' ? /NOT NULL constraint failed: (?:[A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)/.exec(message)?.[1] : undefined;
  return { reason, ...(column ? { column } : {}) };
}

/** Classes whose messages quote the values of a row or a request. */
const QUOTES_VALUES = new Set<DbErrorReason | undefined>(['unique_violation', 'foreign_key_violation', 'check_violation', 'invalid_value', 'out_of_range', 'invalid_geometry', undefined]);

/**
 * The database's message for the log. In errors about values (and unknown ones) every quoted text
 * is masked, as it may be a secret or someone's personal data; errors about the catalog quote names
 * only (`Unknown column 'qty'`, Binder Error), which stay readable.
 */
export function maskedDbMessage(e: unknown, reason?: DbErrorReason): string {
  const message = String((e as DriverError)?.message ?? e).split('\n')[0]!;
  return QUOTES_VALUES.has(reason) ? message.replace(/'(?:[^']|'')*'/g, "'…'").replace(/"(?:[^"]|"")*"/g, '"…"') : message;
}

/** The client's error for a driver's error on `source`; the original is logged with the request id. */
export function translateDbError(e: unknown, source: string, log: Logger): Error {
  if (e instanceof PublicError) return e;
  // A message of svc's own functions (a geometry UDF: "unknown SRID 999999 ...") is the client's to read.
  const own = udfMessageOf(String((e as DriverError)?.message ?? ''));
  if (own !== undefined) return new PublicError(ErrorCode.BadUserInput, `${source}: ${own}`);
  const cls = classifyDbError(e);
  const err = e as DriverError;
  const original = { source, db_error: maskedDbMessage(e, cls?.reason), ...(err?.code !== undefined ? { db_code: err.code } : {}), ...(err?.errno !== undefined ? { db_errno: err.errno } : {}) };
  if (!cls) {
    // The stack without its first line, which repeats the unmasked message.
    log.error({ ...original, stack: (e as Error)?.stack?.split('\n').slice(1).join('\n') }, 'query failed');
    return new PublicError(ErrorCode.Internal, `internal error while querying data source "${source}"`);
  }
  const out = new DbError(cls.reason, source, cls.column);
  log[out.ours ? 'error' : 'warn']({ ...original, reason: cls.reason }, 'database error');
  return out;
}
