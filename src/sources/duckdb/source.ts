// A `duckdb` data source: a DuckDB file (or :memory:) attached to the embedded engine under the
// source's name.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DataObject } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseDbJson } from '../../shared/json.js';
import type { CompiledSql } from '../../sql/compiler.js';
import { DuckDbCompiler } from '../../sql/dialects/duckdb.js';
import { type DataSourceRuntime, type Row, type SourceConnection, splitTableName } from '../types.js';
import type { DuckDbEngine } from './engine.js';
import { finiteJson } from './finite-json.js';
import { macroBodies, qualifiedTemplate } from './macros.js';
import { firstColumn, type ResultReader, textBatches } from './read.js';
import type { CancelSignal } from '../../shared/request-scope.js';

export const compiler = new DuckDbCompiler();
const quote = (s: string): string => compiler.quoteIdentifier(s);
const literal = (s: string): string => `'${s.replaceAll("'", "''")}'`;

export interface DuckDbSourceOptions {
  readonly name: string;
  readonly path: string;
  readonly readOnly: boolean;
  /** SQL run once when the file is created (example catalogs ship their data this way). */
  readonly seedFile?: string;
  /** Create the file (and its folder) when it does not exist; otherwise a missing file is an error. */
  readonly create?: boolean;
}

export class DuckDbSource implements DataSourceRuntime {
  readonly type = 'duckdb' as const;

  /** The engine's (DUCKDB_WINDOW_ROWS), shared by every DuckDB source. */
  get compiler(): DuckDbCompiler {
    return this.engine.compiler;
  }

  private constructor(
    private readonly engine: DuckDbEngine,
    readonly name: string,
    readonly readOnly: boolean,
    /** DuckDB's own functions (the `system` catalog) this database does not define: called bare. */
    private readonly engineFunctions: ReadonlySet<string>,
    /** False for the engine itself (`over`): nothing to detach on close. */
    private readonly attached = true,
    /** The database file (absolute), or undefined in memory: the lineage namespace. */
    private readonly file?: string,
  ) {}

  /**
   * The embedded engine itself as a read-only source, for views over its own system functions
   * (`core.meta`): nothing is attached, names resolve in the engine's own database.
   */
  static over(engine: DuckDbEngine, name: string): DuckDbSource {
    return new DuckDbSource(engine, name, true, new Set(), false);
  }

  static async attach(engine: DuckDbEngine, o: DuckDbSourceOptions): Promise<DuckDbSource> {
    const memory = o.path === ':memory:' || o.path === '';
    const fresh = memory || !existsSync(o.path);
    // A typo in a path must not create directories and an empty database (issue 15).
    if (fresh && !memory && !o.create) {
      throw new PublicError(ErrorCode.SourceUnavailable, `data source "${o.name}": the DuckDB file "${o.path}" does not exist (set create: true in the source to create it)`);
    }
    if (!memory) mkdirSync(dirname(o.path), { recursive: true });
    const target = memory ? ':memory:' : o.path;
    // A database attached again under the same name is a different database to prepared statements.
    await engine.withConnection(async (c) => {
      await c.run(`DETACH DATABASE IF EXISTS ${quote(o.name)}`);
      await c.run(`ATTACH ${literal(target)} AS ${quote(o.name)}${o.readOnly && !fresh ? ' (READ_ONLY)' : ''}`);
    }).catch((e: Error) => {
      // One file, one source: a second source over a file another one serves is refused by name
      // (DuckDB's own text says "Unique file handle conflict" and became an internal error).
      const other = /already attached by database "([^"]+)"/.exec(e.message)?.[1];
      if (other) throw new PublicError(ErrorCode.SourceUnavailable, `data source "${o.name}": its DuckDB file is already served by data source "${other}"`);
      // A DuckDB file is locked by the one process that writes it: the usual cause is a second svc
      // started in the same folder. Say which file and what to do, not DuckDB's IO text and its link.
      const holder = /Could not set lock on file[^]*?Conflicting lock is held in [^(]*\(PID (\d+)\)/.exec(e.message);
      if (holder) {
        const setting = o.name === 'core' ? ' (CORE_DB_PATH)' : '';
        throw new PublicError(ErrorCode.SourceUnavailable, `data source "${o.name}": the DuckDB file "${o.path}"${setting} is locked by another process (PID ${holder[1]}), probably another svc started in this folder; stop it, or give this server its own file`);
      }
      throw e;
    }).finally(() => engine.wrote(o.name));
    if (fresh && o.seedFile) {
      const seed = readFileSync(o.seedFile, 'utf8');
      const c = await engine.instance.connect();
      try {
        await c.run(`USE ${quote(o.name)}`);
        await c.run(seed);
      } finally {
        c.closeSync();
        engine.wrote(o.name);
      }
    }
    // DuckDB resolves its built-in functions (table functions like generate_series, read_csv) only
    // unqualified or as system.main.x; qualified with the attached database they are "not found".
    // Start-up bookkeeping over the engine's own catalog, not a client's statement: QUERY_TIMEOUT
    // does not bound it (listing every function took over 300 ms on a busy machine and failed the start).
    const macros = await engine.withConnection((c) => macroBodies(c, o.name));
    const rows = await engine.withConnection(async (c) => (await c.runAndReadAll(
      `SELECT DISTINCT function_name AS name FROM duckdb_functions() WHERE database_name = 'system'
        AND function_name NOT IN (SELECT function_name FROM duckdb_functions() WHERE database_name = $1)`,
      [o.name],
    )).getRowObjectsJS());
    const source = new DuckDbSource(engine, o.name, o.readOnly, new Set(rows.map((r) => String(r.name))), true, memory ? undefined : resolve(o.path));
    source.macros = macros;
    return source;
  }

  /** The source's own macros that name their tables bare, qualified (macros.ts); read at attach. */
  private macros: ReadonlyMap<string, string> = new Map();

  functionBody(name: string): string | undefined {
    return this.macros.get(name);
  }

  async qualifySql(templates: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const out = new Map<string, string>();
    if (!this.attached || !templates.length) return out;
    await this.engine.withConnection(async (c) => {
      const set = async (sql: string, own = false): Promise<Set<string>> =>
        new Set((await c.runAndReadAll(sql, own ? [this.name] : [])).getRows().map((r) => String(r[0]).toLowerCase()));
      const own = await set('SELECT table_name FROM information_schema.tables WHERE table_catalog = $1', true);
      const engineOwn = await set('SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database()');
      const keep = new Set([...engineOwn].filter((n) => !own.has(n)));
      // The source's schemas, but not one named like an attached database (which DuckDB would read first).
      const databases = await set('SELECT database_name FROM duckdb_databases()');
      const schemas = new Set([...(await set('SELECT schema_name FROM duckdb_schemas() WHERE database_name = $1', true))].filter((n) => !databases.has(n)));
      for (const t of new Set(templates)) {
        // A statement DuckDB cannot give back stays as written: never a reason to refuse the source.
        const q = await qualifiedTemplate(c, this.name, t, keep, schemas).catch(() => undefined);
        if (q) out.set(t, q);
      }
    });
    return out;
  }

  functionName(name: string): readonly string[] {
    // The engine itself (`over`) resolves its own functions bare.
    return !this.attached || this.engineFunctions.has(name) ? [name] : [this.name, 'main', name];
  }

  lineageDataset(table: readonly string[]): { namespace: string; name: string } {
    // [database, schema, table]: the file names the database; in memory, the source does.
    return { namespace: this.file ? `duckdb://${this.file}` : `duckdb://memory/${this.name}`, name: table.slice(1).join('.') };
  }

  tableName(obj: DataObject): readonly string[] {
    const parts = splitTableName(obj.table);
    const db = this.attached ? this.name : this.engine.defaultDatabase;
    return parts.length === 1 ? [db, 'main', parts[0]!] : [db, ...parts];
  }

  /** Every DuckDB source shares the embedded engine's read pool. */
  get pool(): { name: string; size: number } {
    return { name: 'duckdb', size: this.engine.size };
  }

  async queryJson(stmt: CompiledSql, signal?: CancelSignal): Promise<unknown> {
    const text = await this.queryText(stmt, signal);
    return text === null ? null : parseDbJson(text);
  }

  async queryText(stmt: CompiledSql, signal?: CancelSignal): Promise<string | null> {
    return this.engine.withConnection(async (c) => {
      const prepared = await this.engine.prepared(c, stmt.sql, this.name);
      prepared.bind(stmt.params as never);
      // The result is materialized: its one row is read from the first chunk synchronously, not by
      // two more round trips through the thread pool (fetchChunk, then an empty one) per statement.
      const r = await this.engine.bounded(c, this.name, () => prepared.run(), signal);
      if (!r.chunkCount) return null;
      const chunk = r.getChunk(0);
      const v = chunk.rowCount ? chunk.getColumnVector(0).getItem(0) : null;
      return v === null || v === undefined ? null : finiteJson(String(v));
    }, this.name);
  }

  async *streamRows(stmt: CompiledSql, signal?: CancelSignal, text?: boolean): AsyncGenerator<readonly unknown[]> {
    // The rows the statement leaves to its reader to cut (an unordered list read as it is scanned, an
    // ordered one read in key windows: DuckDbCompiler.compileRows); returning early ends the
    // stream, which interrupts the statement.
    let skip = stmt.window?.offset ?? 0;
    let left = stmt.window?.limit ?? Infinity;
    if (left <= 0) return;
    // An ordered list longer than a window: read in windows of its order keys (engine.windows).
    const keys = stmt.window?.keys;
    const total = stmt.window?.limit === undefined ? undefined : skip + left;
    // As text (/query), each row's JSON is what the whole list's to_json would have written for it,
    // read in batches of about a written piece (read.ts says why); as values (/ipc), a chunk per batch.
    const read: ResultReader<unknown> = text ? textBatches : firstColumn;
    const batches = keys ? this.engine.windows(this.name, keys, total, read, signal) : this.engine.stream(this.name, stmt.sql, stmt.params, read, signal);
    for await (let rows of batches) {
      if (skip) {
        const skipped = Math.min(skip, rows.length);
        rows = rows.slice(skipped);
        skip -= skipped;
      }
      if (rows.length > left) rows = rows.slice(0, left);
      if (!rows.length) continue;
      left -= rows.length;
      // A streamed row's "NaN" (and DuckDB's spelling) is completed by the response writer (src/pipeline/streamed-rows.ts).
      yield text ? (rows as string[]).map(finiteJson) : rows.map((v) => (v === null || v === undefined ? null : parseDbJson(finiteJson(String(v)))));
      if (left === 0) return;
    }
  }

  transaction<T>(fn: (conn: SourceConnection) => Promise<T>, owner?: object): Promise<T> {
    return this.engine.transaction(this.name, fn, owner);
  }

  rows(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    // Autocommitted and not known to be a read: counts as a write for the prepared statements.
    return this.engine.withConnection((c) => this.engine.connection(c, this.name).all({ sql, params }), this.name).finally(() => this.engine.wrote(this.name));
  }

  async exec(sql: string): Promise<void> {
    await this.engine.withConnection(async (c) => {
      await c.run(`USE ${quote(this.attached ? this.name : this.engine.defaultDatabase)}`);
      try {
        await c.run(sql);
      } finally {
        // Raw SQL (migrations, CHECKPOINT) may change data or statistics.
        this.engine.wrote(this.name);
        await c.run(`USE ${quote(this.engine.defaultDatabase)}`).catch(() => undefined);
      }
    }, this.name);
  }

  async close(): Promise<void> {
    if (!this.attached) return;
    await this.engine.exec(`DETACH DATABASE IF EXISTS ${quote(this.name)}`);
  }

  /** For tests and tools: a connection outside a transaction (what it runs counts as a write). */
  withConnection<T>(fn: (conn: SourceConnection) => Promise<T>): Promise<T> {
    return this.engine.withConnection((c) => fn(this.engine.connection(c, this.name)), this.name).finally(() => this.engine.wrote(this.name));
  }
}
