// The embedded DuckDB (DB_PATH): one instance per process; DuckDB sources and a DuckDB core
// database are ATTACHed to it. Reads share a small pool of connections; each transaction gets a
// connection of its own (DuckDB transactions are per connection).
import { availableParallelism, totalmem } from 'node:os';
import { DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { PoolStats } from '../../shared/metrics.js';
import { Serial } from '../../shared/mutex.js';
import { StatementCache } from '../statement-cache.js';
import { statementCancelled, statementTimeout } from '../timeout.js';
import type { Row, SourceConnection } from '../types.js';
import type { KeyWindows } from '../../sql/compiler.js';
import { DuckDbCompiler } from '../../sql/dialects/duckdb.js';
import { registerGeometryFunctions } from './geo/functions.js';
import { finiteJson } from './finite-json.js';
import { windowRows } from './windows.js';
import type { ResultReader } from './read.js';
import type { CancelSignal } from '../../shared/request-scope.js';

/** Engines not yet closed: their running statements are interrupted when the process exits. */
const openEngines = new Set<DuckDbEngine>();

/**
 * `process.exit` waits for libuv's thread pool, where node-api runs each DuckDB statement; a
 * statement nothing bounds (QUERY_TIMEOUT 0, no row cap) would keep an exiting process alive
 * for as long as it runs (SIGTERM at SHUTDOWN_TIMEOUT, a second Ctrl-C). 'exit' listeners run
 * before that wait, so the statements are interrupted there and their threads come back.
 */
function interruptOnExit(): void {
  for (const engine of openEngines) engine.interruptRunning();
}

/**
 * Rows of a statement, with DuckDB's bare NaN / Infinity in its JSON columns quoted (finite-json.ts):
 * a read inside a mutation's transaction comes this way, not through queryText.
 */
function finiteRows(reader: Awaited<ReturnType<DuckDBConnection['runAndReadAll']>>): Row[] {
  const rows = reader.getRowObjectsJS() as Row[];
  const types = reader.columnTypes();
  const json = reader.columnNames().filter((_, i) => types[i]?.alias === 'JSON');
  if (!json.length) return rows;
  for (const row of rows) for (const k of json) if (typeof row[k] === 'string') row[k] = finiteJson(row[k] as string);
  return rows;
}

export class DuckDbEngine {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: ((c: DuckDBConnection) => void)[] = [];
  private open = 0;
  /** Pooled connections handed out: interrupted when the engine closes (SIGTERM does not wait for them). */
  private readonly busy = new Set<DuckDBConnection>();

  private constructor(
    readonly instance: DuckDBInstance,
    private readonly maxOpen: number,
    /** Name of the engine's own database (`memory`, or the DB_PATH file's stem). */
    readonly defaultDatabase: string,
    /** QUERY_TIMEOUT in ms (0: none). */
    private readonly timeoutMs: number,
    /** DB_MAX_IDLE_CONNS: connections kept idle; one released beyond it is closed (0: all kept). */
    private readonly maxIdle = 0,
    /** The DuckDB sources' compiler (DUCKDB_WINDOW_ROWS: ordered lists read in key windows). */
    readonly compiler = new DuckDbCompiler(),
    /** DuckDB's memory_limit as set when the instance was opened. */
    private readonly memoryLimit = '',
  ) {
    if (openEngines.size === 0) process.once('exit', interruptOnExit);
    openEngines.add(this);
  }

  static async create(path: string, maxOpen: number, timeoutMs = 0, limits: DuckDbLimits = {}): Promise<DuckDbEngine> {
    // Extensions cannot be downloaded here (DESIGN.md §1): only built-in ones load. DuckDB's own
    // memory default (80% of the machine) leaves the Node process no room: bounded here (issue 31).
    const pool = maxOpen > 0 ? maxOpen : 4;
    const memoryLimit = `${limits.memoryLimitMb ?? defaultMemoryLimitMb()}MB`;
    const instance = await DuckDBInstance.create(path || ':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'true',
      memory_limit: memoryLimit,
      threads: String(limits.threads ?? defaultThreads(pool)),
      // DuckDB's allocator (jemalloc) returns freed pages after 1 s only while something allocates:
      // on an idle server, what start-up and the last big statement freed stayed resident (8–27 MB
      // measured at idle). Its background thread returns them on time (issue 30).
      allocator_background_threads: 'true',
    });
    const c = await instance.connect();
    // A naive TIMESTAMP served as Timestamp is read as UTC (docs/catalogs.md "Timestamps"): casts
    // to TIMESTAMPTZ and comparisons with instants use the session's zone, whatever the host's is.
    await c.run("SET GLOBAL TimeZone = 'UTC'");
    // Functions registered on one connection stay in the instance's catalog after it closes.
    registerGeometryFunctions(c);
    const name = String((await c.runAndReadAll('SELECT current_database()')).getRows()[0]?.[0] ?? 'memory');
    c.closeSync();
    return new DuckDbEngine(instance, pool, name, timeoutMs, limits.maxIdle ?? 0, new DuckDbCompiler(limits.windowRows ?? 0), memoryLimit);
  }

  /** Connections of the read pool (DB_MAX_OPEN_CONNS): the size of its admission gate. */
  get size(): number {
    return this.maxOpen;
  }

  /** A pooled connection; `source` names who waits, for the error when none comes in time. */
  async acquire(source = this.defaultDatabase): Promise<DuckDBConnection> {
    const c = await this.take(source);
    this.busy.add(c);
    return c;
  }

  private async take(source: string): Promise<DuckDBConnection> {
    const c = this.idle.pop();
    if (c) return c;
    if (this.open < this.maxOpen) {
      this.open++;
      return this.instance.connect();
    }
    // Wait for a connection, but not longer than a statement may run (QUERY_TIMEOUT): a pool that
    // cannot hand one out in time is SOURCE_UNAVAILABLE, not a request hanging on (issue 15).
    return new Promise((resolve, reject) => {
      const take = (conn: DuckDBConnection) => {
        clearTimeout(timer);
        resolve(conn);
      };
      const timer = this.timeoutMs
        ? setTimeout(() => {
            this.waiting.splice(this.waiting.indexOf(take), 1);
            reject(new PublicError(ErrorCode.SourceUnavailable, `data source "${source}" has no free connection: its pool is busy; try again`));
          }, this.timeoutMs)
        : undefined;
      this.waiting.push(take);
    });
  }

  /** The read pool (svc_pool_* metrics); transactions' own connections are not in it. */
  poolStats(): PoolStats {
    return { inUse: this.open - this.idle.length, idle: this.idle.length, waiting: this.waiting.length };
  }

  release(c: DuckDBConnection): void {
    this.busy.delete(c);
    const next = this.waiting.shift();
    if (next) next(c);
    else if (this.maxIdle > 0 && this.idle.length >= this.maxIdle) {
      this.open--;
      c.closeSync();
    } else this.idle.push(c);
  }

  /**
   * Write epochs (issue 15): a prepared DuckDB statement keeps the plan built from the statistics
   * it saw when prepared (min/max of each column), and reused after a write it can read new values
   * outside those bounds wrongly (70000 read back as 112; DuckDB issue #23704 is the same family).
   * Every commit, exec and checkpoint on an attached database bumps its epoch; a statement prepared
   * under an older epoch is prepared again. `all` counts writes whose database is not known.
   */
  private readonly epochs = new Map<string, number>();
  private all = 0;

  private epoch(database: string): number {
    return this.all + (this.epochs.get(database) ?? 0);
  }

  /** Records a write to `database` (every attached database when omitted). */
  wrote(database?: string): void {
    if (database === undefined) this.all++;
    else this.epochs.set(database, (this.epochs.get(database) ?? 0) + 1);
  }

  private readonly statements = new WeakMap<DuckDBConnection, StatementCache<Prepared>>();

  /** A prepared statement of this pooled connection reading `database`, prepared again after any write to it. */
  async prepared(c: DuckDBConnection, sql: string, database: string): Promise<DuckDBPreparedStatement> {
    let cache = this.statements.get(c);
    if (!cache) this.statements.set(c, (cache = new StatementCache(256, (p) => p.statement.destroySync())));
    // Read the epoch before preparing: a commit landing while we prepare makes this entry stale, not wrong.
    const epoch = this.epoch(database);
    const hit = cache.get(sql);
    if (hit?.epoch === epoch) return hit.statement;
    hit?.statement.destroySync();
    const statement = await c.prepare(sql);
    cache.set(sql, { statement, epoch });
    return statement;
  }

  async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>, source?: string): Promise<T> {
    const c = await this.acquire(source);
    try {
      return await fn(c);
    } finally {
      this.release(c);
    }
  }

  /**
   * Write transactions run one at a time. DuckDB resolves concurrent writers optimistically and
   * fails all but one with "Conflict on update"; queued, every request's writes succeed in turn
   * (and DuckDB writes fastest from one writer anyway).
   */
  private readonly writer = new Serial();
  /** Who holds `writer`: another transaction of the same owner runs beside it instead of waiting forever. */
  private writerOwner: object | undefined;

  /** A dedicated connection for one transaction, closed afterwards. */
  transaction<T>(database: string, fn: (conn: SourceConnection) => Promise<T>, owner?: object): Promise<T> {
    const run = () => this.runTransaction(database, fn).finally(() => this.wrote(database));
    // One request writing to two attached databases holds two transactions (DuckDB lets a
    // transaction write to one database only); the second must not queue behind the first.
    if (owner && this.writerOwner === owner) return run();
    return this.writer.run(async () => {
      this.writerOwner = owner;
      try {
        return await run();
      } finally {
        this.writerOwner = undefined;
      }
    });
  }

  private async runTransaction<T>(database: string, fn: (conn: SourceConnection) => Promise<T>): Promise<T> {
    const c = await this.instance.connect();
    try {
      await c.run('BEGIN TRANSACTION');
      try {
        const result = await fn(this.connection(c, database));
        await c.run('COMMIT');
        return result;
      } catch (e) {
        await c.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } finally {
      c.closeSync();
    }
  }

  /**
   * A statement's rows in `read`'s batches (src/sources/duckdb/read.ts), on a pooled connection held
   * until the iteration ends. QUERY_TIMEOUT bounds the whole iteration; stopping early interrupts the query.
   */
  stream<T>(source: string, sql: string, values: readonly unknown[], read: ResultReader<T>, signal?: CancelSignal): AsyncGenerator<T[]> {
    return this.held(source, signal, false, async function* (c) {
      yield* read(await c.stream(sql, params(values)));
    });
  }

  /**
   * An ordered list's rows read in windows of its order keys (src/sources/duckdb/windows.ts), all
   * in one transaction: every window reads the same snapshot, whatever is committed meanwhile.
   */
  windows<T>(source: string, w: KeyWindows, total: number | undefined, read: ResultReader<T>, signal?: CancelSignal): AsyncGenerator<T[]> {
    return this.held(source, signal, true, (c) => windowRows(c, w, total, read));
  }

  /**
   * `body`'s batches, on a pooled connection held until the iteration ends (inside a transaction
   * when `snapshot`, rolled back at the end: it only reads). QUERY_TIMEOUT bounds the whole
   * iteration; stopping early interrupts the statement running.
   */
  private async *held<T>(source: string, signal: CancelSignal | undefined, snapshot: boolean, body: (c: DuckDBConnection) => AsyncGenerator<T>): AsyncGenerator<T> {
    const c = await this.acquire(source);
    const stop = this.stopper(c, signal);
    let finished = false;
    let begun = false;
    try {
      if (snapshot) {
        await c.run('BEGIN TRANSACTION');
        begun = true;
      }
      yield* body(c);
      finished = true;
    } catch (e) {
      throw stop.error(source) ?? e;
    } finally {
      stop.clear();
      // Abandoned half-way (the client went away): the query must not go on running.
      if (!finished) c.interrupt();
      // A connection whose transaction could not be ended is not handed out again.
      const ended = begun ? await c.run('ROLLBACK').then(() => true, () => false) : true;
      if (ended) this.release(c);
      else this.discard(c);
    }
  }

  /** Closes a pooled connection that cannot be used again (its place in the pool is freed). */
  private discard(c: DuckDBConnection): void {
    this.busy.delete(c);
    this.open--;
    c.closeSync();
    // Whoever waits for a connection gets a new one.
    const next = this.waiting.shift();
    if (next) {
      this.open++;
      this.instance.connect().then(next, () => {
        this.open--;
        this.waiting.unshift(next);
      });
    }
  }

  /**
   * Interrupts `c` once QUERY_TIMEOUT has passed or `signal` aborts (the client went away): DuckDB
   * cancels the running query and the connection stays usable. `error` is why it was interrupted.
   */
  private stopper(c: DuckDBConnection, signal?: CancelSignal): { error(source: string): Error | undefined; clear(): void } {
    let why: 'timeout' | 'cancelled' | undefined = signal?.aborted ? 'cancelled' : undefined;
    const stop = (reason: 'timeout' | 'cancelled') => {
      why ??= reason;
      c.interrupt();
    };
    const timer = this.timeoutMs ? setTimeout(() => stop('timeout'), this.timeoutMs) : undefined;
    const onAbort = () => stop('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    return {
      error: (source) => (why === 'timeout' ? statementTimeout(source, this.timeoutMs) : why === 'cancelled' ? statementCancelled(source) : undefined),
      clear: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      },
    };
  }

  /**
   * Runs one statement on `c`, interrupting it once QUERY_TIMEOUT has passed. DuckDB cancels the
   * running query and the connection stays usable (a pooled one goes back to the pool).
   */
  async bounded<T>(c: DuckDBConnection, source: string, run: () => Promise<T>, signal?: CancelSignal): Promise<T> {
    if (signal?.aborted) throw statementCancelled(source);
    if (!this.timeoutMs && !signal) return run();
    const stop = this.stopper(c, signal);
    try {
      return await run();
    } catch (e) {
      throw stop.error(source) ?? e;
    } finally {
      stop.clear();
    }
  }

  /** `c` as a SourceConnection of `source`, each statement bounded by QUERY_TIMEOUT. */
  connection(c: DuckDBConnection, source: string): SourceConnection {
    return {
      all: (stmt) => this.bounded(c, source, async () => finiteRows(await c.runAndReadAll(stmt.sql, params(stmt.params)))),
      write: (stmt) =>
        this.bounded(c, source, async () => {
          const r = await c.run(stmt.sql, params(stmt.params));
          const rows = (await r.getRowObjectsJS()) as Row[];
          // DuckDB reports a Count row for UPDATE and DELETE; the changed count is rowsChanged.
          return { changed: r.rowsChanged, rows };
        }),
    };
  }

  async exec(sql: string): Promise<void> {
    try {
      await this.withConnection((c) => c.run(sql));
    } finally {
      this.wrote();
    }
  }

  /**
   * Evicts the table and index blocks DuckDB keeps in its buffer pool once read or written: they are
   * in their file and read back when next used. DuckDB keeps them until memory_limit is reached and
   * has no statement to drop them; lowering the limit evicts them (what is pinned stays), and it is
   * set back at once. Run once, at the end of the start (issue 30: the start's CHECKPOINT left the core
   * database's 11.5 MB of blocks cached, with the bench's catalogs), never while statements run.
   */
  async dropCachedBlocks(): Promise<void> {
    await this.withConnection(async (c) => {
      try {
        await c.run("SET memory_limit = '1MB'");
      } catch {
        // More than 1 MB is pinned: DuckDB refuses the limit after evicting what it could.
      }
      await c.run(`SET memory_limit = '${this.memoryLimit}'`);
    });
  }

  /** Interrupts every statement running on a pooled connection (they end with DuckDB's interrupt error). */
  interruptRunning(): void {
    for (const c of this.busy) c.interrupt();
  }

  close(): void {
    // Statements still running (SHUTDOWN_TIMEOUT passed, or a stream nobody reads) would keep the
    // process busy after it stopped answering.
    this.interruptRunning();
    openEngines.delete(this);
    if (openEngines.size === 0) process.removeListener('exit', interruptOnExit);
    for (const c of this.idle) c.closeSync();
    this.idle.length = 0;
    this.instance.closeSync();
  }
}

export interface DuckDbLimits {
  /** DuckDB's memory_limit, MB (DUCKDB_MEMORY_LIMIT). */
  readonly memoryLimitMb?: number;
  /** DuckDB's worker threads (DUCKDB_THREADS). */
  readonly threads?: number;
  /** DB_MAX_IDLE_CONNS: read-pool connections kept idle; one released beyond it is closed (0: all kept). */
  readonly maxIdle?: number;
  /** DUCKDB_WINDOW_ROWS: an ordered list longer than this is read in key windows of this many rows (0 or unset: one sort). */
  readonly windowRows?: number;
}

/**
 * A quarter of the memory this process may use (the cgroup's limit in a container, else the
 * machine's), at least 256 MB: the rest stays for the Node heap, response buffers and other processes.
 */
export function defaultMemoryLimitMb(): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  const bytes = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
  return Math.max(256, Math.floor(bytes / 4 / 1024 / 1024));
}

/**
 * DuckDB's threads: each statement runs on the thread that asked for it (one of the read pool's
 * connections) plus DuckDB's `threads - 1` shared workers. With the pool full, the connections and
 * the workers together match the CPUs: DuckDB's own default (one thread per CPU) put more threads
 * to work than CPUs once several statements ran at once, and every statement paid for splitting its
 * work between them (issue 30: 13–30% more CPU per statement on 2 CPUs with 4 connections, the
 * one-row Q0 statement 0.45 against 0.3 ms). A statement alone still gets the workers.
 */
export function defaultThreads(pool: number): number {
  return Math.max(1, availableParallelism() - pool + 1);
}

interface Prepared {
  readonly statement: DuckDBPreparedStatement;
  readonly epoch: number;
}

const params = (p: readonly unknown[]): DuckDBValue[] => p as DuckDBValue[];
