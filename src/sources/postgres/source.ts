// A `postgres` data source: a knex-managed pool of `pg` connections (SPEC §3.1). Statements are
// written by our compiler with $n parameters and sent through the raw pg client.
import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type pg from 'pg';
import type { DataObject } from '../../catalog/model.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseDbJson } from '../../shared/json.js';
import type { CompiledSql } from '../../sql/compiler.js';
import { PostgresCompiler } from '../../sql/dialects/postgres.js';
import { type DataSourceRuntime, type Row, type SourceConnection, splitTableName } from '../types.js';

const compiler = new PostgresCompiler();
const RAW_TEXT = { getTypeParser: () => (v: string) => v } as never;
/** Prepared statements kept per connection (the server holds them in each session's memory). */
const MAX_NAMED = 500;

export interface PostgresSourceOptions {
  readonly name: string;
  /** postgres://user:pass@host:port/db?... with [$ENV] already substituted. */
  readonly url: string;
  readonly readOnly: boolean;
  readonly maxConnections: number;
  readonly statementTimeoutMs?: number;
}

function wrap(c: pg.ClientBase): SourceConnection {
  return {
    async all(stmt: CompiledSql): Promise<Row[]> {
      return (await c.query(stmt.sql, stmt.params as unknown[])).rows as Row[];
    },
    async write(stmt: CompiledSql) {
      const r = await c.query(stmt.sql, stmt.params as unknown[]);
      return { changed: r.rowCount ?? 0, rows: r.rows as Row[] };
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
  readonly compiler = compiler;

  private constructor(
    readonly name: string,
    readonly readOnly: boolean,
    private readonly knex: Knex,
    private readonly schema: string,
  ) {}

  static async connect(o: PostgresSourceOptions): Promise<PostgresSource> {
    const url = new URL(o.url);
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: url.toString(), statement_timeout: o.statementTimeoutMs ?? 60_000, application_name: 'svc' } as never,
      pool: { min: 0, max: o.maxConnections > 0 ? o.maxConnections : 10 },
      acquireConnectionTimeout: 10_000,
      // knex prints pool errors to the console; the error reaches the caller (and our log) anyway.
      log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
    });
    const source = new PostgresSource(o.name, o.readOnly, knex, schema);
    try {
      await source.withClient((c) => c.query('SELECT 1'));
    } catch (e) {
      await knex.destroy();
      throw new PublicError(ErrorCode.SourceUnavailable, `data source "${o.name}" (${redactUrl(o.url)}) is unreachable: ${(e as Error).message}`);
    }
    return source;
  }

  private async withClient<T>(fn: (c: pg.ClientBase) => Promise<T>): Promise<T> {
    const c = (await this.knex.client.acquireConnection()) as pg.ClientBase;
    try {
      return await fn(c);
    } finally {
      await this.knex.client.releaseConnection(c);
    }
  }

  private readonly named = new WeakMap<pg.ClientBase, Set<string>>();

  /** A statement name for `sql` on this connection, or undefined once the connection holds many. */
  private statementName(c: pg.ClientBase, sql: string): string | undefined {
    const name = `svc_${createHash('sha1').update(sql).digest('hex')}`;
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

  async queryJson(stmt: CompiledSql): Promise<unknown> {
    return this.withClient(async (c) => {
      // Read the JSON as text and parse it ourselves, so integers beyond 2^53 stay exact. Named
      // statements are parsed and planned once per connection (pg keeps them by name).
      const r = await c.query({ name: this.statementName(c, stmt.sql), text: stmt.sql, values: stmt.params as unknown[], rowMode: 'array', types: RAW_TEXT });
      const v = r.rows[0]?.[0] as string | null | undefined;
      return v === null || v === undefined ? null : parseDbJson(v);
    });
  }

  transaction<T>(fn: (conn: SourceConnection) => Promise<T>): Promise<T> {
    return this.withClient(async (c) => {
      await c.query('BEGIN');
      try {
        const out = await fn(wrap(c));
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
    await this.knex.destroy();
  }
}
