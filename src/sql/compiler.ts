// IR -> { sql, params }. The base compiler writes the statement shape once; dialects override the
// few places where databases differ (DESIGN.md §3.3). No value ever becomes SQL text: every value
// is a numbered parameter, every identifier goes through quoteIdentifier (DESIGN.md §3.4).
import type { ScalarName } from '../catalog/model.js';
import { ErrorCode, PublicError, UnreachableCaseError } from '../shared/errors.js';
import { stringifyJson } from '../shared/json.js';
import type { AggFn, AggOut, AggregateNode } from '../planner/ir/aggregate.js';
import type { Expr, GeoMeasureExpr, GeoTransformExpr, H3CellExpr, ParamExpr } from '../planner/ir/expr.js';
import type { FilterNode, InGroupNode, SpatialNode } from '../planner/ir/filter.js';
import type { WriteNode } from '../planner/ir/mutation.js';
import type { FromNode, FunctionCallNode, OrderItem, RootQuery, SelectNode } from '../planner/ir/select.js';
import { type KeysTable, REMOTE_MARKER } from '../planner/ir/remote.js';
import type { RowsLayout } from './rows/layout.js';

export interface CompiledSql {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The tables the statement reads and writes, for lineage events (SPEC §14). */
  readonly lineage?: StatementLineage;
  /**
   * Set when the statement returns rows rather than one JSON document (src/sql/rows/): builds the
   * root field's answer from the rows (arrays of column values, as the source's driver reads them).
   */
  readonly rows?: RowsAssembler;
  /**
   * Positions of a rows statement's columns that hold a 1:N level's values as PostgreSQL arrays
   * (src/sql/rows/compiler.ts); the source reads them by their element type, or runs `json` instead
   * where it does not know that type.
   */
  readonly arrays?: readonly number[];
  /** The same statement with every 1:N level as JSON text, taking the same parameters, and its assembler. */
  readonly json?: { readonly sql: string; readonly rows: RowsAssembler };
  /**
   * A row statement's (`compileRows`) rows its reader skips (`offset`) and then keeps at most
   * (`limit`), where the statement does not cut them itself (DuckDB: src/sql/dialects/duckdb.ts).
   */
  readonly window?: { readonly offset: number; readonly limit?: number; readonly keys?: KeyWindows };
}

/**
 * An ordered row statement read in windows of its order keys, one snapshot (DuckDB:
 * src/sql/dialects/duckdb-windows.ts, read by src/sources/duckdb/windows.ts): `bounds` returns the
 * order keys of every `size`-th row (and of the last row wanted), the windows read the rows between
 * two of them, each sorted alone. `lo` / `hi` are the indexes in `params` where a window's lower
 * (exclusive) and upper (inclusive) keys are bound, in order-item order.
 */
export interface KeyWindows {
  readonly size: number;
  readonly bounds: { readonly sql: string; readonly params: readonly unknown[] };
  /** Every row (fewer rows than one window, or a key declared never null that is). */
  readonly all: KeyWindow;
  readonly first: KeyWindow;
  readonly between: KeyWindow;
  readonly last: KeyWindow;
}

export interface KeyWindow {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly lo: readonly number[];
  readonly hi: readonly number[];
}

/** The answer of a root field from the rows of its statement (src/sql/rows/assemble.ts). */
export interface RowsAssembler {
  (rows: readonly (readonly unknown[])[]): unknown;
  /** What it was generated from: the fast path writes the answer text from the same description (src/pipeline/fast-path/write.ts). */
  readonly layout: RowsLayout;
}

export interface StatementLineage {
  /** Qualified names as the source knows them (e.g. ['shop', 'main', 'orders']). */
  readonly reads: readonly (readonly string[])[];
  readonly writes: readonly (readonly string[])[];
  /** True when a view's SQL or a database function may read tables not listed. */
  readonly approximate: boolean;
}

/** Per-statement state: the parameter list grows as values are met. */
export class SqlContext {
  readonly params: unknown[] = [];
  readonly placeholders = new Map<object, string>();
  /** IR filters a dialect computed as a column of a derived table, by that column's name. */
  readonly lifted = new Map<object, string>();
  private tzParam: string | undefined;
  /** Tables met while compiling (lineage), by their dotted name. */
  readonly reads = new Map<string, readonly string[]>();
  approximate = false;
  /**
   * Objects are written as positional arrays (values in field order, no keys): the 1:N levels of a
   * rows statement (src/sql/rows/), whose assembler knows the keys.
   */
  positional = false;
  /**
   * The joins of the level being written (its row's FROM), where a dialect may join a to-one
   * relation instead of a correlated subquery (SqlCompiler.toOne); undefined where none may join.
   */
  joins: string[] | undefined;
  /**
   * Columns of a parent row written as another expression (by `table.column`): where a dialect builds
   * a relation's rows in a derived table that cannot see the parent row, the parent's key is the
   * grouped column it equals (MySQL's bucket aggregations of a relation).
   */
  readonly outerColumns = new Map<string, string>();

  /** The request's IANA time zone (SPEC §10); `UTC` needs no conversion at all. */
  constructor(readonly timezone = 'UTC') {}

  /** The time zone as one parameter of the statement, added on first use. */
  zone(): string {
    this.tzParam ??= `$${this.add(this.timezone)}`;
    return this.tzParam;
  }

  add(value: unknown): number {
    this.params.push(value);
    return this.params.length;
  }

  read(name: readonly string[]): void {
    this.reads.set(name.join('.'), name);
  }

  lineage(writes: readonly (readonly string[])[] = []): StatementLineage {
    return { reads: [...this.reads.values()], writes, approximate: this.approximate };
  }
}

/** True when the condition holds a subquery (a relation filter). */
export function hasSubquery(f: FilterNode): boolean {
  if (f.kind === 'exists') return true;
  if (f.kind === 'and' || f.kind === 'or') return f.items.some(hasSubquery);
  if (f.kind === 'not') return hasSubquery(f.item);
  return f.kind === 'in_group' && f.filter !== undefined && hasSubquery(f.filter);
}

/** ` FILTER (WHERE a AND b)` of an aggregate, or nothing. */
/**
 * A `like`/`ilike` pattern ending in its escape character (a backslash) is refused here: PostgreSQL failed the
 * query, DuckDB answered an internal error and MariaDB matched the backslash (cross-source fuzz).
 */
export function checkPattern(f: { readonly op: string; readonly list?: boolean; readonly right: { readonly value: unknown } }): void {
  if ((f.op !== 'like' && f.op !== 'ilike') || f.list || typeof f.right.value !== 'string') return;
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(f.right.value)) {
    throw new PublicError(ErrorCode.BadUserInput, `${f.op} pattern ${JSON.stringify(f.right.value)} ends with its escape character: a backslash escapes the next character (\\\\ is one backslash)`);
  }
}

export function filterClause(...conditions: (string | undefined)[]): string {
  const present = conditions.filter(Boolean);
  return present.length ? ` FILTER (WHERE ${present.join(' AND ')})` : '';
}

/** TimeExtract values (SPEC §4) -> the field name both engines' extract() take. */
const EXTRACT_PARTS: Readonly<Record<string, string>> = {
  epoch: 'epoch', minute: 'minute', hour: 'hour', day: 'day', doy: 'doy', dow: 'dow', iso_dow: 'isodow',
  week: 'week', month: 'month', year: 'year', iso_year: 'isoyear', quarter: 'quarter',
};

/** Row position column of a limited derived table (a name no catalog column is likely to use). */
const RN = '"__svc_rn"';

/** Whether an aggregation's outputs read its rows (an aggregate at this level, not only nested ones). */
function readsRows(fields: readonly AggOut[]): boolean {
  // A constant (`__typename`) reads no row either: read, it made one row per aggregated row.
  return fields.some((f) => f.kind === 'object' ? !!f.nullUnless || readsRows(f.fields) : f.kind === 'value' ? f.expr.kind !== 'param' : f.kind !== 'nested');
}

const TIMES = new Set<ScalarName>(['Time', 'DateTime', 'Timestamp']);

/**
 * A time's text with at most six fraction digits: microseconds are the finest every source keeps.
 * The digits past them are cut, as DuckDB and MariaDB cut them (PostgreSQL rounded: `.9999999Z`
 * was the next second there, `.999999` on the others).
 */
export const microseconds = (text: string): string => text.replace(/(\.\d{6})\d+/, '$1');

export abstract class SqlCompiler {
  abstract readonly dialect: string;

  // ---- dialect hooks -------------------------------------------------------------------------
  quoteIdentifier(name: string): string {
    return `"${name.replaceAll('"', '""')}"`;
  }
  protected abstract sqlType(scalar: ScalarName): string;

  /** A Vector from the JSON text of a list of numbers (`[0.1, 0.2]`), as svc binds stored embeddings. */
  vectorFromText(placeholder: string): string {
    return `CAST(${placeholder} AS ${this.sqlType('Vector')})`;
  }
  /** A JSON object from key/value pairs (keys are response keys, bound as literals-safe text). */
  protected abstract jsonObject(pairs: readonly [string, string][], ctx: SqlContext): string;
  /** Aggregate of JSON values into an array, `[]` or NULL on no rows. */
  protected abstract jsonArrayAgg(value: string, orderBy: string, emptyAsNull: boolean): string;
  /** A column value as it goes into JSON (SPEC §3.4 wire formats). */
  protected abstract renderScalar(expr: string, scalar: ScalarName, list: boolean, ctx: SqlContext): string;
  protected abstract regexMatch(left: string, right: string): string;
  /** The root value as JSON text (dialects that build native values convert once, here). */
  protected rootJson(expr: string): string {
    return expr;
  }
  protected abstract jsonHasKey(left: string, key: string): string;
  protected abstract jsonContains(left: string, right: string): string;
  protected abstract listContainsAll(left: string, right: string): string;
  protected abstract listIntersects(left: string, right: string): string;
  /** `fn(arg)` with DISTINCT, a separator and a FILTER condition as the dialect spells them. */
  /** `exact`: the argument is an integer or decimal column (ColumnExpr.exact), so its avg() cannot overflow. */
  protected abstract aggregateCall(fn: AggFn, arg: string | undefined, distinct: boolean, sep: string | undefined, filter: string | undefined, order?: string, exact?: boolean): string;
  /** `value` among the `member` values of the enclosing group (an outer-level aggregate). */
  protected abstract inGroup(f: InGroupNode, ctx: SqlContext): string;
  /** `bucket:` truncation; timestamps are truncated in the request's time zone (SPEC §10). */
  protected truncTime(unit: string, expr: string, scalar: ScalarName, ctx: SqlContext): string {
    if (!/^[a-z]+$/.test(unit)) throw new PublicError(ErrorCode.BadUserInput, `invalid time bucket "${unit}"`);
    if (scalar === 'Timestamp' && ctx.timezone !== 'UTC') return this.truncInZone(unit, expr, ctx.zone());
    return `date_trunc('${unit}', ${expr})`;
  }
  protected abstract truncInZone(unit: string, expr: string, zone: string): string;
  /** The start of the `interval`-wide bin of `expr`, bins counted from 2000-01-01 00:00 UTC. */
  protected abstract timeBin(interval: string, expr: string, withZone: boolean): string;
  /** A timestamptz as the naive local time of `zone`. */
  protected abstract inZone(expr: string, zone: string): string;
  /**
   * A naive timestamp as an instant: read in the session's zone, which svc sets to UTC on DuckDB
   * and PostgreSQL (docs/catalogs.md "Timestamps"). `timezone(zone, naive)` would instead read it
   * as a wall-clock time of the request's zone.
   */
  /**
   * A 4-byte float read or aggregated (ColumnExpr.single) as the shortest decimal that reads back as
   * it, as a double: the text PostgreSQL and DuckDB write for it (`1.1`, `123456.7`) read as a double.
   * Read as it is, PostgreSQL's `real` answered the same text, but its avg widened the stored value
   * (avg of 3.4e38 and six others 4.857142788777664e+37 where DuckDB and MariaDB said
   * 4.857142857142857e+37) and its sum added in 4-byte floats (cross-source fuzz).
   */
  protected singleFloat(column: string, list: boolean): string {
    const [text, double] = [this.sqlType('String'), this.sqlType('Float')];
    return list ? `CAST(CAST(${column} AS ${text}[]) AS ${double}[])` : `CAST(CAST(${column} AS ${text}) AS ${double})`;
  }

  protected instant(expr: string): string {
    return `CAST(${expr} AS TIMESTAMPTZ)`;
  }
  protected extractPart(part: string, expr: string): string {
    return `extract(${part} FROM ${expr})`;
  }
  /** Converts a client value to what the driver binds (strings for dates, JSON text, ...). */
  protected bindValue(value: unknown, scalar: ScalarName): unknown {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' && TIMES.has(scalar)) return microseconds(value);
    // Values read back from a row (nested inserts) may be Dates: bind them as ISO text.
    if (value instanceof Date) return value.toISOString();
    // stringifyJson keeps integers beyond 2^53 exact (they arrive as BigInt values).
    if (scalar === 'JSON') return stringifyJson(value);
    if (scalar === 'BigInt') return String(value);
    if (typeof value === 'bigint') return Number(value);
    if (typeof value === 'object') return stringifyJson(value);
    return value;
  }

  // ---- public entry points -------------------------------------------------------------------
  compileQuery(q: RootQuery, timezone = 'UTC'): CompiledSql {
    const ctx = new SqlContext(timezone);
    const sql =
      q.kind === 'list' ? this.arrayOf(q.select, ctx, false, 'result')
      : q.kind === 'one' ? this.oneRow(q.select, ctx, true)
      : q.kind === 'call' ? this.call(q, ctx)
      : this.aggregate(q.node, ctx, 'result');
    return { sql, params: ctx.params, lineage: ctx.lineage() };
  }

  compileWrite(w: WriteNode): CompiledSql {
    const ctx = new SqlContext();
    return { sql: this.write(w, ctx), params: ctx.params, lineage: ctx.lineage([w.table]) };
  }

  // ---- statement shapes ----------------------------------------------------------------------
  protected oneRow(sel: SelectNode, ctx: SqlContext, root = false): string {
    const { sql: object, joins } = this.level(ctx, true, () => this.objectOf(sel, ctx));
    return `SELECT ${root ? this.rootJson(object) : object} AS result FROM ${this.from(sel, ctx)}${joins}${this.whereClause(sel, ctx)}${sel.unique ? '' : ' LIMIT 1'}`;
  }

  /** The value of a to-one relation: a correlated subquery here; a dialect may join it into `ctx.joins`. */
  protected toOne(sel: SelectNode, ctx: SqlContext): string {
    return `(${this.oneRow(sel, ctx)})`;
  }

  /**
   * Writes one level's row with its own list of to-one joins (`open`: joins may be added; false
   * where they would change the rows' order or meet joins of their own); `joins` go after its FROM.
   */
  private level(ctx: SqlContext, open: boolean, write: () => string): { sql: string; joins: string } {
    const outer = ctx.joins;
    const joins: string[] | undefined = (ctx.joins = open ? [] : undefined);
    try {
      return { sql: write(), joins: joins?.join('') ?? '' };
    } finally {
      ctx.joins = outer;
    }
  }

  protected objectOf(sel: SelectNode, ctx: SqlContext): string {
    const pairs: [string, string][] = sel.fields.map((f) => {
      switch (f.kind) {
        case 'scalar':
          return [f.key, this.renderScalar(this.expr(f.expr, ctx), f.scalar, f.list, ctx)];
        case 'const':
          return [f.key, this.constValue(f.value, ctx)];
        case 'object':
          return [f.key, this.toOne(f.select, ctx)];
        case 'array':
          return [f.key, `(${this.arrayOf(f.select, ctx, f.select.emptyAsNull ?? true)})`];
        case 'aggregate':
          return [f.key, `(${this.aggregate(f.node, ctx, undefined, true)})`];
        case 'unnest':
          return [f.key, this.singletonList(this.level(ctx, false, () => this.objectOf(f.select, ctx)).sql)];
        case 'fn_rows': {
          const call = this.expr(f.call, ctx);
          const where = f.join.map((j) => `_f.${this.quoteIdentifier(j.column)} = ${this.expr(j.parent, ctx)}`).join(' AND ');
          return [f.key, `(SELECT ${this.jsonArrayAgg(this.rowValue('_f'), '', true)} FROM ${call} AS _f${where ? ` WHERE ${where}` : ''})`];
        }
        case 'remote':
          // The parent row's keys for a cross-source level; the executor puts the answer here.
          return [f.key, this.jsonObject([[REMOTE_MARKER, String(f.id)], ...f.keys.map((k, i): [string, string] => [`k${i}`, this.renderScalar(this.expr(k.expr, ctx), k.scalar, false, ctx)])], ctx)];
        case 'json_object': {
          const object = this.objectOf({ ...sel, fields: f.fields }, ctx);
          return [f.key, f.nullWhen ? `CASE WHEN ${this.expr(f.nullWhen, ctx)} IS NULL THEN NULL ELSE ${object} END` : object];
        }
        default:
          throw new UnreachableCaseError(f);
      }
    });
    return this.jsonObject(pairs, ctx);
  }

  /** A constant of the answer (`__typename`) as the statement holds it: one parameter. */
  protected constValue(value: string | number | boolean | null, ctx: SqlContext): string {
    return value === null ? 'NULL' : this.param({ kind: 'param', value, scalar: typeof value === 'number' ? 'Float' : typeof value === 'boolean' ? 'Boolean' : 'String' }, ctx);
  }

  /**
   * A JSON array of objects. Without limit the rows are aggregated directly, ordered inside the
   * aggregate. With limit, offset or distinct_on the rows are cut first in a derived table, so the
   * objects (and their nested relations) are built only for the rows that are returned.
   */
  protected arrayOf(sel: SelectNode, ctx: SqlContext, emptyAsNull: boolean, label?: string): string {
    const { object, order, from } = this.listParts(sel, ctx);
    return `SELECT ${this.rooted(this.jsonArrayAgg(object, order, emptyAsNull), label)}${label ? ` AS ${label}` : ''} FROM ${from}`;
  }

  /**
   * The rows of a root list one by one (`row`: each row's JSON object, as in the array), in order:
   * what /ipc streams with a cursor instead of one array built in memory (SPEC §13).
   */
  compileRows(sel: SelectNode, timezone = 'UTC'): CompiledSql {
    const ctx = new SqlContext(timezone);
    const { object, order, from } = this.listParts(sel, ctx);
    return { sql: `SELECT ${this.rootJson(object)} AS row FROM ${from}${order ? ` ORDER BY ${order}` : ''}`, params: ctx.params, lineage: ctx.lineage() };
  }

  /** A list's row object, its order, and the `FROM ... WHERE ...` it is built from. */
  private listParts(sel: SelectNode, ctx: SqlContext): { object: string; order: string; from: string } {
    if ((sel.limit !== undefined || sel.offset !== undefined || !!sel.distinctOn?.length) && sel.joins?.length) return this.limitedJoined(sel, ctx);
    // An unordered list keeps the rows in the order they are read: a join could hash them the other
    // way round (the related table's order), so its to-one relations stay subqueries.
    const ordered = sel.orderBy.length > 0 || !!sel.distinctOn?.length;
    let joins = '';
    const { body, order, from, where } = this.listRows(sel, ctx, () => {
      const level = this.level(ctx, ordered, () => this.objectOf(sel, ctx));
      joins = level.joins;
      return level.sql;
    });
    return { object: body, order, from: `${from}${joins}${where}` };
  }

  /**
   * The rows of a list (without `@unnest` joins), its order and its `FROM` and `WHERE` apart, so a
   * rows statement can join its to-one relations in between; `body` writes what each row selects.
   */
  protected listRows(sel: SelectNode, ctx: SqlContext, body: () => string): { body: string; order: string; from: string; where: string } {
    const limited = sel.limit !== undefined || sel.offset !== undefined || !!sel.distinctOn?.length;
    if (!limited) {
      // Parameters are numbered in this order (order, object, from, where), as before.
      const order = this.orderList(sel.orderBy, ctx);
      return { order, body: body(), from: this.from(sel, ctx), where: this.whereClause(sel, ctx) };
    }
    const items = this.effectiveOrder(sel);
    const order = this.orderList(items, ctx);
    const alias = this.quoteIdentifier(sel.from.alias);
    const distinct = sel.distinctOn?.length ? `DISTINCT ON (${sel.distinctOn.map((e) => this.expr(e, ctx)).join(', ')}) ` : '';
    // The derived table keeps the alias and every column, so an order of plain columns is written
    // again on the outside (a sort of the few rows kept). Other orders (N:1 paths, computed
    // values) are numbered inside rather than computed twice.
    const plain = items.every((o) => o.expr.kind === 'column' && o.expr.table === sel.from.alias);
    const rn = order && !plain ? `, row_number() OVER (ORDER BY ${order}) AS ${RN}` : '';
    const rows =
      `(SELECT ${distinct}${alias}.*${rn} FROM ${this.from(sel, ctx)}${this.whereClause(sel, ctx)}` +
      `${order ? ` ORDER BY ${order}` : ''}${this.limitOffset(sel.limit, sel.offset, ctx)}) AS ${alias}`;
    const outer = !order ? '' : plain ? order : `${alias}.${RN}`;
    return { body: body(), order: outer, from: rows, where: '' };
  }

  /**
   * Limited rows joined with `@unnest` relations: the limit counts joined rows, so objects are built
   * for the joined rows, numbered, and cut after (the other columns' derived table would lose them).
   */
  private limitedJoined(sel: SelectNode, ctx: SqlContext): { object: string; order: string; from: string } {
    const order = this.orderList(this.effectiveOrder(sel), ctx) || '1';
    const inner = `SELECT ${this.level(ctx, false, () => this.objectOf(sel, ctx)).sql} AS _j, row_number() OVER (ORDER BY ${order}) AS _rn FROM ${this.from(sel, ctx)}${this.whereClause(sel, ctx)}`;
    const int = (n: number | undefined, what: string) => {
      if (n !== undefined && (!Number.isSafeInteger(n) || n < 0)) throw new PublicError(ErrorCode.BadUserInput, `${what} must be a non-negative integer`);
      return n ?? 0;
    };
    const from = int(sel.offset, 'offset');
    const cut = sel.limit !== undefined ? ` AND _s._rn <= ${from + int(sel.limit, 'limit')}` : '';
    return { object: '_s._j', order: '_s._rn', from: `(${inner}) AS _s WHERE _s._rn > ${from}${cut}` };
  }

  /**
   * The key rows of a cross-source level as a derived table whose columns are named as `keys.columns`
   * (SPEC §5): one list parameter per column, never a parameter per value.
   */
  protected keysTable(_keys: KeysTable, _ctx: SqlContext): string {
    throw new PublicError(ErrorCode.BadUserInput, `relations from another source into ${this.dialect} sources are not supported yet`);
  }

  /** One list parameter per key column (JSON text): the column's values, in row order. */
  protected keyColumnLists(keys: KeysTable, ctx: SqlContext): string[] {
    // Numbers and booleans stay JSON values (exact beyond 2^53); others as the dialect binds them.
    const plain = (s: ScalarName) => s === 'Int' || s === 'BigInt' || s === 'Float' || s === 'Boolean';
    return keys.columns.map((c, i) => `$${ctx.add(stringifyJson(keys.rows.map((r) => (plain(c.scalar) ? (r[i] ?? null) : this.bindValue(r[i], c.scalar)))))}`);
  }

  /** A one-element JSON list of one object. */
  protected abstract singletonList(object: string): string;

  private rooted(expr: string, label: string | undefined): string {
    return label ? this.rootJson(expr) : expr;
  }

  private effectiveOrder(sel: SelectNode): readonly OrderItem[] {
    if (!sel.distinctOn?.length) return sel.orderBy;
    return [...sel.distinctOn.map((expr) => ({ expr, desc: false })), ...sel.orderBy];
  }

  protected from(sel: SelectNode, ctx: SqlContext): string {
    return `${this.baseFrom(sel, ctx)}${this.unnestJoins(sel, ctx)}`;
  }

  /** `@unnest` relations: inner joins with their correlation and filters as the join condition. */
  private unnestJoins(sel: SelectNode, ctx: SqlContext): string {
    return (sel.joins ?? [])
      .map((j) => {
        const on = [j.correlate, j.where].filter((x): x is FilterNode => !!x).map((x) => this.filter(x, ctx));
        return ` JOIN ${this.from({ ...j, correlate: undefined, where: undefined } as SelectNode, ctx)} ON ${on.join(' AND ') || 'TRUE'}`;
      })
      .join('');
  }

  private baseFrom(sel: SelectNode, ctx: SqlContext): string {
    if (!sel.pre) return this.fromNode(sel.from, ctx);
    const pre = sel.pre;
    const order = this.orderList(pre.orderBy, ctx);
    const where = pre.where ? ` WHERE ${this.filter(pre.where, ctx)}` : '';
    const src = this.fromNode({ ...sel.from, alias: sel.from.alias }, ctx);
    return `(SELECT ${this.quoteIdentifier(sel.from.alias)}.* FROM ${src}${where}${order ? ` ORDER BY ${order}` : ''}${this.limitOffset(pre.limit, pre.offset, ctx)}) AS ${this.quoteIdentifier(sel.from.alias)}`;
  }

  protected fromNode(f: FromNode, ctx: SqlContext): string {
    if (f.keys) return `${this.keysTable(f.keys, ctx)} AS ${this.quoteIdentifier(f.alias)}`;
    if (f.group) return `(${this.grouped(f.group, ctx)}) AS ${this.quoteIdentifier(f.alias)}`;
    if (f.sql) {
      // A view's own SQL may read more than the tables it names through placeholders.
      ctx.approximate = true;
      for (const p of f.sql) if (typeof p !== 'string' && p.kind === 'ident') ctx.read(p.parts);
    } else ctx.read(f.name);
    // Catalog SQL of a view; its `[$arg]` placeholders arrive as parameters, never as text.
    const sql = f.sql?.map((p) => (typeof p === 'string' ? p : p.kind === 'ident' ? p.parts.map((x) => this.quoteIdentifier(x)).join('.') : this.param(p, ctx))).join('');
    const target = sql !== undefined ? `(${sql})` : f.name.map((n) => this.quoteIdentifier(n)).join('.');
    return `${target} AS ${this.quoteIdentifier(f.alias)}`;
  }

  /** A cube's grouped rows: grouped by position, so a parameter of a grouped value is written once. */
  private grouped(g: NonNullable<FromNode['group']>, ctx: SqlContext): string {
    const columns = g.columns.map((c) => {
      const arg = c.expr ? this.expr(c.expr, ctx) : undefined;
      const value = c.agg ? this.aggregateCall(c.agg, arg, false, undefined, undefined) : arg!;
      return `${c.cast ? `CAST(${value} AS ${this.sqlType(c.cast)})` : value} AS ${this.quoteIdentifier(c.name)}`;
    });
    const where = g.where ? ` WHERE ${this.filter(g.where, ctx)}` : '';
    const keys = g.columns.flatMap((c, i) => (c.agg ? [] : [String(i + 1)]));
    return `SELECT ${columns.join(', ')} FROM ${this.fromNode(g.source, ctx)}${where}${keys.length ? ` GROUP BY ${keys.join(', ')}` : ''}`;
  }

  protected whereClause(sel: SelectNode, ctx: SqlContext): string {
    const parts = [sel.correlate, sel.where].filter((x): x is FilterNode => !!x);
    if (!parts.length) return '';
    return ` WHERE ${parts.map((p) => this.filter(p, ctx)).join(' AND ')}`;
  }

  /**
   * svc sorts nulls as the smallest value: first ascending, last descending (docs/sql.md). The
   * clause is written only where it changes the answer, a value that can be null sorted the other
   * way than the database does by default: `NULLS LAST` on every key stops PostgreSQL from walking
   * an index backwards, so it sorted every matching row before the LIMIT.
   */
  protected orderList(items: readonly OrderItem[], ctx: SqlContext): string {
    return items.map((o) => {
      const nulls = o.notNull || this.nullsFirstByDefault(o.desc) === !o.desc ? '' : o.desc ? ' NULLS LAST' : ' NULLS FIRST';
      return `${this.expr(o.expr, ctx)} ${o.desc ? 'DESC' : 'ASC'}${nulls}`;
    }).join(', ');
  }

  /** Where the database puts nulls when the ORDER BY says nothing, per direction. */
  protected abstract nullsFirstByDefault(desc: boolean): boolean;

  /**
   * LIMIT and OFFSET are written as integer literals: DuckDB refuses parameters there inside
   * correlated subqueries. They are GraphQL `Int`s, checked again here, so no text gets through.
   */
  protected limitOffset(limit: number | undefined, offset: number | undefined, _ctx: SqlContext): string {
    const int = (n: number, what: string): number => {
      if (!Number.isSafeInteger(n) || n < 0) throw new PublicError(ErrorCode.BadUserInput, `${what} must be a non-negative integer`);
      return n;
    };
    let out = '';
    if (limit !== undefined) out += ` LIMIT ${int(limit, 'limit')}`;
    if (offset) out += ` OFFSET ${int(offset, 'offset')}`;
    return out;
  }

  // ---- expressions ---------------------------------------------------------------------------
  protected param(p: ParamExpr, ctx: SqlContext): string {
    // One IR value compiles to one placeholder, so an expression repeated in SELECT and GROUP BY
    // stays the same expression to the database.
    const seen = ctx.placeholders.get(p);
    if (seen !== undefined) return seen;
    const sql = this.placeholder(p, ctx);
    ctx.placeholders.set(p, sql);
    return sql;
  }

  protected placeholder(p: ParamExpr, ctx: SqlContext): string {
    const type = this.sqlType(p.scalar);
    if (p.list) {
      const values = Array.isArray(p.value) ? p.value : [p.value];
      return `[${values.map((v) => `CAST($${ctx.add(this.bindValue(v, p.scalar))} AS ${type})`).join(', ')}]`;
    }
    return `CAST($${ctx.add(this.bindValue(p.value, p.scalar))} AS ${type})`;
  }

  /** `left IN (values)`: one parameter per value here; a dialect may send the list as one array. */
  protected inList(left: string, list: ParamExpr & { value: readonly unknown[] }, ctx: SqlContext): string {
    return `${left} IN (${list.value.map((v) => this.param({ ...list, value: v }, ctx)).join(', ')})`;
  }

  protected expr(e: Expr, ctx: SqlContext): string {
    // Expressions that bind values of their own (JSON paths, geometry transforms and measurements)
    // compile once per statement: the same IR value in SELECT and GROUP BY (a bucket key) must be the
    // same SQL text, placeholders included, or the database refuses the grouping.
    if (e.kind !== 'json_path' && e.kind !== 'geo_transform' && e.kind !== 'geo_measure') return this.exprText(e, ctx);
    const seen = ctx.placeholders.get(e);
    if (seen !== undefined) return seen;
    const sql = this.exprText(e, ctx);
    ctx.placeholders.set(e, sql);
    return sql;
  }

  private exprText(e: Expr, ctx: SqlContext): string {
    switch (e.kind) {
      case 'column': {
        const outer = ctx.outerColumns.get(`${e.table}.${e.column}`);
        if (outer) return outer;
        const column = `${this.quoteIdentifier(e.table)}.${this.quoteIdentifier(e.column)}`;
        return e.instant ? this.instant(column) : e.single ? this.singleFloat(column, e.single === 'list') : column;
      }
      case 'param':
        return this.param(e, ctx);
      case 'raw':
        return `(${e.parts.map((p) => (typeof p === 'string' ? p : this.expr(p, ctx))).join('')})`;
      case 'subquery':
        return `(SELECT ${this.expr(e.value, ctx)} FROM ${this.from(e.select, ctx)}${this.whereClause(e.select, ctx)} LIMIT 1)`;
      case 'trunc':
        return e.scalar === 'Date'
          ? `CAST(${this.truncTime(e.unit, this.expr(e.expr, ctx), e.scalar, ctx)} AS DATE)`
          : this.truncTime(e.unit, this.expr(e.expr, ctx), e.scalar, ctx);
      case 'time_bin':
        return this.timeBin(this.param(e.interval, ctx), this.expr(e.expr, ctx), e.scalar === 'Timestamp');
      case 'extract': {
        const part = EXTRACT_PARTS[e.part];
        if (!part) throw new PublicError(ErrorCode.BadUserInput, `invalid extract part "${e.part}"`);
        let value = this.expr(e.expr, ctx);
        // Calendar parts are read in the request's zone; epoch is the same instant everywhere.
        if (e.scalar === 'Timestamp' && part !== 'epoch') value = this.inZone(value, ctx.timezone !== 'UTC' ? ctx.zone() : "'UTC'");
        const n = `CAST(floor(${this.extractPart(part, value)}) AS BIGINT)`;
        if (e.divide === undefined) return n;
        if (!Number.isSafeInteger(e.divide) || e.divide === 0) throw new PublicError(ErrorCode.BadUserInput, 'extract_divide must be a non-zero integer');
        return `CAST(floor(${n} / ${e.divide}) AS BIGINT)`;
      }
      case 'fn':
        // A database function may read tables of its own.
        ctx.approximate = true;
        if (e.sql) return `(${e.sql.map((p) => (typeof p === 'string' ? p : p.kind === 'ident' ? p.parts.map((x) => this.quoteIdentifier(x)).join('.') : this.expr(p, ctx))).join('')})`;
        return `${(e.name ?? []).map((n) => this.quoteIdentifier(n)).join('.')}(${e.args.map((a) => this.expr(a, ctx)).join(', ')})`;
      case 'geo_transform':
        return this.geoTransform(this.expr(e.expr, ctx), e, ctx);
      case 'geo_measure':
        return this.geoMeasure(this.expr(e.expr, ctx), e, ctx);
      case 'vector_distance':
        return this.vectorDistance(this.expr(e.expr, ctx), this.expr(e.vector, ctx), e.distance);
      case 'h3_cell':
        return this.h3Cell(this.expr(e.expr, ctx), e, ctx);
      case 'geo_point_key':
        return this.geoPointKey(this.expr(e.expr, ctx));
      case 'json_path': {
        const value = this.jsonPath(this.expr(e.expr, ctx), e.path, e.as, ctx);
        return e.cast ? `CAST(${value} AS ${this.sqlType(e.cast)})` : value;
      }
      case 'agg_ref':
        return e.within ? `(SELECT ${this.aggValue(e.agg, ctx, false)} FROM ${this.aggSource(e.within, ctx)})` : this.aggValue(e.agg, ctx, false);
      case 'agg_subquery':
        return `(SELECT ${this.aggregateCall(e.fn, e.arg ? this.expr(e.arg, ctx) : undefined, false, undefined, undefined)} FROM ${this.fromNode(e.from, ctx)} WHERE ${this.filter(e.where, ctx)})`;
      default:
        throw new UnreachableCaseError(e);
    }
  }

  protected filter(f: FilterNode, ctx: SqlContext): string {
    switch (f.kind) {
      case 'and':
        return f.items.length ? `(${f.items.map((i) => this.filter(i, ctx)).join(' AND ')})` : 'TRUE';
      case 'or':
        return f.items.length ? `(${f.items.map((i) => this.filter(i, ctx)).join(' OR ')})` : 'FALSE';
      case 'not':
        return `(NOT COALESCE(${this.filter(f.item, ctx)}, FALSE))`;
      case 'const':
        return f.value ? 'TRUE' : 'FALSE';
      case 'columns_equal':
        return `${this.expr(f.left, ctx)} = ${this.expr(f.right, ctx)}`;
      case 'exists':
        return `EXISTS (SELECT 1 FROM ${this.fromNode(f.from, ctx)} WHERE ${this.filter(f.where, ctx)})`;
      case 'compare':
        return this.compare(f, ctx);
      case 'sql':
        return this.expr(f.expr, ctx);
      case 'in_group':
        return this.inGroup(f, ctx);
      case 'spatial':
        return this.spatial(f, ctx);
      default:
        throw new UnreachableCaseError(f);
    }
  }

  protected compare(f: Extract<FilterNode, { kind: 'compare' }>, ctx: SqlContext): string {
    checkPattern(f);
    const left = this.expr(f.left, ctx);
    if (f.op === 'is_null') return f.right.value ? `${left} IS NULL` : `${left} IS NOT NULL`;
    const right = (): string => this.param(f.right, ctx);
    if (f.list) {
      switch (f.op) {
        case 'eq': return `${left} = ${this.param({ ...f.right, list: true }, ctx)}`;
        case 'contains': return this.listContainsAll(left, this.param({ ...f.right, list: true }, ctx));
        case 'intersects': return this.listIntersects(left, this.param({ ...f.right, list: true }, ctx));
      }
    }
    switch (f.op) {
      case 'eq': return f.scalar === 'JSON' ? this.jsonContains(left, right()) + ` AND ${this.jsonContains(right(), left)}` : `${left} = ${right()}`;
      case 'ne': return `${left} <> ${right()}`;
      case 'gt': return `${left} > ${right()}`;
      case 'gte': return `${left} >= ${right()}`;
      case 'lt': return `${left} < ${right()}`;
      case 'lte': return `${left} <= ${right()}`;
      case 'in': {
        const values = Array.isArray(f.right.value) ? f.right.value : [f.right.value];
        if (!values.length) return 'FALSE';
        return this.inList(left, { ...f.right, value: values }, ctx);
      }
      case 'like': return `${left} LIKE ${right()}`;
      case 'ilike': return `${left} ILIKE ${right()}`;
      case 'regex': return this.regexMatch(left, right());
      case 'has': return this.jsonHasKey(left, this.param({ kind: 'param', value: f.right.value, scalar: 'String' }, ctx));
      case 'has_all': {
        const keys = Array.isArray(f.right.value) ? f.right.value : [f.right.value];
        return `(${keys.map((k) => this.jsonHasKey(left, this.param({ kind: 'param', value: k, scalar: 'String' }, ctx))).join(' AND ') || 'TRUE'})`;
      }
      case 'contains': if (f.scalar === 'JSON') return this.jsonContains(left, right()); break;
    }
    throw new PublicError(ErrorCode.BadUserInput, `filter operator "${f.op}" is not supported for ${f.scalar} on ${this.dialect} sources`);
  }

  // ---- function calls (SPEC §4.4) ----------------------------------------------------------------
  protected call(q: FunctionCallNode, ctx: SqlContext): string {
    // An `sql` template compiles parenthesised, so it works as a FROM item and as a value alike.
    const expr = this.expr(q.call, ctx);
    if (q.result === 'table') {
      // The rows of a set-returning function, each row as an object. A bare call is read through a
      // subquery: a function returning scalars (generate_series) then still gives named rows.
      // A limit (src/planner/row-cap.ts) cuts the rows inside; only the template (a subquery) takes an
      // alias there: an aliased bare call would rename a scalar function's column.
      const limit = q.limit !== undefined ? ` LIMIT ${Math.trunc(q.limit)}` : '';
      const from = q.call.sql ? (limit ? `(SELECT * FROM ${expr} AS _l${limit})` : expr) : `(SELECT * FROM ${expr}${limit})`;
      return `SELECT ${this.rootJson(this.jsonArrayAgg(this.rowValue('_f'), '', false))} AS result FROM ${from} AS _f`;
    }
    if (q.members?.length && this.structMember('_c._v', q.members[0]!.key) !== undefined) {
      // Read once, its members rendered: NULL stays null, not an object of nulls.
      const pairs = q.members.map((m): [string, string] => {
        const member = this.structMember('_c._v', m.key)!;
        return [m.key, m.scalar ? this.renderScalar(member, m.scalar, m.list, ctx) : this.valueJson(member)];
      });
      return `SELECT ${this.rootJson(`CASE WHEN _c._v IS NULL THEN NULL ELSE ${this.jsonObject(pairs, ctx)} END`)} AS result FROM (SELECT ${expr} AS _v) AS _c`;
    }
    let value = q.jsonCast ? this.castJson(expr) : expr;
    if (q.result === 'scalar' && q.scalar) value = this.renderScalar(value, q.scalar, q.list, ctx);
    return `SELECT ${this.rootJson(this.valueJson(value))} AS result`;
  }

  /** A member of a struct/composite value; undefined where the dialect has no such values (the object is answered as it comes). */
  protected structMember(_expr: string, _key: string): string | undefined {
    return undefined;
  }

  /** `_spatial` relationships (SPEC §4): the dialect's geometry functions; others refuse clearly. */
  protected spatial(_f: SpatialNode, _ctx: SqlContext): string {
    throw new PublicError(ErrorCode.BadUserInput, `_spatial is not supported on ${this.dialect} sources`);
  }

  /** Geometry functions are the dialect's (PostGIS, or JS functions on DuckDB); others refuse clearly. */
  protected geoTransform(_expr: string, _e: GeoTransformExpr, _ctx: SqlContext): string {
    throw new PublicError(ErrorCode.BadUserInput, `geometry transforms are not supported on ${this.dialect} sources`);
  }
  protected geoMeasure(_expr: string, _e: GeoMeasureExpr, _ctx: SqlContext): string {
    throw new PublicError(ErrorCode.BadUserInput, `geometry measurements are not supported on ${this.dialect} sources`);
  }
  /** Vector distances (smaller is nearer) are the dialect's; others refuse clearly. */
  protected vectorDistance(_left: string, _right: string, _distance: 'L2' | 'Cosine' | 'Inner'): string {
    throw new PublicError(ErrorCode.BadUserInput, `vector distances are not supported on ${this.dialect} sources`);
  }
  /**
   * How the root h3 query gets cells (SPEC §4.5): `sql`, the database computes them (h3Cell without a
   * map); `server`, the server maps the centroids geoPointKey prints (h3Cell with `cells`); `none`.
   */
  readonly h3Cells: 'sql' | 'server' | 'none' = 'none';
  protected h3Cell(_expr: string, _e: H3CellExpr, _ctx: SqlContext): string {
    throw new PublicError(ErrorCode.BadUserInput, `h3 is not supported on ${this.dialect} sources`);
  }
  protected geoPointKey(_expr: string): string {
    throw new PublicError(ErrorCode.BadUserInput, `h3 is not supported on ${this.dialect} sources`);
  }
  /** The value at `path` inside a JSON expression; the path is bound as a parameter. */
  protected abstract jsonPath(expr: string, path: readonly string[], as: 'json' | 'text' | 'number' | 'boolean', ctx: SqlContext): string;
  /** A row of a FROM item as a JSON-able value. */
  protected abstract rowValue(alias: string): string;
  /** Any SQL value as JSON (dialects that convert at the root return it unchanged). */
  protected abstract valueJson(expr: string): string;
  protected abstract castJson(expr: string): string;

  // ---- aggregations (SPEC §4.2) ---------------------------------------------------------------
  /**
   * One row of aggregates, or (with groupBy) an array with one object per bucket. `perParent`: a
   * relation's `<rel>_aggregation` on a row, which is null when the row has no related rows, as
   * hugr answers it (its e2e references/m2m_aggregation) and as the list relation itself is.
   */
  protected aggregate(node: AggregateNode, ctx: SqlContext, label?: string, perParent = false): string {
    const as = label ? ` AS ${label}` : '';
    // The source first: a dialect may compute filters of the outputs there (see DuckDB's aggSource).
    // Only nested aggregations (each a subquery tied to these rows on its own): no rows to read
    // here, and reading them would make one row per aggregated row (issue 32).
    if (!node.groupBy && !readsRows(node.fields)) {
      const rows = perParent ? this.aggSource(node, ctx) : '';
      const object = this.aggObject(node.fields, ctx);
      return `SELECT ${this.rooted(perParent ? `CASE WHEN EXISTS (SELECT 1 FROM ${rows}) THEN ${object} END` : object, label)}${as}`;
    }
    const source = this.aggSource(node, ctx);
    const object = this.aggObject(node.fields, ctx);
    if (!node.groupBy) return `SELECT ${this.rooted(perParent ? `CASE WHEN count(*) = 0 THEN NULL ELSE ${object} END` : object, label)}${as} FROM ${source}`;
    const group = node.groupBy.length ? ` GROUP BY ${node.groupBy.map((g) => this.expr(g, ctx)).join(', ')}` : '';
    const order = this.orderList(node.orderBy, ctx);
    const rn = order ? `, row_number() OVER (ORDER BY ${order}) AS _rn` : '';
    const inner = `SELECT ${object} AS _j${rn} FROM ${source}${group}${order ? ` ORDER BY ${order}` : ''}${this.limitOffset(node.limit, node.offset, ctx)}`;
    return `SELECT ${this.rooted(this.jsonArrayAgg('_s._j', order ? '_s._rn' : '', !label), label)}${as} FROM (${inner}) AS _s`;
  }

  /** The rows being aggregated, with N:1 joins; limits before aggregation need a derived table. */
  protected aggSource(node: AggregateNode, ctx: SqlContext): string {
    const rows = node.rows;
    const joins = node.joins.map((j) => ` LEFT JOIN ${this.fromNode(j.from, ctx)} ON ${this.filter(j.on, ctx)}`).join('');
    const limited = rows.limit !== undefined || rows.offset !== undefined || rows.distinctOn?.length;
    if (!limited) return `${this.from(rows, ctx)}${joins}${this.whereClause(rows, ctx)}`;
    const order = this.orderList(this.effectiveOrder(rows), ctx);
    const distinct = rows.distinctOn?.length ? `DISTINCT ON (${rows.distinctOn.map((e) => this.expr(e, ctx)).join(', ')}) ` : '';
    const alias = this.quoteIdentifier(rows.from.alias);
    const derived = `(SELECT ${distinct}${alias}.* FROM ${this.from(rows, ctx)}${this.whereClause(rows, ctx)}${order ? ` ORDER BY ${order}` : ''}${this.limitOffset(rows.limit, rows.offset, ctx)}) AS ${alias}`;
    return `${derived}${joins}`;
  }

  private aggObject(fields: readonly AggOut[], ctx: SqlContext): string {
    return this.jsonObject(fields.map((f) => [f.key, this.aggValue(f, ctx, true)] as [string, string]), ctx);
  }

  /** SQL of one output of an aggregation; `rendered` formats times as the wire format wants. */
  protected aggValue(f: AggOut, ctx: SqlContext, rendered: boolean): string {
    switch (f.kind) {
      case 'count':
        return this.aggregateCall('count', f.arg ? this.expr(f.arg, ctx) : undefined, f.distinct === true, undefined, f.filter ? this.filter(f.filter, ctx) : undefined);
      case 'agg': {
        const arg = this.expr(f.arg, ctx);
        const filter = f.filter ? this.filter(f.filter, ctx) : undefined;
        const sep = f.sep ? this.param(f.sep, ctx) : undefined;
        // Distinct values have no single row position: they keep their own sorted order.
        const order = f.order?.length && !f.distinct ? this.orderList(f.order, ctx) : undefined;
        const exact = f.arg.kind === 'column' && f.arg.exact === true;
        if (!rendered) return this.aggregateCall(f.fn, arg, f.distinct, sep, filter, order, exact);
        if (f.fn === 'list') return this.aggregateCall('list', this.renderScalar(arg, f.scalar, false, ctx), f.distinct, sep, filter, order);
        const call = this.aggregateCall(f.fn, arg, f.distinct, sep, filter, order, exact);
        return ['min', 'max', 'any', 'last'].includes(f.fn) ? this.renderScalar(call, f.scalar, false, ctx) : call;
      }
      case 'object': {
        const object = this.aggObject(f.fields, ctx);
        return f.nullUnless ? `CASE WHEN count(${this.expr(f.nullUnless, ctx)}) = 0 THEN NULL ELSE ${object} END` : object;
      }
      case 'value':
        return rendered ? this.renderScalar(this.expr(f.expr, ctx), f.scalar, f.list, ctx) : this.expr(f.expr, ctx);
      case 'nested':
        return `(${this.aggregate(f.node, ctx)})`;
      default:
        throw new UnreachableCaseError(f);
    }
  }

  // ---- writes --------------------------------------------------------------------------------
  /**
   * A value stored into a column (INSERT's values, UPDATE's SET): as any expression here. A dialect
   * types it so the database converts it to the column's own type (a BigInt into numeric(20, 0), not
   * through a bigint) and refuses what does not fit it.
   */
  protected assigned(e: Expr, ctx: SqlContext): string {
    return this.expr(e, ctx);
  }

  protected write(w: WriteNode, ctx: SqlContext): string {
    const table = (parts: readonly string[]): string => parts.map((p) => this.quoteIdentifier(p)).join('.');
    switch (w.kind) {
      case 'insert': {
        const cols = w.columns.map((c) => this.quoteIdentifier(c)).join(', ');
        const values = w.values.map((v) => this.assigned(v, ctx)).join(', ');
        const body = w.columns.length ? `(${cols}) VALUES (${values})` : 'DEFAULT VALUES';
        const ret = w.returning.length ? ` RETURNING ${w.returning.map((c) => this.quoteIdentifier(c)).join(', ')}` : '';
        return `INSERT INTO ${table(w.table)} ${body}${ret}`;
      }
      case 'update': {
        const set = [...w.set.map((s) => `${this.quoteIdentifier(s.column)} = ${this.assigned(s.value, ctx)}`), ...(w.rawSet ? [w.rawSet] : [])].join(', ');
        return `UPDATE ${table(w.table)} AS ${this.quoteIdentifier(w.alias)} SET ${set}${w.where ? ` WHERE ${this.filter(w.where, ctx)}` : ''}`;
      }
      case 'delete':
        return `DELETE FROM ${table(w.table)} AS ${this.quoteIdentifier(w.alias)}${w.where ? ` WHERE ${this.filter(w.where, ctx)}` : ''}`;
      default:
        throw new UnreachableCaseError(w);
    }
  }
}
