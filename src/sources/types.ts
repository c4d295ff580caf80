// What the executor needs from a data source, whatever its type.
import type { DataObject, SourceType } from '../catalog/model.js';
import type { WriteNode } from '../planner/ir/mutation.js';
import type { RootQuery, SelectNode } from '../planner/ir/select.js';
import type { PoolStats } from '../shared/metrics.js';
import type { CompiledSql } from '../sql/compiler.js';
import type { CancelSignal } from '../shared/request-scope.js';

export type Row = Record<string, unknown>;

/** One connection, inside a transaction when obtained through `transaction`. */
export interface SourceConnection {
  /** Rows as plain objects (values as the driver gives them). */
  all(stmt: CompiledSql): Promise<Row[]>;
  /** A write; returns the number of rows changed and any RETURNING rows. */
  write(stmt: CompiledSql): Promise<{ changed: number; rows: Row[] }>;
}

/**
 * What turns plans into statements for a source: the SQL compilers (src/sql), or the request
 * builder of an HTTP source, which compiles function calls only.
 */
export interface StatementCompiler {
  readonly dialect: string;
  compileQuery(q: RootQuery, timezone?: string): CompiledSql;
  compileWrite(w: WriteNode): CompiledSql;
  /** A root list's rows one by one (SPEC §13 /ipc), where the source can stream them (`streamRows`). */
  compileRows?(sel: SelectNode, timezone?: string): CompiledSql;
  quoteIdentifier(name: string): string;
  vectorFromText(placeholder: string): string;
  /** How the root h3 query gets H3 cells on this source (src/sql/compiler.ts); absent: it cannot. */
  readonly h3Cells?: 'sql' | 'server' | 'none';
}

export interface DataSourceRuntime {
  readonly name: string;
  readonly type: SourceType;
  readonly compiler: StatementCompiler;
  readonly readOnly: boolean;
  /** Qualified table name parts of an object in this source. */
  tableName(obj: DataObject): readonly string[];
  /**
   * Name parts of a catalog function called without `sql`: in the source's namespace, or bare when
   * it is one of the engine's own functions the source does not define (`generate_series`).
   */
  functionName(name: string): readonly string[];
  /**
   * The body to call in place of a function called without `sql`, as an sql template whose
   * parameters are `[$1]`, `[$2]`, ... (a DuckDB macro naming its tables bare, src/sources/duckdb/macros.ts).
   */
  functionBody?(name: string): string | undefined;
  /**
   * The catalog's own SQL statements (`@view(sql:)`, `@function(sql:)`) rewritten to run where the
   * source's statements run, by template; a template missing from the answer is used as written
   * (a DuckDB source qualifies bare tables with its database, src/sources/duckdb/macros.ts).
   */
  qualifySql?(templates: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /**
   * The connections this source's statements share, for admission (src/executor/admission.ts):
   * DuckDB sources share the embedded engine's pool. Absent: no pool to protect (http, extension).
   */
  readonly pool?: { readonly name: string; readonly size: number };
  /**
   * Runs a root read statement and returns its single JSON result (parsed), or null. `signal`: the
   * request went away (client disconnect); the running statement is cancelled at once.
   */
  queryJson(stmt: CompiledSql, signal?: CancelSignal): Promise<unknown>;
  /**
   * The same read as the executor takes it: a rows statement's answer unbuilt (a RowsAnswer,
   * src/sql/rows/answer.ts: the fast path writes its text from the rows), else queryJson's value.
   */
  queryAnswer?(stmt: CompiledSql, signal?: CancelSignal): Promise<unknown>;
  /**
   * The same result as the database wrote it, unparsed, offered only where that text is compact
   * JSON (DuckDB): the fast path writes it into the response as it is.
   */
  queryText?(stmt: CompiledSql, signal?: CancelSignal): Promise<string | null>;
  /**
   * The rows of a `compileRows` statement (each row's JSON object, parsed), a batch at a time from a
   * cursor, so a large result is never held whole (SPEC §13 /ipc). Stopping the iteration early
   * ends the statement; QUERY_TIMEOUT bounds it as any statement. `text`: a source whose row JSON is
   * already the answer's text (DuckDB) may give the rows as that text instead (strings).
   */
  streamRows?(stmt: CompiledSql, signal?: CancelSignal, text?: boolean): AsyncGenerator<readonly unknown[]>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  /**
   * `owner`: transactions of one owner (a request writing to several sources) never wait for each
   * other where the engine queues writers (the embedded DuckDB serves several sources).
   */
  transaction<T>(fn: (conn: SourceConnection) => Promise<T>, owner?: object): Promise<T>;
  /** Rows of one statement on a pooled connection, outside any transaction (core lookups). */
  rows(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs raw SQL outside the GraphQL path (seeding, core migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** The OpenLineage dataset of a table (SPEC §14): the naming of the OpenLineage spec where it has one. */
  lineageDataset?(table: readonly string[]): { namespace: string; name: string };
  /** Connections of the source's own pool (svc_pool_* metrics); absent when it uses the engine's. */
  poolStats?(): PoolStats;
  /**
   * A cross-source level answered without SQL (sources with no SQL compiler, e.g. http): one
   * `{ i, v }` per key row (`rows[n][0]` is `i`); `v` is a PublicError where that key's answer
   * failed. Each statement goes through `run` (the executor: counted, timed, traced). Absent: the
   * executor compiles `node.query`.
   */
  fetchLevel?(
    node: import('../planner/ir/remote.js').RemoteNode, rows: readonly (readonly unknown[])[], run: (stmt: CompiledSql) => Promise<unknown>,
  ): Promise<readonly { i: number; v: unknown }[]>;
  /** Undefined when the source answers; otherwise why it does not (data_source_status). */
  ping?(): Promise<string | undefined>;
}

/** Splits a catalog table name `schema.table` into its parts. */
export function splitTableName(name: string): string[] {
  return name.split('.').filter(Boolean);
}
