// DuckDB dialect: JSON built with json_object / json_group_array, lists as DuckDB lists.
import type { ScalarName } from '../../catalog/model.js';
import type { KeysTable } from '../../planner/ir/remote.js';
import type { AggFn, AggregateNode } from '../../planner/ir/aggregate.js';
import { type CompiledSql, filterClause, hasSubquery, type KeyWindow, type KeyWindows, SqlCompiler, SqlContext } from '../compiler.js';
import { intervalText } from '../../shared/duration.js';
import { jsonKey } from '../keys.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { CompareNode, FilterNode, InGroupNode, SpatialNode } from '../../planner/ir/filter.js';
import type { SelectNode } from '../../planner/ir/select.js';
import type { ColumnExpr, Expr, GeoMeasureExpr, GeoTransformExpr, H3CellExpr, ParamExpr } from '../../planner/ir/expr.js';
import { type Key, KeySlot, nullKeys, slots, windowRange } from './duckdb-windows.js';
import { geoJsonOf, geometryAggregate, h3Resolution, geometryFilter, geometryMeasurement, geometryText, geometryTransforms } from './duckdb-geometry.js';

const TYPES: Record<ScalarName, string> = {
  String: 'VARCHAR', Int: 'INTEGER', BigInt: 'BIGINT', Float: 'DOUBLE', Boolean: 'BOOLEAN', Date: 'DATE',
  Time: 'TIME', Timestamp: 'TIMESTAMPTZ', DateTime: 'TIMESTAMP', Interval: 'INTERVAL', JSON: 'JSON',
  Geometry: 'VARCHAR', IntRange: 'VARCHAR', BigIntRange: 'VARCHAR', TimestampRange: 'VARCHAR', H3Cell: 'VARCHAR',
  Vector: 'FLOAT[]',
};

/** `+HH:MM` / `-HH:MM` from an offset in seconds. */
export const offsetText = (seconds: string): string =>
  `(CASE WHEN ${seconds} < 0 THEN '-' ELSE '+' END || lpad(CAST(abs(${seconds}) // 3600 AS VARCHAR), 2, '0') || ':' || lpad(CAST((abs(${seconds}) % 3600) // 60 AS VARCHAR), 2, '0'))`;

/**
 * An INTERVAL as an ISO-8601 duration (`PT2H`, `P1DT2H`, `P1Y2M`, `PT3.5S`), the form PostgreSQL
 * writes with IntervalStyle iso_8601, so both engines answer alike (SPEC §3.4).
 */
function isoDuration(x: string): string {
  const part = (p: string) => `datepart('${p}', ${x})`;
  const us = part('microseconds');
  const item = (v: string, unit: string) => `CASE WHEN ${v} <> 0 THEN CAST(${v} AS VARCHAR) || '${unit}' ELSE '' END`;
  const seconds = `CASE WHEN ${us} = 0 THEN '' WHEN ${us} % 1000000 = 0 THEN CAST(${us} // 1000000 AS VARCHAR) || 'S' ELSE rtrim(printf('%.6f', ${us} / 1000000.0), '0') || 'S' END`;
  const time = `${item(part('hour'), 'H')} || ${item(part('minute'), 'M')} || ${seconds}`;
  const date = `${item(part('year'), 'Y')} || ${item(part('month'), 'M')} || ${item(part('day'), 'D')}`;
  return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${x} = INTERVAL 0 SECOND THEN 'PT0S' ELSE 'P' || ${date} || CASE WHEN (${time}) <> '' THEN 'T' || ${time} ELSE '' END END`;
}

/** The in_group filters anywhere below an aggregation's outputs (client values are not walked). */
function* inGroups(node: unknown): Generator<InGroupNode> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) yield* inGroups(item);
    return;
  }
  const kind = (node as { kind?: unknown }).kind;
  if (kind === 'param') return;
  if (kind === 'in_group') yield node as InGroupNode;
  for (const value of Object.values(node)) yield* inGroups(value);
}

/** A to-one relation that can join its parent's row: one row at most, found by column equalities. */
function joinable(sel: SelectNode): boolean {
  return !!sel.unique && !sel.pre && !sel.joins?.length && !sel.distinctOn?.length && sel.limit === undefined && !sel.offset && !sel.from.keys
    && !(sel.where && hasSubquery(sel.where));
}

/**
 * A list read straight from its table or view: its own columns and constants only, filtered without
 * a subquery. Anything read through a join (relations, subqueries, computed SQL) could come in another
 * order than the scan's once the LIMIT is no longer below it.
 */
function scannedInOrder(sel: SelectNode): boolean {
  return sel.fields.every((f) => f.kind === 'const' || (f.kind === 'scalar' && f.expr.kind === 'column')) && !(sel.where && hasSubquery(sel.where))
    && !sel.correlate && !sel.from.group && !sel.from.keys;
}

/** The related row's column of a correlation made of column equalities only, else undefined. */
function presence(f: FilterNode | undefined, alias: string): { table: string; column: string } | undefined {
  const items = f?.kind === 'and' ? f.items : f ? [f] : [];
  if (!items.length || !items.every((i) => i.kind === 'columns_equal')) return undefined;
  for (const i of items) {
    if (i.kind !== 'columns_equal') continue;
    if (i.left.table === alias) return i.left;
    if (i.right.table === alias) return i.right;
  }
  return undefined;
}

export class DuckDbCompiler extends SqlCompiler {
  constructor(
    /** DUCKDB_WINDOW_ROWS: an ordered row list longer than this is read in key windows of this many rows (0: one sort). */
    private readonly windowRows = 0,
  ) {
    super();
  }

  /** DuckDB does not read ISO-8601 durations: they are bound as interval text. */
  protected override bindValue(value: unknown, scalar: ScalarName): unknown {
    if (scalar === 'Interval' && typeof value === 'string') return intervalText(value);
    if (scalar === 'Geometry' && value !== null && value !== undefined) return geometryText(value);
    // The driver binds a whole number as BIGINT: a Float such as 1e23 would overflow it; as text,
    // DuckDB casts it to the column's DOUBLE.
    if (scalar === 'Float' && typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) return String(value);
    return super.bindValue(value, scalar);
  }

  /**
   * A value stored into a column goes as the column converts it, not through the scalar's own type:
   * a BigInt through HUGEINT (a DECIMAL(20, 0) takes 99999999999999999999, which BIGINT refused; a
   * BIGINT refuses 2^63 as out of range), a Float written in plain decimals as that text (a DECIMAL
   * rounds the decimal the client wrote: 1.005 into DECIMAL(12, 2) is 1.01 as on PostgreSQL and
   * MariaDB, where the double 1.00499999999999989... gave 1.00). -0 and exponents stay doubles: the
   * text `1e+39` would become a FLOAT's infinity where the double is refused as out of range.
   */
  protected override assigned(e: Expr, ctx: SqlContext): string {
    if (e.kind !== 'param' || e.list || e.value === null || e.value === undefined) return super.assigned(e, ctx);
    if (e.scalar === 'BigInt') return `CAST($${ctx.add(this.bindValue(e.value, e.scalar))} AS HUGEINT)`;
    const plain = typeof e.value === 'number' && !Object.is(e.value, -0) && /^-?\d+(\.\d+)?$/.test(String(e.value));
    if (e.scalar === 'Float' && plain) return `CAST($${ctx.add(String(e.value))} AS VARCHAR)`;
    return super.assigned(e, ctx);
  }

  readonly dialect = 'duckdb';
  override readonly h3Cells = 'sql';

  /**
   * `left IN (values)` as one parameter, as PostgreSQL's `= ANY($1)`: the statement text, its plan
   * and the prepared-statement cache stay the same size however long the list (issue 15). The list
   * travels as a JSON array of the values as text, cast to a typed list by DuckDB; each element is
   * cast from text as the one-parameter-per-value form did. Binding a DuckDB LIST value
   * (`listValue`) works as well, but the driver creates one native value per element: 100,000
   * values took 5 to 10 times longer to bind than this one string (measured while writing this).
   */
  protected override inList(left: string, list: ParamExpr & { value: readonly unknown[] }, ctx: SqlContext): string {
    if (list.scalar === 'Geometry') return super.inList(left, list, ctx);
    const texts = list.value.map((v) => {
      const bound = this.bindValue(v, list.scalar);
      return bound === null || bound === undefined ? null : String(bound);
    });
    return `${left} = ANY(CAST(CAST($${ctx.add(JSON.stringify(texts))} AS JSON) AS ${this.sqlType(list.scalar)}[]))`;
  }

  /** DuckDB's default_null_order is nulls_last in both directions (svc never changes it). */
  protected override nullsFirstByDefault(_desc: boolean): boolean {
    return false;
  }

  protected override sqlType(scalar: ScalarName): string {
    return TYPES[scalar];
  }

  /** The JavaScript geometry functions; the parent's geometry is the second operand (one per parent). */
  protected override spatial(f: SpatialNode, ctx: SqlContext): string {
    const other = this.expr(f.other, ctx);
    const ref = this.expr(f.reference, ctx);
    const metres = (n: number) => `CAST(${this.param({ kind: 'param', value: n, scalar: 'Float' }, ctx)} AS DOUBLE)`;
    if (f.type === 'DWITHIN' || (f.type === 'INTERSECTS' && f.buffer)) return `svc_geo_dwithin(${other}, ${ref}, ${metres(f.buffer ?? 0)})`;
    if (f.buffer) throw new PublicError(ErrorCode.BadUserInput, `_spatial(type: ${f.type}) with a buffer is not supported on duckdb sources (INTERSECTS and DWITHIN take one)`);
    switch (f.type) {
      case 'INTERSECTS': return `svc_geo_intersects(${other}, ${ref})`;
      case 'DISJOIN': return `(NOT svc_geo_intersects(${other}, ${ref}))`;
      case 'WITHIN': return `svc_geo_within(${other}, ${ref})`;
      case 'CONTAINS': return `svc_geo_contains(${other}, ${ref})`;
    }
  }

  /**
   * A to-one relation found by its key (at most one row) is a LEFT JOIN of the level, its
   * correlation and filters the join condition: DuckDB plans the correlated subquery as a delim
   * join per relation, which costs more (issue 30). The related object is null when no row joined:
   * the correlation's column is never null in a joined row (`=` matches no null).
   */
  protected override toOne(sel: SelectNode, ctx: SqlContext): string {
    const present = ctx.joins && joinable(sel) ? presence(sel.correlate, sel.from.alias) : undefined;
    if (!present) return super.toOne(sel, ctx);
    const on = [sel.correlate!, ...(sel.where ? [sel.where] : [])].map((f) => this.filter(f, ctx)).join(' AND ');
    ctx.joins!.push(` LEFT JOIN ${this.fromNode(sel.from, ctx)} ON ${on}`);
    return `CASE WHEN ${this.quoteIdentifier(present.table)}.${this.quoteIdentifier(present.column)} IS NULL THEN NULL ELSE ${this.objectOf(sel, ctx)} END`;
  }

  /**
   * A limited, ordered root list read row by row (a streamed /query list, /ipc) is sorted once: its
   * ORDER BY and LIMIT on the statement itself. The shape the other dialects write, a limited
   * derived table ordered again outside, is two sorts in DuckDB, each holding every row: the
   * 1,000,000-row bench list held 290 MB in DuckDB against 163 MB sorted once (issue 30). DuckDB
   * builds each row's JSON after the sort, so the sort holds the columns, not the JSON. Orders by
   * other values than the list's own columns (relations, computed fields), `distinct_on` and
   * `@unnest` joins keep the derived table, and so does an unordered list with relations (its first
   * rows are the ones read first, which a join of its relations before the LIMIT could change).
   */
  override compileRows(sel: SelectNode, timezone = 'UTC'): CompiledSql {
    const limited = sel.limit !== undefined || !!sel.offset;
    if (sel.distinctOn?.length || sel.joins?.length || sel.pre) return super.compileRows(sel, timezone);
    const whole = { ...sel, limit: undefined, offset: undefined };
    if (!sel.orderBy.length && limited && scannedInOrder(sel)) {
      // Unordered: the LIMIT of a large read makes DuckDB gather every row it keeps before the first
      // is returned, to keep them in the order they were read (139 MB for the bench list); read as
      // it is scanned, the rows stream, and the reader cuts them (DuckDbSource.streamRows).
      return { ...super.compileRows(whole, timezone), window: { offset: sel.offset ?? 0, ...(sel.limit !== undefined ? { limit: sel.limit } : {}) } };
    }
    if (!sel.orderBy.length || !sel.orderBy.every((o) => o.expr.kind === 'column' && o.expr.table === sel.from.alias)) return super.compileRows(sel, timezone);
    const rows = super.compileRows(whole, timezone);
    // Checked as the LIMIT and OFFSET written into a statement are (non-negative integers).
    const cut = this.limitOffset(sel.limit, sel.offset, new SqlContext(timezone));
    const total = sel.limit === undefined ? undefined : (sel.offset ?? 0) + sel.limit;
    if (this.windowRows > 0 && (total === undefined || total > this.windowRows)) {
      // Read in windows of its order keys (src/sql/dialects/duckdb-windows.ts); the reader cuts.
      return { ...rows, window: { offset: sel.offset ?? 0, ...(sel.limit !== undefined ? { limit: sel.limit } : {}), keys: this.keyWindows(whole, timezone, total) } };
    }
    return limited ? { ...rows, sql: `${rows.sql}${cut}` } : rows;
  }

  /**
   * The statements of an ordered list read in key windows: the keys of every windowRows-th row up to
   * `total` (and of row `total` itself, so the last window is bounded too), and the list's rows
   * statement with a key range added to its WHERE, for the first, middle and last windows.
   */
  private keyWindows(sel: SelectNode, timezone: string, total: number | undefined): KeyWindows {
    const key: Key = sel.orderBy.map((o) => ({ expr: o.expr as ColumnExpr, desc: o.desc, notNull: !!o.notNull, nullsFirst: o.notNull ? this.nullsFirstByDefault(o.desc) : !o.desc }));
    const ctx = new SqlContext(timezone);
    const order = this.orderList(sel.orderBy, ctx);
    const keys = key.map((k, i) => `${this.expr(k.expr, ctx)} AS _k${i}`);
    const nulls = nullKeys(key, (e) => this.expr(e, ctx));
    const n = this.windowRows;
    const at = total === undefined ? `_n % ${n} = 0` : `(_n % ${n} = 0 AND _n < ${total}) OR _n = ${total}`;
    const bounds = `SELECT * FROM (SELECT ${keys.join(', ')}, row_number() OVER (ORDER BY ${order}) AS _n${nulls ? `, ${nulls} AS _nulls` : ''} FROM ${this.from(sel, ctx)}${this.whereClause(sel, ctx)}) AS _w WHERE ${at} ORDER BY _n`;
    const window = (lo: boolean, hi: boolean): KeyWindow => {
      if (!lo && !hi) {
        const all = super.compileRows(sel, timezone);
        return { sql: all.sql, params: all.params, lo: [], hi: [] };
      }
      const [los, his] = [slots(key), slots(key)];
      const range = windowRange(key, lo ? los : undefined, hi ? his : undefined);
      const stmt = super.compileRows({ ...sel, where: sel.where ? { kind: 'and', items: [sel.where, range] } : range }, timezone);
      const index = (s: readonly ParamExpr[]) => s.map((p) => stmt.params.indexOf(p.value));
      return { sql: stmt.sql, params: stmt.params.map((p) => (p instanceof KeySlot ? null : p)), lo: lo ? index(los) : [], hi: hi ? index(his) : [] };
    };
    return { size: n, bounds: { sql: bounds, params: ctx.params }, all: window(false, false), first: window(false, true), between: window(true, true), last: window(true, false) };
  }

  /** A window key (duckdb-windows.ts) is bound as DuckDB returned it, with its own type: no cast. */
  protected override placeholder(p: ParamExpr, ctx: SqlContext): string {
    return p.value instanceof KeySlot ? `$${ctx.add(p.value)}` : super.placeholder(p, ctx);
  }

  /** Unnested side by side, the lists give one row per key (they have the same length). */
  protected override keysTable(keys: KeysTable, ctx: SqlContext): string {
    const lists = this.keyColumnLists(keys, ctx);
    return `(SELECT ${keys.columns.map((c, i) => `unnest(CAST(CAST(${lists[i]} AS JSON) AS ${this.sqlType(c.scalar)}[])) AS ${this.quoteIdentifier(c.name)}`).join(', ')})`;
  }

  // The result is built from DuckDB structs and lists, and turned into JSON once at the root:
  // struct building is much cheaper than json_object per row and level (measured on the bench's Q1).
  protected override jsonObject(pairs: readonly [string, string][], _ctx: SqlContext): string {
    if (!pairs.length) return 'json_object()';
    return `{${pairs.map(([k, v]) => `${jsonKey(k)}: ${v}`).join(', ')}}`;
  }

  protected override jsonArrayAgg(value: string, orderBy: string, emptyAsNull: boolean): string {
    const agg = `list(${value}${orderBy ? ` ORDER BY ${orderBy}` : ''})`;
    return `CASE WHEN count(*) = 0 THEN ${emptyAsNull ? 'NULL' : '[]'} ELSE ${agg} END`;
  }

  protected override rootJson(expr: string): string {
    return `to_json(${expr})`;
  }

  protected override jsonPath(expr: string, path: readonly string[], as: 'json' | 'text' | 'number' | 'boolean', ctx: SqlContext): string {
    const p = `$${ctx.add(`$.${path.map((k) => JSON.stringify(k)).join('.')}`)}`;
    if (as === 'json') return `json_extract(${expr}, ${p})`;
    const text = `json_extract_string(${expr}, ${p})`;
    return as === 'number' ? `TRY_CAST(${text} AS DOUBLE)` : as === 'boolean' ? `TRY_CAST(${text} AS BOOLEAN)` : text;
  }

  protected override geoTransform(expr: string, e: GeoTransformExpr, ctx: SqlContext): string {
    return geometryTransforms(expr, e, (v) => `$${ctx.add(v)}`);
  }

  /** svc_h3_cell (src/sources/duckdb/geo/h3.ts); the resolution is a checked integer 0-15. */
  protected override h3Cell(expr: string, e: H3CellExpr): string {
    return `svc_h3_cell(${expr}, CAST(${h3Resolution(e.resolution)} AS INTEGER))`;
  }

  protected override geoMeasure(expr: string, e: GeoMeasureExpr, ctx: SqlContext): string {
    return geometryMeasurement(expr, e, (v) => `$${ctx.add(v)}`);
  }

  protected override vectorDistance(left: string, right: string, distance: 'L2' | 'Cosine' | 'Inner'): string {
    const fn = distance === 'L2' ? 'list_distance' : distance === 'Cosine' ? 'list_cosine_distance' : 'list_negative_inner_product';
    return `${fn}(CAST(${left} AS FLOAT[]), ${right})`;
  }

  /** Geometry operators (SPEC §4.1) through the svc_geo_* functions; the rest is the base compiler's. */
  protected override compare(f: CompareNode, ctx: SqlContext): string {
    if (!f.list && f.scalar === 'Geometry') {
      const sql = geometryFilter(f.op, this.expr(f.left, ctx), () => this.param(f.right, ctx));
      if (sql) return sql;
    }
    // A backslash escapes the next character of a pattern (`50\%`), as PostgreSQL and MariaDB read it:
    // DuckDB has no escape character unless told, so `a\b` matched itself here and `ab` there.
    if (!f.list && (f.op === 'like' || f.op === 'ilike')) return `${super.compare(f, ctx)} ESCAPE '\\'`;
    return super.compare(f, ctx);
  }

  protected override singletonList(object: string): string {
    return `[${object}]`;
  }

  protected override rowValue(alias: string): string {
    return alias;
  }

  protected override structMember(expr: string, key: string): string {
    return `struct_extract(${expr}, ${jsonKey(key)})`;
  }

  protected override valueJson(expr: string): string {
    return expr;
  }

  protected override castJson(expr: string): string {
    return `CAST(${expr} AS JSON)`;
  }

  protected override renderScalar(expr: string, scalar: ScalarName, list: boolean, ctx: SqlContext): string {
    if (list) return expr;
    switch (scalar) {
      case 'Geometry':
        return geoJsonOf(expr);
      case 'Timestamp': {
        // RFC 3339; fractional seconds only when present (SPEC §3.4); in the request's zone with
        // its offset at that instant (SPEC §10), `Z` for UTC.
        const utc = ctx.timezone === 'UTC';
        const zone = utc ? "'UTC'" : ctx.zone();
        const local = `timezone(${zone}, ${expr})`;
        const suffix = utc ? "'Z'" : offsetText(`CAST(epoch(${local}) - epoch(timezone('UTC', ${expr})) AS INTEGER)`);
        return `CASE WHEN ${expr} IS NULL THEN NULL WHEN microsecond(${expr}) % 1000000 = 0 THEN strftime(${local}, '%Y-%m-%dT%H:%M:%S') || ${suffix} ELSE strftime(${local}, '%Y-%m-%dT%H:%M:%S.%f') || ${suffix} END`;
      }
      case 'DateTime':
        return `CASE WHEN ${expr} IS NULL THEN NULL WHEN microsecond(${expr}) % 1000000 = 0 THEN strftime(${expr}, '%Y-%m-%dT%H:%M:%S') ELSE strftime(${expr}, '%Y-%m-%dT%H:%M:%S.%f') END`;
      case 'Date':
      case 'Time':
        return `CAST(${expr} AS VARCHAR)`;
      case 'Interval':
        return isoDuration(expr);
      case 'BigInt':
        // Exact beyond 2^53: DuckDB writes the digits; JSON.parse would round, so the executor
        // reads these documents with an exact-integer parser.
        return expr;
      default:
        return expr;
    }
  }

  /**
   * DuckDB cannot bind a correlated subquery inside an outer-level aggregate's FILTER, which is
   * what a list relation inside buckets filtered through a relation needs (`aggregations(filter:
   * {orders: ...}) { orders { ... } }`). Those filters are computed per row, as columns of a
   * derived table of the aggregated rows, and the aggregate filters on the column instead.
   */
  protected override aggSource(node: AggregateNode, ctx: SqlContext): string {
    const alias = node.rows.from.alias;
    const lift = [...inGroups(node.fields)].filter((g) => g.filter && hasSubquery(g.filter) && g.member.kind === 'column' && g.member.table === alias && !ctx.lifted.has(g));
    if (!lift.length) return super.aggSource(node, ctx);
    const columns = lift.map((g) => {
      const name = `__svc_f${ctx.lifted.size + 1}`;
      ctx.lifted.set(g, name);
      return `(${this.filter(g.filter!, ctx)}) AS ${this.quoteIdentifier(name)}`;
    });
    const derived = `SELECT ${this.quoteIdentifier(alias)}.*, ${columns.join(', ')} FROM ${this.fromNode(node.rows.from, ctx)}`;
    return super.aggSource({ ...node, rows: { ...node.rows, from: { kind: 'from', alias, name: [], sql: [derived] } } }, ctx);
  }

  protected override inGroup(f: InGroupNode, ctx: SqlContext): string {
    const lifted = ctx.lifted.get(f);
    const member = this.expr(f.member, ctx);
    const filter = lifted && f.member.kind === 'column' ? `${this.quoteIdentifier(f.member.table)}.${this.quoteIdentifier(lifted)}` : f.filter ? this.filter(f.filter, ctx) : undefined;
    return `list_contains(list(${member})${filterClause(filter)}, ${this.expr(f.value, ctx)})`;
  }

  protected override aggregateCall(fn: AggFn, arg: string | undefined, distinct: boolean, sep: string | undefined, filter: string | undefined, order?: string): string {
    const d = distinct ? 'DISTINCT ' : '';
    const f = (extra?: string) => filterClause(filter, extra);
    const geo = geometryAggregate(fn, arg, f);
    if (geo) return geo;
    // Distinct values come sorted, so the answer does not depend on scan order.
    const by = order ? ` ORDER BY ${order}` : distinct ? ` ORDER BY ${arg}` : '';
    switch (fn) {
      case 'count': return `count(${arg ? `${d}${arg}` : '*'})${f()}`;
      case 'list': return `list(${d}${arg}${by})${f(`${arg} IS NOT NULL`)}`;
      case 'any': return order ? `first(${arg}${by})${f(`${arg} IS NOT NULL`)}` : `any_value(${arg})${f()}`;
      case 'last': return `last(${arg}${order ? by : ''})${f(`${arg} IS NOT NULL`)}`;
      case 'string_agg': return `string_agg(${d}CAST(${arg} AS VARCHAR), ${sep ?? "','"}${order ? by : ''})${f()}`;
      default: return `${fn}(${d}${arg})${f()}`;
    }
  }

  protected override timeBin(interval: string, expr: string, withZone: boolean): string {
    return withZone
      ? `time_bucket(${interval}, ${expr}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`
      : `time_bucket(${interval}, CAST(${expr} AS TIMESTAMP), TIMESTAMP '2000-01-01 00:00:00')`;
  }

  protected override inZone(expr: string, zone: string): string {
    return `timezone(${zone}, ${expr})`;
  }

  protected override truncInZone(unit: string, expr: string, zone: string): string {
    return `timezone(${zone}, date_trunc('${unit}', timezone(${zone}, ${expr})))`;
  }

  protected override regexMatch(left: string, right: string): string {
    return `regexp_matches(${left}, ${right})`;
  }

  /**
   * The top-level keys, not a path: DuckDB refuses the path of the empty key (`$.""`, "JSON path
   * error"), so `{has: ""}` failed the query where PostgreSQL and MariaDB answer (cross-source fuzz).
   */
  protected override jsonHasKey(left: string, key: string): string {
    return `list_contains(json_keys(${left}), ${key})`;
  }

  protected override jsonContains(left: string, right: string): string {
    return `json_contains(${left}, ${right})`;
  }

  protected override listContainsAll(left: string, right: string): string {
    return `list_has_all(${left}, ${right})`;
  }

  protected override listIntersects(left: string, right: string): string {
    return `list_has_any(${left}, ${right})`;
  }
}
