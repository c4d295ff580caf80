// A `mysql` data source (MySQL or MariaDB; SPEC §3.1): a mysql2 pool. Statements are written by
// the MySQL compiler with `$n` placeholders and sent as server-side prepared statements with `?`.
import type * as mysql from 'mysql2/promise';
import { lazyRequire } from '../../shared/lazy-require.js';
import type { DataObject } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { PoolStats } from '../../shared/metrics.js';
import { parseDbJson } from '../../shared/json.js';
import type { CompiledSql } from '../../sql/compiler.js';
import { MysqlCompiler } from '../../sql/dialects/mysql.js';
import { RowsAnswer } from '../../sql/rows/answer.js';
import { redactUrl } from '../postgres/source.js';
import { type DataSourceRuntime, type Row, type SourceConnection, splitTableName } from '../types.js';

// mysql2 is loaded when the first MySQL source is created, not at start: most catalogs have none,
// and its code is ~0.5 MB of the idle server's memory. Its CommonJS entry, required synchronously.
const mysql2 = lazyRequire<typeof mysql>('mysql2/promise');
import { mysqlError } from './errors.js';
import { positional } from './placeholders.js';
import type { CancelSignal } from '../../shared/request-scope.js';

/** The compiler of the default settings (the kind's descriptor names it); SQL_ROWS=false has its own. */
export const compiler = new MysqlCompiler();
const documentsCompiler = new MysqlCompiler(false);

/** Big enough for GROUP_CONCAT lists of a few hundred thousand values (list aggregations). */
const GROUP_CONCAT_MAX = 64 * 1024 * 1024;

export interface MysqlSourceOptions {
  readonly name: string;
  /** mysql://user:pass@host:port/database with [$ENV] already substituted. */
  readonly url: string;
  readonly readOnly: boolean;
  readonly maxConnections: number;
  /** DB_MAX_IDLE_CONNS (0: 2); mysql2 closes idle connections beyond it every idleTimeout. */
  readonly maxIdle?: number;
  readonly statementTimeoutMs?: number;
  /** SQL_ROWS: reads return a positional JSON row each, assembled in Node (default), or one document. */
  readonly rows?: boolean;
}

/** JSON text as mysql2 hands it over with jsonStrings (a Buffer for binary results). */
function jsonOf(v: unknown): unknown {
  return v === null || v === undefined ? null : parseDbJson(Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
}

/** A rows statement's answer (src/sql/rows/): each row's one column is its object as a positional JSON array. */
async function answerOf(c: Conn, stmt: CompiledSql): Promise<RowsAnswer> {
  const [rows] = await c.execute({ ...prepared(stmt), rowsAsArray: true } as never);
  // Each row's JSON as text: parsed by the writer or the assembler (src/sql/rows/assemble.ts).
  return new RowsAnswer((rows as unknown as unknown[][]).map((r) => [r[0] === null || r[0] === undefined ? null : Buffer.isBuffer(r[0]) ? r[0].toString('utf8') : String(r[0])]), stmt.rows!);
}

type Conn = mysql.PoolConnection | mysql.Connection;

/**
 * Session settings of every connection: `"identifiers"` (the base compiler's quoting), UTC (a
 * TIMESTAMP column reads and writes UTC; DATETIME is naive), and the statement time limit.
 */
function sessionSql(timeoutMs: number): string {
  const limit = timeoutMs > 0 ? `, max_statement_time = ${(timeoutMs / 1000).toFixed(3)}` : '';
  return `SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES'), time_zone = '+00:00', group_concat_max_len = ${GROUP_CONCAT_MAX}${limit}`;
}

function connectionOptions(url: URL, timeoutMs: number): mysql.ConnectionOptions {
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    charset: 'utf8mb4',
    timezone: 'Z',
    // Dates as the text the server wrote and integers beyond 2^53 as text: nothing is rounded.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    // JSON as text: svc parses it itself, keeping integers beyond 2^53 exact (SPEC §3.4).
    jsonStrings: true,
    connectTimeout: Math.min(10_000, timeoutMs > 0 ? timeoutMs : 10_000),
  };
}

function prepared(stmt: CompiledSql): { sql: string; values: unknown[] } {
  const p = positional(stmt.sql, stmt.params);
  return { sql: p.sql, values: p.params };
}

function wrap(c: Conn, source: string, timeoutMs: number): SourceConnection {
  return {
    async all(stmt) {
      try {
        // A rows statement's answer as the one value of one row, as a JSON read gives it.
        if (stmt.rows) return [{ result: await answerOf(c, stmt) }];
        const [rows] = await c.execute(prepared(stmt) as never);
        return rows as Row[];
      } catch (e) {
        throw mysqlError(e, source, timeoutMs);
      }
    },
    async write(stmt) {
      try {
        const [result] = await c.execute(prepared(stmt) as never);
        // INSERT ... RETURNING answers rows; UPDATE and DELETE a header with the matched count.
        if (Array.isArray(result)) return { changed: result.length, rows: result as Row[] };
        return { changed: (result as mysql.ResultSetHeader).affectedRows, rows: [] };
      } catch (e) {
        throw mysqlError(e, source, timeoutMs);
      }
    },
  };
}

export class MysqlSource implements DataSourceRuntime {
  readonly type = 'mysql' as const;
  readonly compiler: MysqlCompiler;

  private constructor(
    readonly name: string,
    readonly readOnly: boolean,
    private readonly connections: mysql.Pool,
    private readonly database: string,
    private readonly timeoutMs: number,
    private readonly options: mysql.ConnectionOptions,
    /** Functions the database defines (called qualified); others are the server's own (bare). */
    private readonly routines: ReadonlySet<string>,
    /** Connections of the pool: the size of its admission gate. */
    private readonly size = 10,
    rows = true,
  ) {
    this.compiler = rows ? compiler : documentsCompiler;
  }

  static async connect(o: MysqlSourceOptions): Promise<MysqlSource> {
    const url = new URL(o.url);
    const timeoutMs = o.statementTimeoutMs ?? 60_000;
    const options = connectionOptions(url, timeoutMs);
    if (!options.database) throw new PublicError(ErrorCode.BadUserInput, `data source "${o.name}": the mysql path names no database (mysql://user@host:3306/database)`);
    const size = o.maxConnections > 0 ? o.maxConnections : 10;
    const pool = mysql2().createPool({ ...options, connectionLimit: size, maxIdle: o.maxIdle && o.maxIdle > 0 ? o.maxIdle : 2, idleTimeout: 30_000, enableKeepAlive: true });
    // Every new connection gets the session settings before its first statement.
    pool.pool.on('connection', (c) => c.query(sessionSql(timeoutMs)));
    let routines: Row[];
    try {
      [routines] = (await pool.query('SELECT routine_name AS name FROM information_schema.routines WHERE routine_schema = ?', [options.database])) as unknown as [Row[]];
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw new PublicError(ErrorCode.SourceUnavailable, `data source "${o.name}" (${redactUrl(o.url)}) is unreachable: ${(e as Error).message}`);
    }
    return new MysqlSource(o.name, o.readOnly, pool, options.database!, timeoutMs, options, new Set(routines.map((r) => String(r.name))), size, o.rows ?? true);
  }

  get defaultSchema(): string {
    return this.database;
  }

  tableName(obj: DataObject): readonly string[] {
    const parts = splitTableName(obj.table);
    return parts.length === 1 ? [this.database, parts[0]!] : parts;
  }

  functionName(name: string): readonly string[] {
    return this.routines.has(name) ? [this.database, name] : [name];
  }

  lineageDataset(table: readonly string[]): { namespace: string; name: string } {
    return { namespace: `mysql://${this.options.host}:${this.options.port}`, name: table.join('.') };
  }

  /** Statements are admitted against this source's own pool (DB_PG_CONNECTION_LIMIT). */
  get pool(): { name: string; size: number } {
    return { name: this.name, size: this.size };
  }

  async queryJson(stmt: CompiledSql, signal?: CancelSignal): Promise<unknown> {
    const v = await this.queryAnswer(stmt, signal);
    return v instanceof RowsAnswer ? v.parse() : v;
  }

  async queryAnswer(stmt: CompiledSql, signal?: CancelSignal): Promise<unknown> {
    const rows = signal ? await this.cancellable(stmt, signal) : await wrap(this.connections, this.name, this.timeoutMs).all(stmt);
    if (stmt.rows) return rows[0]!.result;
    return jsonOf(rows[0] ? Object.values(rows[0])[0] : null);
  }

  /**
   * A read on a connection of its own, stopped with KILL QUERY when the request's client goes away
   * (issue 31): the connection goes back to the pool at once instead of running a statement no one
   * will read until max_statement_time. KILL is sent from a new connection, as the pool may be full.
   */
  private async cancellable(stmt: CompiledSql, signal: CancelSignal): Promise<Row[]> {
    const c = await this.connections.getConnection();
    let killing: Promise<void> | undefined;
    const kill = () => {
      killing = this.killQuery(c.threadId);
    };
    signal.addEventListener('abort', kill, { once: true });
    try {
      if (signal.aborted) throw new PublicError(ErrorCode.QueryFailed, `the request was cancelled before data source "${this.name}" ran its statement`);
      return await wrap(c, this.name, this.timeoutMs).all(stmt);
    } finally {
      signal.removeEventListener('abort', kill);
      // Not back to the pool before the KILL is done: it must not reach the next user's statement.
      if (killing) await killing;
      c.release();
    }
  }

  private async killQuery(threadId: number | null): Promise<void> {
    if (threadId === null) return;
    try {
      const k = await mysql2().createConnection(this.options);
      try {
        await k.query(`KILL QUERY ${Number(threadId)}`);
      } finally {
        await k.end();
      }
    } catch {
      // The statement ends at max_statement_time (QUERY_TIMEOUT) anyway.
    }
  }

  async rows(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return wrap(this.connections, this.name, this.timeoutMs).all({ sql, params });
  }

  async transaction<T>(fn: (conn: SourceConnection) => Promise<T>, _owner?: object): Promise<T> {
    const c = await this.connections.getConnection();
    try {
      await c.query('START TRANSACTION');
      try {
        const out = await fn(wrap(c, this.name, this.timeoutMs));
        await c.query('COMMIT');
        return out;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } finally {
      c.release();
    }
  }

  /** Raw SQL, several statements allowed (seeding): on a connection of its own. */
  async exec(sql: string): Promise<void> {
    const c = await mysql2().createConnection({ ...this.options, multipleStatements: true });
    try {
      await c.query(sessionSql(this.timeoutMs));
      await c.query(sql);
    } finally {
      await c.end();
    }
  }

  poolStats(): PoolStats {
    // mysql2 keeps its pool's connections in these queues.
    const p = this.connections.pool as unknown as { _allConnections?: { length: number }; _freeConnections?: { length: number }; _connectionQueue?: { length: number } };
    const all = p._allConnections?.length ?? 0;
    const idle = p._freeConnections?.length ?? 0;
    return { inUse: all - idle, idle, waiting: p._connectionQueue?.length ?? 0 };
  }

  async ping(): Promise<string | undefined> {
    try {
      await this.connections.query('SELECT 1');
      return undefined;
    } catch (e) {
      return `data source "${this.name}" is unreachable: ${(e as Error).message}`;
    }
  }

  async close(): Promise<void> {
    await this.connections.end();
  }
}
