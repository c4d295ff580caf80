// MySQL / MariaDB dialect (docs/mysql.md). JSON is built with JSON_OBJECT / JSON_ARRAYAGG inside
// one statement, as on the other engines. MariaDB has no LATERAL and no outer references inside
// derived tables, so per-parent limits are the aggregate's own `ORDER BY ... LIMIT`, and a FILTER
// clause is a CASE inside the aggregate. Sessions run with ANSI_QUOTES (src/sources/mysql), so the
// base compiler's `"identifier"` quoting is kept; placeholders stay `$n` until the source sends them.
import type { ColumnRead, ScalarName } from '../../catalog/model.js';
import type { AggFn, AggOut, AggregateNode } from '../../planner/ir/aggregate.js';
import type { ColumnExpr, Expr, ParamExpr } from '../../planner/ir/expr.js';
import type { CompareNode, FilterNode, InGroupNode } from '../../planner/ir/filter.js';
import type { WriteNode } from '../../planner/ir/mutation.js';
import type { KeysTable } from '../../planner/ir/remote.js';
import type { SelectNode } from '../../planner/ir/select.js';
import { durationSeconds } from '../../shared/duration.js';
import { stringifyJson } from '../../shared/json.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { checkPattern, type CompiledSql, microseconds, SqlCompiler, SqlContext } from '../compiler.js';
import type { RootQuery } from '../../planner/ir/select.js';
import { assembler } from '../rows/assemble.js';
import { positionalLevel, positionalShape } from '../rows/compiler.js';
import { jsonKey } from '../keys.js';

const TYPES: Record<ScalarName, string> = {
  String: 'CHAR', Int: 'SIGNED', BigInt: 'SIGNED', Float: 'DOUBLE', Boolean: 'SIGNED', Date: 'DATE',
  Time: 'TIME(6)', Timestamp: 'DATETIME(6)', DateTime: 'DATETIME(6)', Interval: 'CHAR', JSON: 'CHAR',
  Geometry: 'CHAR', IntRange: 'CHAR', BigIntRange: 'CHAR', TimestampRange: 'CHAR', H3Cell: 'CHAR', Vector: 'CHAR',
};

/** Column types of JSON_TABLE (keys of a cross-source level). */
const COLUMN_TYPES: Partial<Record<ScalarName, string>> = {
  Int: 'BIGINT', BigInt: 'BIGINT', Float: 'DOUBLE', Boolean: 'BOOLEAN', Date: 'DATE', Time: 'TIME(6)', Timestamp: 'DATETIME(6)', DateTime: 'DATETIME(6)',
};

/** Scalars MySQL takes as bound (mysql2 sends numbers and text typed); the rest are cast. */
const PLAIN = new Set<ScalarName>(['String', 'Int', 'Float', 'JSON', 'H3Cell']);

/** GROUP_CONCAT joins with this; a client separator replaces it after (SEPARATOR takes literals only). */
const UNIT_SEP = "X'1F'";

/** The first day of the year of a DATE or DATETIME (MAKEDATE(1, 1) is 2001-01-01: years 0-99 are 19xx/20xx). */
const yearStart = (x: string) => `(DATE(${x}) - INTERVAL (DAYOFYEAR(${x}) - 1) DAY)`;

/** `date_trunc` units as the start of the period of a DATETIME. */
const TRUNC: Readonly<Record<string, (x: string) => string>> = {
  minute: (x) => `DATE_FORMAT(${x}, '%Y-%m-%d %H:%i:00')`,
  hour: (x) => `DATE_FORMAT(${x}, '%Y-%m-%d %H:00:00')`,
  day: (x) => `DATE(${x})`,
  week: (x) => `(DATE(${x}) - INTERVAL WEEKDAY(${x}) DAY)`,
  month: (x) => `DATE_FORMAT(${x}, '%Y-%m-01')`,
  quarter: (x) => `(${yearStart(x)} + INTERVAL (QUARTER(${x}) - 1) QUARTER)`,
  year: yearStart,
};

/** TimeExtract parts (as the base compiler names them) -> MySQL functions. */
const EXTRACT: Readonly<Record<string, (x: string) => string>> = {
  epoch: (x) => `UNIX_TIMESTAMP(${x})`, minute: (x) => `MINUTE(${x})`, hour: (x) => `HOUR(${x})`, day: (x) => `DAYOFMONTH(${x})`,
  doy: (x) => `DAYOFYEAR(${x})`, dow: (x) => `(DAYOFWEEK(${x}) - 1)`, isodow: (x) => `(WEEKDAY(${x}) + 1)`, week: (x) => `WEEK(${x}, 3)`,
  month: (x) => `MONTH(${x})`, year: (x) => `YEAR(${x})`, isoyear: (x) => `(YEARWEEK(${x}, 3) DIV 100)`, quarter: (x) => `QUARTER(${x})`,
};
const EXTRACT_NAMES: Readonly<Record<string, string>> = { iso_dow: 'isodow', iso_year: 'isoyear' };

/** `2025-03-15T09:00:00Z` / `+02:00` -> the UTC DATETIME text MySQL reads (sessions run in UTC). */
function utcDateTime(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new PublicError(ErrorCode.BadUserInput, `invalid Timestamp value "${value}"`);
  const frac = /\.(\d{1,6})/.exec(value)?.[1] ?? '';
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}${frac ? `.${frac.padEnd(6, '0')}` : ''}`;
}

/**
 * A BIT or YEAR column as svc reads it everywhere (shown, filtered, ordered, aggregated): MariaDB
 * writes a BIT value into JSON as its raw bytes and YEAR 0 as `0000`, neither of them JSON. A BIT
 * served as String is its binary digits padded to the width, as PostgreSQL writes bit(n)
 * ("10100101"), so filters compare the digits the client sees; as a number, its unsigned value.
 */
function readColumn(column: string, read: ColumnRead): string {
  if (read.kind === 'bits' && read.as === 'text') return `LPAD(BIN(${column}), ${read.width}, '0')`;
  return `CAST(${column} AS UNSIGNED)`;
}

/** A BIT column's value as the client writes it (binary digits, as it reads them), as the number MariaDB stores. */
function bitsValue(value: unknown, width: number): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || !/^[01]+$/.test(value) || value.length > width) {
    throw new PublicError(ErrorCode.BadUserInput, `a value of a BIT(${width}) column is written as up to ${width} binary digits ("0101")`);
  }
  return BigInt(`0b${value}`).toString();
}

export class MysqlCompiler extends SqlCompiler {
  readonly dialect = 'mysql';

  /** `rows` false: every read is one JSON document (SQL_ROWS=false). */
  constructor(private readonly rowsOn = true) {
    super();
  }

  /**
   * Reads of columns and relations return rows (docs/sql.md "Rows"): each row one positional
   * `JSON_ARRAY` (its values in field order, relations nested the same way), never one document
   * aggregated over every row. The keys and the whole-answer JSON_ARRAYAGG were what cost MariaDB
   * CPU (2.1 against 0.95 ms for Q1); the values print as in the document, by the same code.
   */
  override compileQuery(q: RootQuery, timezone = 'UTC'): CompiledSql {
    const sel = q.kind === 'list' || q.kind === 'one' ? q.select : undefined;
    if (!this.rowsOn || !sel || sel.joins?.length || sel.distinctOn?.length || sel.from.keys || !positionalLevel(sel)) return super.compileQuery(q, timezone);
    const rows = assembler({ many: q.kind === 'list', fields: [], positional: positionalShape(sel) });
    if (!rows) return super.compileQuery(q, timezone);
    const ctx = new SqlContext(timezone);
    ctx.positional = true;
    let sql: string;
    if (q.kind === 'list') {
      // A limited list is cut in a derived table before any row's JSON_ARRAY is built (listRows, as
      // PostgreSQL's rows statement): where MariaDB sorts through a temporary table (a filter it
      // cannot take from the index, such as `in`), it builds the select list of every matching row,
      // relation subqueries included, and keeps `limit` of them after the sort. Q1 (1,889 matching
      // orders, 50 kept): 27-31 ms of MariaDB CPU per statement, 10-12 ms cut first. An unordered
      // list is read as it is scanned and stops at its limit: no derived table (MariaDB would
      // materialize every column of its rows).
      if (sel.orderBy.length) {
        const parts = this.listRows(sel, ctx, () => this.objectOf(sel, ctx));
        sql = `SELECT ${parts.body} AS r FROM ${parts.from}${parts.where}${parts.order ? ` ORDER BY ${parts.order}` : ''}`;
      } else {
        sql = `SELECT ${this.objectOf(sel, ctx)} AS r FROM ${this.from(sel, ctx)}${this.whereClause(sel, ctx)}${this.limitOffset(sel.limit, sel.offset, ctx)}`;
      }
    } else {
      sql = `SELECT ${this.objectOf(sel, ctx)} AS r FROM ${this.from(sel, ctx)}${this.whereClause(sel, ctx)}${sel.unique ? '' : ' LIMIT 1'}`;
    }
    return { sql, params: ctx.params, lineage: ctx.lineage(), rows };
  }

  protected override sqlType(scalar: ScalarName): string {
    return TYPES[scalar];
  }

  /** MySQL sorts nulls first ascending, last descending: svc's own order (docs/sql.md). */
  /** MySQL and MariaDB accept OFFSET only after a LIMIT: an offset alone reads every row after it. */
  protected override limitOffset(limit: number | undefined, offset: number | undefined, ctx: SqlContext): string {
    return super.limitOffset(limit === undefined && offset ? Number.MAX_SAFE_INTEGER : limit, offset, ctx);
  }

  protected override nullsFirstByDefault(desc: boolean): boolean {
    return !desc;
  }

  /**
   * The key rows of a cross-source level: one JSON list parameter per column, each read by
   * JSON_TABLE with its position, and the columns joined side by side by position.
   */
  protected override keysTable(keys: KeysTable, ctx: SqlContext): string {
    const lists = this.keyColumnLists(keys, ctx);
    const tables = keys.columns.map((c, i) => `JSON_TABLE(${lists[i]}, '$[*]' COLUMNS ("o" FOR ORDINALITY, "v" ${COLUMN_TYPES[c.scalar] ?? 'LONGTEXT'} PATH '$')) AS "k${i}"`);
    const joined = tables.map((t, i) => (i === 0 ? t : `JOIN ${t} ON "k${i}"."o" = "k0"."o"`)).join(' ');
    return `(SELECT ${keys.columns.map((c, i) => `"k${i}"."v" AS ${this.quoteIdentifier(c.name)}`).join(', ')} FROM ${joined})`;
  }

  /**
   * `x IN (...)` reads its values from one JSON list parameter through JSON_TABLE (issue 31): one
   * statement text whatever the list's length, so lists of every length do not each leave a
   * prepared statement on the server (max_prepared_stmt_count is shared by all its clients) and no
   * list comes near the 65,535 placeholders of a statement. Scalars JSON_TABLE cannot type keep one
   * parameter per value.
   */
  protected override inList(left: string, list: ParamExpr & { value: readonly unknown[] }, ctx: SqlContext): string {
    const type = list.scalar === 'String' || list.scalar === 'H3Cell' ? 'LONGTEXT' : COLUMN_TYPES[list.scalar];
    if (!type) return super.inList(left, list, ctx);
    const plain = list.scalar === 'Int' || list.scalar === 'BigInt' || list.scalar === 'Float' || list.scalar === 'Boolean';
    const values = stringifyJson(list.value.map((v) => (plain ? v : this.bindValue(v, list.scalar))));
    return `${left} IN (SELECT "v" FROM JSON_TABLE($${ctx.add(values)}, '$[*]' COLUMNS ("v" ${type} PATH '$')) AS "in_list")`;
  }

  protected override bindValue(value: unknown, scalar: ScalarName): unknown {
    if (value === null || value === undefined) return null;
    if (scalar === 'Boolean' && typeof value === 'boolean') return value ? 1 : 0;
    if (scalar === 'Timestamp' && typeof value === 'string') return utcDateTime(value);
    // A naive DateTime given with an offset is its wall time, as PostgreSQL and DuckDB read it (MariaDB refused the text).
    if (scalar === 'DateTime' && typeof value === 'string') return microseconds(value).replace('T', ' ').replace(/(\d\d:\d\d(?::\d\d(?:\.\d+)?)?)(?:Z|[+-]\d\d(?::?\d\d)?)$/, '$1');
    // Time bins take seconds (MySQL has no interval values).
    if (scalar === 'Interval' && typeof value === 'string') return durationSeconds(value);
    return super.bindValue(value, scalar);
  }

  protected override placeholder(p: ParamExpr, ctx: SqlContext): string {
    if (p.into?.kind === 'bits' && p.into.as === 'text' && !p.list) return `CAST($${ctx.add(bitsValue(p.value, p.into.width))} AS UNSIGNED)`;
    if (p.list) {
      const values = Array.isArray(p.value) ? p.value : [p.value];
      return `JSON_ARRAY(${values.map((v) => this.placeholder({ ...p, list: false, value: v }, ctx)).join(', ')})`;
    }
    const n = `$${ctx.add(this.bindValue(p.value, p.scalar))}`;
    return PLAIN.has(p.scalar) || p.scalar === 'Interval' ? n : `CAST(${n} AS ${this.sqlType(p.scalar)})`;
  }

  // ---- JSON ---------------------------------------------------------------------------------
  protected override jsonObject(pairs: readonly [string, string][], ctx: SqlContext): string {
    if (ctx.positional) return `JSON_ARRAY(${pairs.map(([, v]) => v).join(', ')})`;
    return `JSON_OBJECT(${pairs.map(([k, v]) => `${jsonKey(k)}, ${v}`).join(', ')})`;
  }

  /**
   * A limit or offset cut inside the aggregate leaves `[]` where it cuts every row (`nested_offset`
   * past a parent's rows), while the aggregate of no rows is NULL: both are a relation without rows,
   * null as on the other sources (found by test/fuzz/cross-source.test.ts). NULLIF keeps the value
   * JSON (MariaDB's JSON flag; MySQL's NULLIF has its first argument's type).
   */
  protected override jsonArrayAgg(value: string, orderBy: string, emptyAsNull: boolean, limit = ''): string {
    const agg = `JSON_ARRAYAGG(${value}${orderBy ? ` ORDER BY ${orderBy}` : ''}${limit})`;
    if (!emptyAsNull) return `COALESCE(${agg}, JSON_ARRAY())`;
    return limit ? `NULLIF(${agg}, '[]')` : agg;
  }

  protected override singletonList(object: string): string {
    return `JSON_ARRAY(${object})`;
  }

  /** Rows of a FROM item have no JSON form without their column names (functions returning rows). */
  protected override rowValue(_alias: string): string {
    throw new PublicError(ErrorCode.BadUserInput, 'functions returning rows are not supported on mysql sources');
  }

  /** Any value as JSON text: the root of a function call is parsed as JSON. */
  protected override valueJson(expr: string): string {
    return `JSON_EXTRACT(JSON_ARRAY(${expr}), '$[0]')`;
  }

  protected override castJson(expr: string): string {
    return `JSON_EXTRACT(${expr}, '$')`;
  }

  protected override jsonPath(expr: string, path: readonly string[], as: 'json' | 'text' | 'number' | 'boolean', ctx: SqlContext): string {
    const p = `$${ctx.add(`$.${path.map((k) => JSON.stringify(k)).join('.')}`)}`;
    if (as === 'json') return `JSON_EXTRACT(${expr}, ${p})`;
    const text = `JSON_VALUE(${expr}, ${p})`;
    // Values that are not numbers (or booleans) count as missing rather than failing the query.
    if (as === 'number') return `(CASE WHEN JSON_TYPE(JSON_EXTRACT(${expr}, ${p})) IN ('INTEGER', 'DOUBLE', 'DECIMAL') THEN CAST(${text} AS DOUBLE) END)`;
    if (as === 'boolean') return `(CASE WHEN JSON_TYPE(JSON_EXTRACT(${expr}, ${p})) = 'BOOLEAN' THEN ${text} = 'true' END)`;
    return text;
  }

  /**
   * MariaDB prints a FLOAT with 6 significant digits (123456.7 as `123457`), which does not read back
   * as the stored value. So the value is written with p significant digits for p = 6, 7, 8, 9 (a
   * FLOAT never needs more than 9), and the first that reads back as the stored FLOAT is the answer:
   * the shortest such decimal, as PostgreSQL and DuckDB print it. A normal FLOAT with a shorter form
   * (1.1) comes out of p = 6 as that form; below 1.2e-38 (subnormals, fewer bits) p starts at 1.
   * The digits are made as text (`1.695254e-21`) and read as a DOUBLE, never as ROUND(x, 27 - ...):
   * scaling by a power of ten in doubles gave 1.6952539999999998e-21. Where two shortest decimals
   * are exactly as close (the stored value is halfway), the sources may choose differently.
   */
  protected override singleFloat(column: string, _list: boolean): string {
    const exponent = `FLOOR(LOG10(ABS(${column})))`;
    const digits = (p: number) => `CAST(CONCAT(ROUND(${column} / POW(10, ${exponent}), ${p - 1}), 'e', ${exponent}) AS DOUBLE)`;
    const fits = (p: number) => `IF(CAST(${digits(p)} AS FLOAT) = ${column}, ${digits(p)}, NULL)`;
    const first = (from: number) => `COALESCE(${Array.from({ length: 10 - from }, (_, i) => fits(from + i)).join(', ')}, CAST(${column} AS DOUBLE))`;
    return `(CASE WHEN ${column} IS NULL OR ${column} = 0 THEN CAST(${column} AS DOUBLE) WHEN ABS(${column}) < 1.1754943508222875e-38 THEN ${first(1)} ELSE ${first(6)} END)`;
  }

  protected override renderScalar(expr: string, scalar: ScalarName, list: boolean, _ctx: SqlContext): string {
    if (list) return expr;
    switch (scalar) {
      // MySQL booleans are integers; JSON wants true/false.
      case 'Boolean':
        return `IF(${expr} IS NULL, NULL, IF(${expr}, TRUE, FALSE))`;
      case 'Timestamp':
        return `IF(MICROSECOND(${expr}) = 0, DATE_FORMAT(${expr}, '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT(${expr}, '%Y-%m-%dT%H:%i:%s.%fZ'))`;
      case 'DateTime':
        return `IF(MICROSECOND(${expr}) = 0, DATE_FORMAT(${expr}, '%Y-%m-%dT%H:%i:%s'), DATE_FORMAT(${expr}, '%Y-%m-%dT%H:%i:%s.%f'))`;
      case 'Date':
        return `DATE_FORMAT(${expr}, '%Y-%m-%d')`;
      // Fractions only when present, trimmed as DuckDB and PostgreSQL write them ("17:30:00.5").
      case 'Time':
        return `IF(MICROSECOND(${expr}) = 0, TIME_FORMAT(${expr}, '%H:%i:%s'), TRIM(TRAILING '0' FROM TIME_FORMAT(${expr}, '%H:%i:%s.%f')))`;
      // DECIMAL columns served as Float print their scale (1.50); the wire format is a double.
      case 'Float':
        return `CAST(${expr} AS DOUBLE)`;
      case 'JSON':
        return `JSON_EXTRACT(${expr}, '$')`;
      default:
        return expr;
    }
  }

  // ---- times --------------------------------------------------------------------------------
  /** Sessions run in UTC; other request time zones need the server's zone tables (docs/mysql.md). */
  private utcOnly(ctx: SqlContext): void {
    if (ctx.timezone !== 'UTC') throw new PublicError(ErrorCode.BadUserInput, `time zone "${ctx.timezone}" is not supported on mysql sources (UTC only)`);
  }

  protected override truncTime(unit: string, expr: string, scalar: ScalarName, ctx: SqlContext): string {
    const trunc = TRUNC[unit];
    if (!trunc) throw new PublicError(ErrorCode.BadUserInput, `invalid time bucket "${unit}"`);
    if (scalar === 'Timestamp') this.utcOnly(ctx);
    return `CAST(${trunc(expr)} AS DATETIME(6))`;
  }

  protected override truncInZone(): string {
    throw new PublicError(ErrorCode.BadUserInput, 'time zones other than UTC are not supported on mysql sources');
  }

  protected override inZone(): string {
    throw new PublicError(ErrorCode.BadUserInput, 'time zones other than UTC are not supported on mysql sources');
  }

  /** Bins of `interval` seconds counted from 2000-01-01 00:00 UTC (946684800). */
  protected override timeBin(interval: string, expr: string): string {
    return `FROM_UNIXTIME(FLOOR((UNIX_TIMESTAMP(${expr}) - 946684800) / ${interval}) * ${interval} + 946684800)`;
  }

  protected override expr(e: Expr, ctx: SqlContext): string {
    if (e.kind === 'column' && e.read) return readColumn(super.expr(e, ctx), e.read);
    if (e.kind !== 'extract') return super.expr(e, ctx);
    const part = EXTRACT[EXTRACT_NAMES[e.part] ?? e.part];
    if (!part) throw new PublicError(ErrorCode.BadUserInput, `invalid extract part "${e.part}"`);
    if (e.scalar === 'Timestamp' && e.part !== 'epoch') this.utcOnly(ctx);
    const n = `CAST(FLOOR(${part(this.expr(e.expr, ctx))}) AS SIGNED)`;
    if (e.divide === undefined) return n;
    if (!Number.isSafeInteger(e.divide) || e.divide === 0) throw new PublicError(ErrorCode.BadUserInput, 'extract_divide must be a non-zero integer');
    return `CAST(FLOOR(${n} / ${e.divide}) AS SIGNED)`;
  }

  // ---- filters ------------------------------------------------------------------------------
  protected override compare(f: CompareNode, ctx: SqlContext): string {
    if (!f.list) {
      // Comparisons follow the column's collation (docs/mysql.md); ilike ignores case whatever it is.
      if (f.op === 'ilike') {
        checkPattern(f);
        return `LOWER(${this.expr(f.left, ctx)}) LIKE LOWER(${this.param(f.right, ctx)})`;
      }
    }
    return super.compare(f, ctx);
  }

  protected override regexMatch(left: string, right: string): string {
    return `${left} REGEXP ${right}`;
  }

  protected override jsonHasKey(left: string, key: string): string {
    return `JSON_CONTAINS_PATH(${left}, 'one', CONCAT('$.', JSON_QUOTE(${key})))`;
  }

  protected override jsonContains(left: string, right: string): string {
    return `JSON_CONTAINS(${left}, ${right})`;
  }

  protected override listContainsAll(left: string, right: string): string {
    return `JSON_CONTAINS(${left}, ${right})`;
  }

  protected override listIntersects(left: string, right: string): string {
    return `JSON_OVERLAPS(${left}, ${right})`;
  }

  protected override inGroup(f: InGroupNode, ctx: SqlContext): string {
    const member = this.expr(f.member, ctx);
    const kept = f.filter ? `CASE WHEN ${this.filter(f.filter, ctx)} THEN ${member} END` : member;
    return `JSON_CONTAINS(JSON_ARRAYAGG(${kept}), JSON_ARRAY(${this.expr(f.value, ctx)}))`;
  }

  // ---- lists of rows ------------------------------------------------------------------------
  /**
   * A derived table cannot see the parent row in MariaDB: a related list with limit/offset cuts in
   * the aggregate (`JSON_ARRAYAGG(... ORDER BY ... LIMIT n OFFSET m)`); `distinct_on` uses a window
   * over a derived table where that table needs no parent row (root lists).
   */
  protected override arrayOf(sel: SelectNode, ctx: SqlContext, emptyAsNull: boolean, label?: string): string {
    if (label && !sel.joins?.length) return this.rootArray(sel, ctx, emptyAsNull, label);
    const limited = sel.limit !== undefined || sel.offset !== undefined || !!sel.distinctOn?.length;
    if (!limited || sel.joins?.length) return super.arrayOf(sel, ctx, emptyAsNull, label);
    if (sel.distinctOn?.length) {
      if (sel.correlate) throw new PublicError(ErrorCode.BadUserInput, 'distinct_on in a relation is not supported on mysql sources');
      return super.arrayOf({ ...this.distinctRows(sel, ctx), distinctOn: undefined }, ctx, emptyAsNull, label);
    }
    if (!sel.correlate) return super.arrayOf(sel, ctx, emptyAsNull, label);
    const order = this.orderList(sel.orderBy, ctx);
    const as = label ? ` AS ${label}` : '';
    const agg = this.jsonArrayAgg(this.objectOf(sel, ctx), order, emptyAsNull, this.limitOffset(sel.limit ?? 2 ** 53 - 1, sel.offset, ctx));
    return `SELECT ${agg}${as} FROM ${this.from(sel, ctx)}${this.whereClause(sel, ctx)}`;
  }

  /**
   * The root list: objects are built row by row in a derived table and aggregated outside it.
   * MariaDB refuses an aggregate around a subquery that reads a grouped view ("Invalid use of group
   * function", customers { revenue { ... } }); built this way the root holds no such aggregate.
   */
  private rootArray(sel: SelectNode, ctx: SqlContext, emptyAsNull: boolean, label: string): string {
    const s = sel.distinctOn?.length ? { ...this.distinctRows(sel, ctx), distinctOn: undefined } : sel;
    const order = this.orderList(s.orderBy, ctx);
    const rn = order ? `, ROW_NUMBER() OVER (ORDER BY ${order}) AS "__svc_rn"` : '';
    const inner = `SELECT ${this.objectOf(s, ctx)} AS "__svc_j"${rn} FROM ${this.from(s, ctx)}${this.whereClause(s, ctx)}${order ? ` ORDER BY ${order}` : ''}${this.limitOffset(s.limit, s.offset, ctx)}`;
    return `SELECT ${this.jsonArrayAgg('"_s"."__svc_j"', order ? '"_s"."__svc_rn"' : '', emptyAsNull)} AS ${label} FROM (${inner}) AS "_s"`;
  }

  /** DISTINCT ON as the first row of each partition: a derived table of the kept rows. */
  private distinctRows(sel: SelectNode, ctx: SqlContext): SelectNode {
    const alias = this.quoteIdentifier(sel.from.alias);
    const keys = sel.distinctOn!.map((e) => this.expr(e, ctx)).join(', ');
    const order = this.orderList(sel.orderBy, ctx);
    const ranked = `SELECT ${alias}.*, ROW_NUMBER() OVER (PARTITION BY ${keys}${order ? ` ORDER BY ${order}` : ''}) AS "__svc_d" FROM ${this.from(sel, ctx)}${this.whereClause(sel, ctx)}`;
    return { ...sel, from: { kind: 'from', alias: sel.from.alias, name: [], sql: [`SELECT * FROM (${ranked}) AS ${alias} WHERE "__svc_d" = 1`] }, where: undefined, correlate: undefined, joins: undefined, pre: undefined, orderBy: [...sel.distinctOn!.map((expr) => ({ expr, desc: false })), ...sel.orderBy] };
  }

  /**
   * Buckets are built in a derived table, which cannot see a parent row. For a relation's buckets
   * the derived table groups the related rows of every parent (the correlation columns join the
   * keys) and the parent's buckets are picked outside it; per-parent limits number the buckets
   * within each parent.
   */
  protected override aggregate(node: AggregateNode, ctx: SqlContext, label?: string, perParent = false): string {
    if (!node.groupBy || !node.rows.correlate) return super.aggregate(node, ctx, label, perParent);
    const pairs = this.correlation(node.rows.correlate, node.rows.from.alias);
    if (!pairs) throw new PublicError(ErrorCode.BadUserInput, 'this bucket aggregation of a relation is not supported on mysql sources');
    const rows = { ...node.rows, correlate: undefined };
    const source = this.aggSource({ ...node, rows }, ctx);
    const own = pairs.map((p) => this.expr(p.own, ctx));
    // An aggregation inside a bucket (`aggregations { parts { _rows_count } }`) names the parent's key
    // in its correlation: inside the derived table it is the grouped column it equals.
    const outer = pairs.map((p) => `${p.parent.table}.${p.parent.column}`);
    outer.forEach((k, i) => ctx.outerColumns.set(k, own[i]!));
    const object = this.jsonObject(node.fields.map((f) => [f.key, this.aggValue(f, ctx, true)] as [string, string]), ctx);
    for (const k of outer) ctx.outerColumns.delete(k);
    const group = ` GROUP BY ${[...node.groupBy.map((g) => this.expr(g, ctx)), ...own].join(', ')}`;
    const order = this.orderList(node.orderBy, ctx);
    const rn = `ROW_NUMBER() OVER (PARTITION BY ${own.join(', ')}${order ? ` ORDER BY ${order}` : ''})`;
    const keys = own.map((c, i) => `, ${c} AS "__svc_c${i}"`).join('');
    const inner = `SELECT ${object} AS "__svc_j", ${rn} AS "__svc_rn"${keys} FROM ${source}${group}`;
    const from = node.offset ?? 0;
    const cut = [
      ...pairs.map((p, i) => `"_s"."__svc_c${i}" = ${this.expr(p.parent, ctx)}`),
      ...(from ? [`"_s"."__svc_rn" > ${from}`] : []),
      ...(node.limit !== undefined ? [`"_s"."__svc_rn" <= ${from + node.limit}`] : []),
    ];
    return `SELECT ${this.jsonArrayAgg('"_s"."__svc_j"', '"_s"."__svc_rn"', !label)}${label ? ` AS ${label}` : ''} FROM (${inner}) AS "_s" WHERE ${cut.join(' AND ')}`;
  }

  /** `child.a = parent.b AND ...` as pairs, or undefined for any other correlation. */
  private correlation(f: FilterNode, alias: string): { own: ColumnExpr; parent: ColumnExpr }[] | undefined {
    if (f.kind === 'and') {
      const all = f.items.map((i) => this.correlation(i, alias));
      return all.every((x) => x !== undefined) ? all.flat() as { own: ColumnExpr; parent: ColumnExpr }[] : undefined;
    }
    if (f.kind !== 'columns_equal') return undefined;
    if (f.left.table === alias && f.right.table !== alias) return [{ own: f.left, parent: f.right }];
    if (f.right.table === alias && f.left.table !== alias) return [{ own: f.right, parent: f.left }];
    return undefined;
  }

  protected override aggSource(node: AggregateNode, ctx: SqlContext): string {
    const rows = node.rows;
    const limited = rows.limit !== undefined || rows.offset !== undefined || !!rows.distinctOn?.length;
    if (limited && rows.correlate) throw new PublicError(ErrorCode.BadUserInput, 'limit, offset or distinct_on on an aggregation of a relation is not supported on mysql sources');
    if (rows.distinctOn?.length) return super.aggSource({ ...node, rows: { ...this.distinctRows(rows, ctx), distinctOn: undefined } }, ctx);
    return super.aggSource(node, ctx);
  }

  // ---- aggregates ---------------------------------------------------------------------------
  protected override aggValue(f: AggOut, ctx: SqlContext, rendered: boolean): string {
    if (f.kind !== 'agg' || (f.fn !== 'any' && f.fn !== 'last')) return super.aggValue(f, ctx, rendered);
    // The first or last of the collected non-null values, typed back from their JSON text.
    const arg = this.expr(f.arg, ctx);
    const order = f.order?.length ? this.orderList(f.order, ctx) : '';
    const list = this.aggregateCall('list', arg, false, undefined, f.filter ? this.filter(f.filter, ctx) : undefined, order);
    const at = f.fn === 'any' ? '$[0]' : '$[last]';
    const value = this.typed(`JSON_VALUE(${list}, '${at}')`, f.scalar);
    return rendered ? this.renderScalar(value, f.scalar, false, ctx) : value;
  }

  /** JSON text back to a value of the scalar. */
  private typed(text: string, scalar: ScalarName): string {
    switch (scalar) {
      case 'Int': case 'BigInt': return `CAST(${text} AS SIGNED)`;
      case 'Float': return `CAST(${text} AS DOUBLE)`;
      case 'Boolean': return `(${text} = 'true')`;
      case 'Date': case 'Time': case 'Timestamp': case 'DateTime': return `CAST(${text} AS ${this.sqlType(scalar)})`;
      default: return text;
    }
  }

  protected override aggregateCall(fn: AggFn, arg: string | undefined, distinct: boolean, sep: string | undefined, filter: string | undefined, order?: string): string {
    const d = distinct ? 'DISTINCT ' : '';
    const kept = (value: string, ...extra: string[]) => {
      const cond = [filter, ...extra].filter(Boolean).join(' AND ');
      return cond ? `CASE WHEN ${cond} THEN ${value} END` : value;
    };
    const by = order ? ` ORDER BY ${order}` : distinct && arg ? ` ORDER BY ${arg}` : '';
    switch (fn) {
      case 'count': return arg ? `count(${d}${kept(arg)})` : filter ? `count(${kept('1')})` : 'count(*)';
      // JSON_ARRAYAGG keeps nulls: non-null values are concatenated as one-element arrays and unwrapped.
      case 'list': return `JSON_EXTRACT(CONCAT('[', GROUP_CONCAT(${d}${kept(`JSON_ARRAY(${arg})`, `${arg} IS NOT NULL`)}${by} SEPARATOR ','), ']'), '$[*][0]')`;
      case 'string_agg': {
        const joined = `GROUP_CONCAT(${d}${kept(`CAST(${arg} AS CHAR)`)}${by} SEPARATOR ${UNIT_SEP})`;
        return sep ? `REPLACE(${joined}, ${UNIT_SEP}, ${sep})` : `REPLACE(${joined}, ${UNIT_SEP}, ',')`;
      }
      // MariaDB's avg of integers and decimals is a decimal of 4 more places (avg(1, 2, 2) is 1.6667):
      // the exact quotient made a double is the other sources' answer (cross-source fuzz), not the sum as a double
      // (a double over the count rounds twice: 12345811.04 / 6 gave 2057635.173333333, not ...3333). Times a
      // 1 of 30 places, a decimal sum divides to 34 places before it becomes a double; a double stays one.
      case 'avg': return `CAST(sum(${d}${kept(arg!)}) * 1.${'0'.repeat(30)} / count(${d}${kept(arg!)}) AS DOUBLE)`;
      case 'bool_and': return `IF(min(${kept(arg!)}) IS NULL, NULL, IF(min(${kept(arg!)}), TRUE, FALSE))`;
      case 'bool_or': return `IF(max(${kept(arg!)}) IS NULL, NULL, IF(max(${kept(arg!)}), TRUE, FALSE))`;
      case 'sum': case 'min': case 'max': return `${fn}(${d}${kept(arg!)})`;
      default: throw new PublicError(ErrorCode.BadUserInput, `aggregation "${fn}" is not supported on mysql sources`);
    }
  }

  // ---- writes -------------------------------------------------------------------------------
  /**
   * A BigInt stored into a column goes as its text, which MariaDB converts to the column's type:
   * through CAST(... AS SIGNED), 2^63 became -2^63 without an error and a decimal(20, 0) refused 99999999999999999999.
   */
  protected override assigned(e: Expr, ctx: SqlContext): string {
    if (e.kind === 'param' && !e.list && !e.into && e.scalar === 'BigInt') return `$${ctx.add(this.bindValue(e.value, e.scalar))}`;
    return super.assigned(e, ctx);
  }

  protected override write(w: WriteNode, ctx: SqlContext): string {
    const table = w.table.map((p) => this.quoteIdentifier(p)).join('.');
    if (w.kind === 'insert' && !w.columns.length) {
      const ret = w.returning.length ? ` RETURNING ${w.returning.map((c) => this.quoteIdentifier(c)).join(', ')}` : '';
      return `INSERT INTO ${table} () VALUES ()${ret}`;
    }
    // MariaDB's single-table DELETE takes no alias; the multi-table form does.
    if (w.kind === 'delete') {
      const alias = this.quoteIdentifier(w.alias);
      return `DELETE ${alias} FROM ${table} AS ${alias}${w.where ? ` WHERE ${this.filter(w.where, ctx)}` : ''}`;
    }
    return super.write(w, ctx);
  }
}
