// A `postgres` data source: a `pg.Pool` of connections (SPEC §3.1). Statements are written by our
// compiler with $n parameters and sent through the pg client. knex is not used: svc needs a pool
// and raw statements only, and knex's pool was reachable only through its internal
// client.acquireConnection() (issue 16; docs/postgres.md).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { limitIdle } from './idle.js';
import type { DataObject } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { PoolStats } from '../../shared/metrics.js';
import { parseDbJson } from '../../shared/json.js';
import type { CompiledSql } from '../../sql/compiler.js';
import { PostgresCompiler } from '../../sql/dialects/postgres.js';
import { ROW_VALUE_TYPES, arrayReader } from '../../sql/pg/row-values.js';
import { RowsAnswer } from '../../sql/rows/answer.js';
import { statementCancelled } from '../timeout.js';
import { clientError } from './errors.js';
import { type ReadRows, type TypeParsers, readPrepared } from './prepared-read.js';
import { type DataSourceRuntime, type Row, type SourceConnection, splitTableName } from '../types.js';
import type { CancelSignal } from '../../shared/request-scope.js';

// String comparisons leave the parameter untyped, so PostgreSQL takes the column's type (uuid, enums).
// Compilers are shared by the sources of one setting (their plans are cached per operation anyway).
const compilers = new Map<string, PostgresCompiler>();
function compilerOf(rows: boolean): PostgresCompiler {
  const key = String(rows);
  let c = compilers.get(key);
  if (!c) compilers.set(key, (c = new PostgresCompiler({ untypedStrings: true, rows })));
  return c;
}
/** The compiler of the default settings (the kind's descriptor names it). */
export const compiler = compilerOf(true);
const RAW_TEXT: TypeParsers = { getTypeParser: () => (v: string) => v };
/** Rows per FETCH of an /ipc stream: a few MB at most in memory, few round trips. */
const STREAM_BATCH = 2000;
/** json and jsonb read without rounding integers beyond 2^53 (SPEC §3.4); other types as pg parses them. */
const JSON_OIDS = new Set([114, 3802]);
const EXACT_JSON = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (JSON_OIDS.has(oid) ? parseDbJson : pg.types.getTypeParser(oid, format as 'text')),
} as never;
/** Prepared statements kept per connection (the server holds them in each session's memory). */
const MAX_NAMED = 500;

/** Statement names by SQL text: hashing the text of every statement showed in profiles of short reads. */
const names = new Map<string, string>();

function nameOf(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `svc_${createHash('sha1').update(sql).digest('hex')}`;
    // Plans are cached per operation, so the texts repeat; a bounded map forgets when they don't.
    if (names.size >= MAX_NAMED * 4) names.clear();
    names.set(sql, name);
  }
  return name;
}

/**
 * Session settings every connection gets: intervals print as ISO-8601 durations (SPEC §3.4); the
 * session zone is UTC, so a naive `timestamp` served as Timestamp is read as UTC (docs/catalogs.md
 * "Timestamps") whatever the server's `timezone` setting is. They come after the path's own
 * `options`, so they win.
 */
const SESSION_OPTIONS = '-c intervalstyle=iso_8601 -c timezone=UTC';

export interface PostgresSourceOptions {
  readonly name: string;
  /** postgres://user:pass@host:port/db?... with [$ENV] already substituted. */
  readonly url: string;
  readonly readOnly: boolean;
  readonly maxConnections: number;
  /** DB_MAX_IDLE_CONNS: connections kept idle; one released beyond it is closed (0: all kept, for 30 s). */
  readonly maxIdle?: number;
  readonly statementTimeoutMs?: number;
  /** SQL_ROWS: reads return rows assembled in Node (default), or one JSON document each. */
  readonly rows?: boolean;
}

/** Statements whose typed 1:N arrays held a type the rows are not read by (their JSON form is run instead). */
const jsonOnly = new Set<string>();

/**
 * The 1:N levels' arrays of a rows statement read in place by their element type; false where one
 * is of a type not read this way (an enum's, a domain's: src/sql/pg/row-values.ts).
 */
function readArrays(rows: unknown[][], oids: readonly number[], columns: readonly number[]): boolean {
  const readers = columns.map((i) => arrayReader(oids[i]!));
  if (readers.some((x) => !x)) return false;
  for (const row of rows) {
    for (let k = 0; k < columns.length; k++) {
      const i = columns[k]!;
      const text = row[i];
      if (text === null) continue;
      const values = readers[k]!(text as string);
      if (!values) return false;
      row[i] = values;
    }
  }
  return true;
}

/**
 * The rows of a statement with their column types: a named statement through readPrepared (its
 * result described once per connection), an unnamed one (in a transaction, or on a connection
 * holding MAX_NAMED already) through pg's own query.
 */
async function rowsOf(c: pg.ClientBase, name: string | undefined, text: string, params: readonly unknown[], types: TypeParsers): Promise<ReadRows> {
  if (name !== undefined) return readPrepared(c, name, text, params, types);
  const r = await c.query({ text, values: params as unknown[], rowMode: 'array', types: types as never });
  return { rows: r.rows as unknown[][], oids: r.fields.map((f) => f.dataTypeID) };
}

/** A rows statement's answer (src/sql/rows/answer.ts: the rows, assembled or written later), or the JSON document of any other read. */
async function answerOf(c: pg.ClientBase, stmt: CompiledSql, name: (sql: string) => string | undefined): Promise<unknown> {
  if (stmt.rows) {
    const json = stmt.json !== undefined && jsonOnly.has(stmt.sql) ? stmt.json : undefined;
    const text = json ? json.sql : stmt.sql;
    const r = await rowsOf(c, name(text), text, stmt.params, ROW_VALUE_TYPES);
    if (json) return new RowsAnswer(r.rows, json.rows);
    if (stmt.arrays && !readArrays(r.rows, r.oids, stmt.arrays)) {
      if (stmt.json === undefined) throw new PublicError(ErrorCode.Internal, 'a rows statement returned arrays it cannot read');
      // Bounded: plans are cached per operation, so these texts repeat.
      if (jsonOnly.size >= MAX_NAMED * 4) jsonOnly.clear();
      jsonOnly.add(stmt.sql);
      return answerOf(c, stmt, name);
    }
    return new RowsAnswer(r.rows, stmt.rows);
  }
  const r = await rowsOf(c, name(stmt.sql), stmt.sql, stmt.params, RAW_TEXT);
  const v = r.rows[0]?.[0] as string | null | undefined;
  return v === null || v === undefined ? null : parseDbJson(v);
}

function wrap(c: pg.ClientBase, source: string, timeoutMs: number | undefined): SourceConnection {
  return {
    async all(stmt: CompiledSql): Promise<Row[]> {
      try {
        // A read inside a transaction: its answer as the one value of one row, as a JSON read gives it.
        if (stmt.rows) return [{ result: await answerOf(c, stmt, unnamed) }];
        return (await c.query({ text: stmt.sql, values: stmt.params as unknown[], types: EXACT_JSON })).rows as Row[];
      } catch (e) {
        throw clientError(e, source, timeoutMs);
      }
    },
    async write(stmt: CompiledSql) {
      try {
        const r = await c.query({ text: stmt.sql, values: stmt.params as unknown[], types: EXACT_JSON });
        return { changed: r.rowCount ?? 0, rows: r.rows as Row[] };
      } catch (e) {
        throw clientError(e, source, timeoutMs);
      }
    },
  };
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

export class PostgresSource implements DataSourceRuntime {
  readonly type = 'postgres' as const;
  readonly compiler: PostgresCompiler;

  private constructor(
    readonly name: string,
    readonly readOnly: boolean,
    private readonly connections: pg.Pool,
    private readonly schema: string,
    /** QUERY_TIMEOUT, for the message when statement_timeout cancels a statement. */
    private readonly timeoutMs: number,
    /** `postgres://host:port` and the database name: OpenLineage's naming of PostgreSQL datasets. */
    private readonly lineage: { namespace: string; database: string },
    rows = true,
    /** PostgreSQL's own functions (pg_catalog) the source's schema does not define: called bare. */
    private readonly engineFunctions: ReadonlySet<string> = new Set(),
  ) {
    this.compiler = compilerOf(rows);
  }

  static async connect(o: PostgresSourceOptions): Promise<PostgresSource> {
    const url = new URL(o.url);
    const timeoutMs = o.statementTimeoutMs ?? 60_000;
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    const options = [url.searchParams.get('options'), SESSION_OPTIONS].filter(Boolean).join(' ');
    url.searchParams.delete('options');
    const pool = new pg.Pool({
      connectionString: url.toString(), options, statement_timeout: timeoutMs, application_name: 'svc',
      max: o.maxConnections > 0 ? o.maxConnections : 10,
      idleTimeoutMillis: 30_000,
      // A pool that cannot hand out a connection in time is SOURCE_UNAVAILABLE (db-errors.ts).
      connectionTimeoutMillis: timeoutMs > 0 ? Math.min(10_000, timeoutMs) : 10_000,
    });
    // An idle connection the server closed (restart, pg_terminate_backend, network loss) emits
    // 'error': the pool drops it; without a listener the event would end the process.
    pool.on('error', ignore);
    // While a connection is checked out, pg.Pool no longer listens to its 'error' event: a server
    // that goes away mid-statement would end the process. The statement in flight rejects with
    // the cause; this listener, added once per connection, only keeps the event from being
    // unhandled (pg.Pool closes a connection whose socket broke rather than handing it out again).
    pool.on('connect', (client) => client.on('error', ignore));
    limitIdle(pool, o.maxIdle ?? 0);
    const lineage = { namespace: `postgres://${url.hostname}:${url.port || 5432}`, database: decodeURIComponent(url.pathname.slice(1)) };
    const probe = new PostgresSource(o.name, o.readOnly, pool, schema, timeoutMs, lineage, o.rows);
    let builtins: Row[];
    try {
      // Built-in functions live in pg_catalog; qualified with the source's schema they are not found.
      builtins = await probe.rows(
        `SELECT DISTINCT proname AS name FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace
          AND proname NOT IN (SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1)`,
        [schema],
      );
    } catch (e) {
      await pool.end();
      throw new PublicError(ErrorCode.SourceUnavailable, `data source "${o.name}" (${redactUrl(o.url)}) is unreachable: ${(e as Error).message}`);
    }
    return new PostgresSource(o.name, o.readOnly, pool, schema, timeoutMs, lineage, o.rows, new Set(builtins.map((r) => String(r.name))));
  }

  /** Every statement of this source is admitted against its own pool (DB_PG_CONNECTION_LIMIT). */
  get pool(): { name: string; size: number } {
    return { name: this.name, size: this.connections.options.max ?? 10 };
  }

  /**
   * Runs `run` on `c`; when `signal` aborts (the client went away) the statement is cancelled on the
   * server (pg_cancel_backend from a connection of its own: the pool may be full) and the connection
   * goes back to the pool at once instead of after QUERY_TIMEOUT.
   */
  private async cancellable<T>(c: pg.ClientBase, signal: CancelSignal | undefined, run: () => Promise<T>): Promise<T> {
    if (!signal) return run();
    if (signal.aborted) throw statementCancelled(this.name);
    let running = true;
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      void this.cancel(c, () => running);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await run();
    } catch (e) {
      throw cancelled ? statementCancelled(this.name) : e;
    } finally {
      running = false;
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async cancel(c: pg.ClientBase, stillRunning: () => boolean): Promise<void> {
    const pid = (c as unknown as { processID?: number }).processID;
    if (!pid) return;
    const other = new pg.Client({ ...this.connections.options, statement_timeout: 5_000 });
    other.on('error', ignore);
    try {
      await other.connect();
      // The statement may have finished while this connection opened; its connection is someone else's now.
      if (stillRunning()) await other.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // Best effort: statement_timeout still ends the statement.
    } finally {
      await other.end().catch(ignore);
    }
  }

  /** The PostgreSQL schema that unqualified catalog table names live in (`?schema=`, else public). */
  get defaultSchema(): string {
    return this.schema;
  }

  /** Rows of a statement outside the GraphQL path (introspection); values are parameters. */
  async rows(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return this.withClient(async (c) => (await c.query(sql, params as unknown[])).rows as Row[]);
  }

  poolStats(): PoolStats {
    const { totalCount, idleCount, waitingCount } = this.connections;
    return { inUse: totalCount - idleCount, idle: idleCount, waiting: waitingCount };
  }

  /** Undefined when the server answers, else why it does not (for data_source_status). */
  async ping(): Promise<string | undefined> {
    try {
      await this.withClient((c) => c.query('SELECT 1'));
      return undefined;
    } catch (e) {
      return `data source "${this.name}" is unreachable: ${(e as Error).message}`;
    }
  }

  /**
   * `fn` on a pooled connection, released when its promise settles. pg-pool's callback form: its
   * promise form wraps every acquire in two more promises (issue 30: each request's fixed cost).
   */
  private withClient<T>(fn: (c: pg.ClientBase) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.connections.connect((err, c, release) => {
        if (err || !c) return reject(err);
        let running: Promise<T>;
        try {
          running = fn(c);
        } catch (e) {
          release();
          return reject(e);
        }
        running.then(
          (v) => {
            release();
            resolve(v);
          },
          (e: unknown) => {
            release();
            reject(e);
          },
        );
      });
    });
  }


  private readonly named = new WeakMap<pg.ClientBase, Set<string>>();

  /** A statement name for `sql` on this connection, or undefined once the connection holds many. */
  private statementName(c: pg.ClientBase, sql: string): string | undefined {
    const name = nameOf(sql);
    let names = this.named.get(c);
    if (!names) this.named.set(c, (names = new Set()));
    if (names.has(name)) return name;
    if (names.size >= MAX_NAMED) return undefined;
    names.add(name);
    return name;
  }

  tableName(obj: DataObject): readonly string[] {
    const parts = splitTableName(obj.table);
    return parts.length === 1 ? [this.schema, parts[0]!] : parts;
  }

  lineageDataset(table: readonly string[]): { namespace: string; name: string } {
    return { namespace: this.lineage.namespace, name: [this.lineage.database, ...table].join('.') };
  }

  functionName(name: string): readonly string[] {
    return this.engineFunctions.has(name) ? [name] : [this.schema, name];
  }

  // No queryText: PostgreSQL writes JSON with spaces (`"key" : value`), so the fast path writes the
  // parsed answer rather than this text (a byte-exact response, and fewer bytes on the wire).
  async queryJson(stmt: CompiledSql, signal?: CancelSignal): Promise<unknown> {
    const v = await this.queryAnswer(stmt, signal);
    return v instanceof RowsAnswer ? v.parse() : v;
  }

  /**
   * Values are read by answerOf so integers beyond 2^53 stay exact. Named statements are parsed and
   * planned once per connection (pg keeps them by name). What `withClient` and `cancellable` do,
   * written out in one promise: this is every read's path, and their promises and closures were
   * each request's fixed cost (issue 30: 10 of Q0's 41 promises were here).
   */
  queryAnswer(stmt: CompiledSql, signal?: CancelSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.connections.connect((err, c, release) => {
        if (err || !c) return reject(err);
        if (signal?.aborted) {
          release();
          return reject(statementCancelled(this.name));
        }
        let running = true;
        let cancelled = false;
        // The client went away: the statement is cancelled on the server (see cancellable).
        const onAbort = signal
          ? () => {
            cancelled = true;
            void this.cancel(c, () => running);
          }
          : undefined;
        if (onAbort) signal!.addEventListener('abort', onAbort, { once: true });
        const settled = () => {
          running = false;
          if (onAbort) signal!.removeEventListener('abort', onAbort);
          release();
        };
        const failed = (e: unknown) => {
          settled();
          reject(cancelled ? statementCancelled(this.name) : clientError(e, this.name, this.timeoutMs));
        };
        let answer: Promise<unknown>;
        try {
          answer = answerOf(c, stmt, (sql) => this.statementName(c, sql));
        } catch (e) {
          return failed(e);
        }
        answer.then((v) => {
          settled();
          resolve(v);
        }, failed);
      });
    });
  }

  /** A server-side cursor in a read transaction, fetched STREAM_BATCH rows at a time. */
  async *streamRows(stmt: CompiledSql, signal?: CancelSignal): AsyncGenerator<readonly unknown[]> {
    const c = await this.connections.connect();
    let open = false;
    try {
      await c.query('BEGIN READ ONLY');
      open = true;
      await c.query({ text: `DECLARE svc_rows NO SCROLL CURSOR FOR ${stmt.sql}`, values: stmt.params as unknown[] }).catch((e: unknown) => Promise.reject(clientError(e, this.name, this.timeoutMs)));
      for (;;) {
        const r = await this.cancellable(c, signal, () => c.query({ text: `FETCH ${STREAM_BATCH} FROM svc_rows`, rowMode: 'array', types: RAW_TEXT as never }).catch((e: unknown) => Promise.reject(clientError(e, this.name, this.timeoutMs))));
        if (!r.rows.length) break;
        yield r.rows.map((x: unknown[]) => (x[0] === null || x[0] === undefined ? null : parseDbJson(String(x[0]))));
      }
      await c.query('COMMIT');
      open = false;
    } finally {
      // Ended early (an error, or the client went away): the cursor goes with the transaction.
      if (open) await c.query('ROLLBACK').catch(() => undefined);
      c.release();
    }
  }

  transaction<T>(fn: (conn: SourceConnection) => Promise<T>, _owner?: object): Promise<T> {
    return this.withClient(async (c) => {
      await c.query('BEGIN');
      try {
        const out = await fn(wrap(c, this.name, this.timeoutMs));
        await c.query('COMMIT');
        return out;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  async exec(sql: string): Promise<void> {
    await this.withClient((c) => c.query(sql));
  }

  async close(): Promise<void> {
    await this.connections.end();
  }
}

function ignore(): void {}

/** Statements inside a transaction are not named. */
function unnamed(): undefined {
  return undefined;
}
