// Runs plans: one statement per root read, writes inside the request's transaction.
import { type RequestScope, scopeOf } from '../shared/request-scope.js';
import { noteLimitRefusal } from '../shared/limit-refusal.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { inSpan, SpanKind, tracingOn } from '../shared/tracing.js';
import { type Logger, requestLogger } from '../shared/logger.js';
import { RawJson } from '../shared/json.js';
import { RowsAnswer } from '../sql/rows/answer.js';
import { Semaphore } from '../shared/semaphore.js';
import type { InsertTree } from '../planner/mutation.js';
import type { DeleteNode, UpdateNode } from '../planner/ir/mutation.js';
import type { RootQuery } from '../planner/ir/select.js';
import type { ParamExpr } from '../planner/ir/expr.js';
import type { CompiledSql } from '../sql/compiler.js';
import type { DataSourceRuntime, Row, SourceConnection } from '../sources/types.js';
import { findKind } from '../sources/kinds.js';
import type { RequestContext } from './request-context.js';
import { parseDbJson } from '../shared/json.js';
import { translateDbError } from './db-errors.js';
import { Admission, admissionKey, type AdmissionSettings, admissionUser } from './admission.js';
import { ResponseBudget, type ResponseLimits } from './response-budget.js';
import { metrics } from '../shared/metrics.js';

export type StatementObserver = (source: string, sql: string, params: readonly unknown[]) => void;

/** A statement that finished (lineage events): when, how long, and whether it failed. */
export interface FinishedStatement {
  readonly runtime: DataSourceRuntime;
  readonly stmt: CompiledSql;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly ms: number;
  readonly error?: Error;
  /** The HTTP request it served, if any (src/shared/request-scope.ts). */
  readonly scope?: RequestScope;
}

/** `run()`'s promise; a synchronous throw becomes its rejection, as in an async function. */
function promiseOf<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (e) {
    return Promise.reject(e);
  }
}

export class Executor {
  private readonly observers = new Set<StatementObserver>();

  private readonly durations = new Set<(source: string, ms: number) => void>();

  /** Sees the duration of every statement (metrics). */
  observeDuration(observer: (source: string, ms: number) => void): () => void {
    this.durations.add(observer);
    return () => this.durations.delete(observer);
  }

  private readonly finished = new Set<(s: FinishedStatement) => void>();

  /** Sees every statement once it finished; a listener that throws does not fail the statement. */
  onFinished(listener: (s: FinishedStatement) => void): () => void {
    this.finished.add(listener);
    return () => this.finished.delete(listener);
  }

  /** Sees every statement sent to a source (tests count and compare them). */
  observe(observer: StatementObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** MAX_PARALLEL_QUERIES: statements executing at once across all requests (0 = unlimited). */
  private readonly slots: Semaphore;

  constructor(
    private readonly log: Logger,
    private readonly debug: boolean,
    maxParallel = 0,
    /** ALLOW_PARALLEL=false: the root fields of one request run one after another. */
    private readonly parallel = true,
    /** Admission in front of each pool (SOURCE_ROLE_SHARE, ...); none: statements go straight to the pools. */
    private readonly admission?: Omit<AdmissionSettings, 'size'>,
    /** MAX_RESPONSE_ROWS / MAX_RESPONSE_BYTES of one request's answer (requests under the limits only). */
    private readonly responseLimits: ResponseLimits = { rows: 0, bytes: 0 },
    /** Anonymous callers' (ANONYMOUS_MAX_RESPONSE_ROWS / _BYTES, src/executor/response-budget.ts anonymousLimits). */
    private readonly anonymousLimits: ResponseLimits = responseLimits,
  ) {
    this.slots = new Semaphore(maxParallel);
  }

  /** One gate per pool (DuckDB sources share the engine's), made on first use. */
  private readonly gates = new Map<string, Admission>();

  /** The admission gates, for the queue gauges. */
  admissions(): Iterable<Admission> {
    return this.gates.values();
  }

  private gate(runtime: DataSourceRuntime): Admission | undefined {
    const pool = runtime.pool;
    if (!pool || !this.admission) return undefined;
    let gate = this.gates.get(pool.name);
    if (!gate) this.gates.set(pool.name, (gate = new Admission(pool.name, { ...this.admission, size: pool.size }, ADMISSION_METRICS)));
    return gate;
  }

  private timed<T>(ctx: RequestContext, runtime: DataSourceRuntime, stmt: CompiledSql, run: () => Promise<T>): Promise<T> {
    const go = () => this.slots.run(() => this.measured(ctx, runtime, stmt, run));
    // A transaction's statements run on the connection it already holds: they need no admission.
    const gate = ctx.transactions.active ? undefined : this.gate(runtime);
    const admitted = gate ? () => gate.run(admissionKey(ctx.identity), ctx.signal, go, admissionUser(ctx.identity, scopeOf(ctx)?.address)) : go;
    return this.parallel || ctx.transactions.active ? admitted() : ctx.serial.run(admitted);
  }

  /**
   * The rows of a `compileRows` statement (/ipc), admitted like any statement and holding its slot
   * until the stream ends; the client going away ends the statement.
   */
  async *stream(ctx: RequestContext, runtime: DataSourceRuntime, stmt: CompiledSql, text?: boolean): AsyncGenerator<readonly unknown[]> {
    const release = await this.gate(runtime)?.acquire(admissionKey(ctx.identity), ctx.signal, admissionUser(ctx.identity, scopeOf(ctx)?.address));
    const budget = this.budget(ctx);
    try {
      for await (const rows of runtime.streamRows!(stmt, ctx.signal, text)) {
        // Counted batch by batch: a stream over the bound stops there, and its statement with it.
        if (budget) for (const row of rows) if (typeof row === 'string') budget.addText(row); else budget.addValue(row);
        yield rows;
      }
    } finally {
      release?.();
    }
  }

  /**
   * Counts, observes and times one statement. Written with `then` rather than as an async function
   * with `try/finally`: this is every statement's path, and each await was a promise of each
   * request's fixed cost (issue 30). A `run` that throws at once is a rejection, as in an async function.
   */
  private measured<T>(ctx: RequestContext, runtime: DataSourceRuntime, stmt: CompiledSql, run: () => Promise<T>): Promise<T> {
    ctx.statements++;
    const scope = scopeOf(ctx);
    if (scope) scope.statements++;
    for (const o of this.observers) o(runtime.name, stmt.sql, stmt.params);
    const started = performance.now();
    const startedAt = Date.now();
    const ok = (v: T) => {
      this.finish(runtime, stmt, started, startedAt, undefined, scope);
      return v;
    };
    // The client's error, not the driver's (which may quote values).
    if (!tracingOn()) {
      return promiseOf(run).then(ok, (e: unknown) => {
        const error = this.translated(e, runtime, scope);
        this.finish(runtime, stmt, started, startedAt, error, scope);
        throw error;
      });
    }
    // The span records the client's error too. The statement's text, never its parameter values
    // (they may be secrets); the attributes are made only while tracing is on (issue 30).
    let error: Error | undefined;
    const statement = () => promiseOf(run).then(undefined, (e: unknown) => {
      throw (error = this.translated(e, runtime, scope));
    });
    const attributes = { 'db.system.name': findKind(runtime.type)?.capabilities.otelName ?? runtime.type, 'db.namespace': runtime.name, 'db.query.text': stmt.sql };
    return promiseOf(() => inSpan('svc.statement', attributes, statement, SpanKind.CLIENT)).then(ok, (e: unknown) => {
      this.finish(runtime, stmt, started, startedAt, error, scope);
      throw e;
    });
  }

  /** The client's error for a driver's; a statement stopped at QUERY_TIMEOUT marks its request refused by a limit. */
  private translated(e: unknown, runtime: DataSourceRuntime, scope: RequestScope | undefined): Error {
    const error = translateDbError(e, runtime.name, requestLogger(this.log, scope));
    if (error instanceof PublicError && error.code === ErrorCode.QueryTimeout) noteLimitRefusal(scope);
    return error;
  }

  /** After a statement: its duration to the observers, the finished listeners and the DEBUG line. */
  private finish(runtime: DataSourceRuntime, stmt: CompiledSql, started: number, startedAt: number, error: Error | undefined, scope: RequestScope | undefined): void {
    const ms = performance.now() - started;
    for (const o of this.durations) o(runtime.name, ms);
    for (const l of this.finished) {
      try {
        l({ runtime, stmt, startedAt, ms, ...(error ? { error } : {}), ...(scope ? { scope } : {}) });
      } catch (e) {
        requestLogger(this.log, scope).warn({ err: e }, 'a statement listener failed');
      }
    }
    // DEBUG logs the statement and its timing, never the parameter values (they may be secrets).
    if (this.debug) requestLogger(this.log, scope).info({ source: runtime.name, ms: +(performance.now() - started).toFixed(2), sql: stmt.sql, params: stmt.params.length }, 'sql');
  }

  async read(ctx: RequestContext, runtime: DataSourceRuntime, plan: RootQuery): Promise<unknown> {
    return this.readCompiled(ctx, runtime, runtime.compiler.compileQuery(plan, ctx.timezone));
  }

  /**
   * Runs a compiled root read statement (from the plan cache or just compiled). `raw: false` always
   * parses the result (the cross-source executor works on values).
   */
  readCompiled(ctx: RequestContext, runtime: DataSourceRuntime, stmt: CompiledSql, raw = true): Promise<unknown> {
    const budget = this.budget(ctx);
    if (ctx.transactions.active) return this.readInTransaction(ctx, runtime, stmt, budget);
    // The fast path writes the database's JSON into the response without parsing it here.
    if (raw && ctx.rawJson && runtime.queryText) {
      return this.timed(ctx, runtime, stmt, async () => {
        const text = await runtime.queryText!(stmt, ctx.signal);
        if (text !== null) budget?.addText(text);
        return text === null ? null : new RawJson(text);
      });
    }
    // Rows (PostgreSQL, MySQL): the fast path writes their text and counts it as it writes
    // (src/pipeline/fast-path/write.ts); everyone else gets the objects, counted by a walk.
    const counted = (value: unknown): unknown => {
      if (value instanceof RowsAnswer) return raw && ctx.rawJson ? value.countedBy(budget) : value.countedBy(budget).parse();
      budget?.addValue(value);
      return value;
    };
    // A source's answer (every PostgreSQL and MySQL read) without a promise of its own per statement (issue 30).
    if (runtime.queryAnswer && !(budget && runtime.queryText)) return this.timed(ctx, runtime, stmt, () => runtime.queryAnswer!(stmt, ctx.signal).then(counted));
    return this.timed(ctx, runtime, stmt, async () => {
      // Where the source offers its text, the text is counted before it is parsed: an answer over the
      // limit (an anonymous caller's 10,001 rows, a signed-in caller's 1,000,001) is refused unparsed.
      if (budget && runtime.queryText) {
        const text = await runtime.queryText(stmt, ctx.signal);
        if (text === null) return null;
        budget.addText(text);
        return parseDbJson(text);
      }
      return counted(await (runtime.queryAnswer ? runtime.queryAnswer(stmt, ctx.signal) : runtime.queryJson(stmt, ctx.signal)));
    });
  }

  /** The answer limits of this request's caller: anonymous callers' are smaller. */
  private limitsOf(ctx: RequestContext): ResponseLimits {
    return ctx.identity.authType === 'anonymous' ? this.anonymousLimits : this.responseLimits;
  }

  /** Inside a mutation request, reads see the request's own uncommitted writes. */
  private async readInTransaction(ctx: RequestContext, runtime: DataSourceRuntime, stmt: CompiledSql, budget: ResponseBudget | undefined): Promise<unknown> {
    const conn = await ctx.transactions.connection(runtime);
    return this.timed(ctx, runtime, stmt, async () => {
      const rows = await conn.all(stmt);
      const v = rows[0] ? Object.values(rows[0])[0] : null;
      if (v instanceof RowsAnswer) return v.countedBy(budget).parse();
      if (typeof v === 'string') budget?.addText(v);
      return typeof v === 'string' ? parseDbJson(v) : (v ?? null);
    });
  }

  /**
   * The most root rows a statement of this request asks its database for (src/planner/row-cap.ts):
   * one over the caller's row limit, so an answer over it is cut by the database and still refused.
   */
  rowCap(ctx: RequestContext): number | undefined {
    const rows = this.limitsOf(ctx).rows;
    return ctx.limited && rows > 0 ? rows + 1 : undefined;
  }

  /** The request's answer budget; none for callers outside the request limits (the system identity). */
  private budget(ctx: RequestContext): ResponseBudget | undefined {
    const limits = this.limitsOf(ctx);
    if (!ctx.limited || (limits.rows <= 0 && limits.bytes <= 0)) return undefined;
    const owner = ctx.budgetOf ?? ctx;
    return (owner.responseBudget ??= new ResponseBudget(limits, scopeOf(owner)));
  }

  private async write(ctx: RequestContext, runtime: DataSourceRuntime, conn: SourceConnection, stmt: CompiledSql) {
    return this.timed(ctx, runtime, stmt, () => conn.write(stmt));
  }

  /**
   * Inserts a row and its related rows; returns the stored row (physical column names). `written`
   * sees every row stored, nested ones included (the check after a write reads them back).
   */
  async insert(ctx: RequestContext, runtime: DataSourceRuntime, tree: InsertTree, written?: (object: InsertTree['object'], row: Row) => void): Promise<Row> {
    const conn = await ctx.transactions.connection(runtime);
    return this.insertTree(ctx, runtime, conn, tree, written);
  }

  private async insertTree(ctx: RequestContext, runtime: DataSourceRuntime, conn: SourceConnection, tree: InsertTree, written?: (object: InsertTree['object'], row: Row) => void): Promise<Row> {
    const values = new Map(tree.values);
    const fieldOf = (column: string) => tree.object.fields.find((f) => f.column === column);
    const set = (column: string, value: unknown) => {
      const f = fieldOf(column);
      values.set(column, { kind: 'param', value, scalar: f?.type ?? 'String' });
    };
    for (const p of tree.parents) {
      const parentRow = await this.insertTree(ctx, runtime, conn, p.tree, written);
      p.relation.sourceFields.forEach((c, i) => set(c, parentRow[p.relation.targetFields[i]!]));
    }
    const stored = tree.object.fields.filter((f) => f.sql === undefined).map((f) => f.column);
    const stmt = runtime.compiler.compileWrite({
      kind: 'insert',
      table: runtime.tableName(tree.object),
      columns: [...values.keys()],
      values: [...values.values()],
      returning: stored,
    });
    const row = (await this.write(ctx, runtime, conn, stmt)).rows[0] ?? {};
    written?.(tree.object, row);
    for (const c of tree.children) {
      for (const child of c.trees) {
        if (c.relation.via && c.junction) {
          // M2M: insert the target row (or take the existing one given by its key), then the junction row linking both ends.
          const targetRow = child.linkOnly
            ? Object.fromEntries(c.relation.targetFields.map((col) => [col, (child.values.get(col) as ParamExpr | undefined)?.value]))
            : await this.insertTree(ctx, runtime, conn, child, written);
          const via = c.relation.via;
          const link = new Map<string, ParamExpr>();
          const typed = (column: string, value: unknown): ParamExpr => ({ kind: 'param', value, scalar: c.junction?.fields.find((f) => f.column === column)?.type ?? 'String' });
          via.ownerFields.forEach((col, i) => link.set(col, typed(col, row[c.relation.sourceFields[i]!])));
          via.targetFields.forEach((col, i) => link.set(col, typed(col, targetRow[c.relation.targetFields[i]!])));
          await this.insertTree(ctx, runtime, conn, { object: c.junction, values: link, parents: [], children: [] }, written);
          continue;
        }
        const withFk = new Map(child.values);
        c.relation.targetFields.forEach((col, i) => {
          const f = child.object.fields.find((x) => x.column === col);
          withFk.set(col, { kind: 'param', value: row[c.relation.sourceFields[i]!], scalar: f?.type ?? 'String' });
        });
        await this.insertTree(ctx, runtime, conn, { ...child, values: withFk }, written);
      }
    }
    return row;
  }

  async change(ctx: RequestContext, runtime: DataSourceRuntime, node: UpdateNode | DeleteNode): Promise<number> {
    const conn = await ctx.transactions.connection(runtime);
    return (await this.write(ctx, runtime, conn, runtime.compiler.compileWrite(node))).changed;
  }
}

const ADMISSION_METRICS = {
  waited: (pool: string, seconds: number) => metrics.admissionWait.observe([pool], seconds),
  refused: (pool: string, reason: string) => metrics.admissionRefused.inc({ pool, reason }),
};
