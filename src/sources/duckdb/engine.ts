// The embedded DuckDB (DB_PATH): one instance per process; DuckDB sources and a DuckDB core
// database are ATTACHed to it. Reads share a small pool of connections; each transaction gets a
// connection of its own (DuckDB transactions are per connection).
import { DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import { Serial } from '../../shared/mutex.js';
import { StatementCache } from '../statement-cache.js';
import type { CompiledSql } from '../../sql/compiler.js';
import type { Row, SourceConnection } from '../types.js';
import { registerGeometryFunctions } from './geo/functions.js';

export class DuckDbEngine {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: ((c: DuckDBConnection) => void)[] = [];
  private open = 0;

  private constructor(
    readonly instance: DuckDBInstance,
    private readonly maxOpen: number,
    /** Name of the engine's own database (`memory`, or the DB_PATH file's stem). */
    readonly defaultDatabase: string,
  ) {}

  static async create(path: string, maxOpen: number): Promise<DuckDbEngine> {
    // Extensions cannot be downloaded here (DESIGN.md §1): only built-in ones load.
    const instance = await DuckDBInstance.create(path || ':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'true' });
    const c = await instance.connect();
    // Functions registered on one connection stay in the instance's catalog after it closes.
    registerGeometryFunctions(c);
    const name = String((await c.runAndReadAll('SELECT current_database()')).getRows()[0]?.[0] ?? 'memory');
    c.closeSync();
    return new DuckDbEngine(instance, maxOpen > 0 ? maxOpen : 4, name);
  }

  async acquire(): Promise<DuckDBConnection> {
    const c = this.idle.pop();
    if (c) return c;
    if (this.open < this.maxOpen) {
      this.open++;
      return this.instance.connect();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(c: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  private readonly statements = new WeakMap<DuckDBConnection, StatementCache<DuckDBPreparedStatement>>();

  /** A prepared statement of this pooled connection, prepared on first use. */
  async prepared(c: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
    let cache = this.statements.get(c);
    if (!cache) this.statements.set(c, (cache = new StatementCache(256, (p) => p.destroySync())));
    let p = cache.get(sql);
    if (!p) cache.set(sql, (p = await c.prepare(sql)));
    return p;
  }

  /** Prepared statements refer to attached databases; a detach or re-attach drops them all. */
  forgetStatements(): void {
    for (const c of this.idle) this.statements.get(c)?.clear();
  }

  async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await this.acquire();
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

  /** A dedicated connection for one transaction, closed afterwards. */
  transaction<T>(fn: (conn: SourceConnection) => Promise<T>): Promise<T> {
    return this.writer.run(() => this.runTransaction(fn));
  }

  private async runTransaction<T>(fn: (conn: SourceConnection) => Promise<T>): Promise<T> {
    const c = await this.instance.connect();
    try {
      await c.run('BEGIN TRANSACTION');
      try {
        const result = await fn(wrap(c));
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

  async exec(sql: string): Promise<void> {
    await this.withConnection((c) => c.run(sql));
  }

  close(): void {
    for (const c of this.idle) c.closeSync();
    this.idle.length = 0;
    this.instance.closeSync();
  }
}

const params = (p: readonly unknown[]): DuckDBValue[] => p as DuckDBValue[];

export function wrap(c: DuckDBConnection): SourceConnection {
  return {
    async all(stmt: CompiledSql): Promise<Row[]> {
      const r = await c.runAndReadAll(stmt.sql, params(stmt.params));
      return r.getRowObjectsJS() as Row[];
    },
    async write(stmt: CompiledSql) {
      const r = await c.run(stmt.sql, params(stmt.params));
      const rows = (await r.getRowObjectsJS()) as Row[];
      // DuckDB reports a Count row for UPDATE and DELETE; the changed count is rowsChanged.
      return { changed: r.rowsChanged, rows };
    },
  };
}
