// Rows, not documents (issue 30, DESIGN.md §4): a read root field compiled to a statement that
// returns typed rows, assembled into the answer in Node by code generated once per shape
// (assemble.ts). Still one statement per root field: a to-one relation is a LEFT JOIN LATERAL whose
// columns join the row (the database flattens it into a plain join), a 1:N relation one value per
// parent row holding its rows as JSON arrays of values in field order (no keys), written by the
// same code as the JSON path, so every value prints as it does there. What the layout cannot
// express (aggregations, buckets, function calls, `@unnest` joins, DISTINCT ON at the root, levels
// of another source, more than 1600 columns) is compiled as one JSON document, as before
// (docs/sql.md "Rows").
import type { ScalarName } from '../../catalog/model.js';
import type { OutField, RootQuery, SelectNode } from '../../planner/ir/select.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { type CompiledSql, SqlCompiler, SqlContext } from '../compiler.js';
import { assembler } from './assemble.js';
import type { ArrayField, PositionalObject, RowField } from './layout.js';

/** json_build_array takes at most 100 arguments. */
const MAX_POSITIONAL = 100;
/** PostgreSQL's select list holds at most 1664 entries; a wider selection stays one JSON document. */
const MAX_COLUMNS = 1600;
/**
 * To-one relations whose presence one int column holds, one bit each (a sum of distinct powers of
 * two below 2^30 fits an int4). One column per relation cost pg a field to read per row (issue 30:
 * Q1's three levels, 3 of its 15 columns).
 */
const PRESENCE_BITS = 30;

/** Whether a level whose values become columns (the root, a to-one relation of it) fits the layout. */
function columnsLevel(sel: SelectNode): boolean {
  if (sel.joins?.length || sel.distinctOn?.length || sel.from.keys) return false;
  return sel.fields.every((f) => f.kind === 'scalar' || f.kind === 'const'
    || (f.kind === 'object' && columnsLevel(f.select)) || (f.kind === 'array' && positionalLevel(f.select)));
}

/** Whether a level written as positional JSON arrays (a 1:N relation and all below it) fits. */
export function positionalLevel(sel: SelectNode): boolean {
  if (sel.joins?.length || sel.from.keys || sel.fields.length > MAX_POSITIONAL) return false;
  return sel.fields.every((f) => f.kind === 'scalar' || f.kind === 'const' || ((f.kind === 'object' || f.kind === 'array') && positionalLevel(f.select)));
}

export function positionalShape(sel: SelectNode): PositionalObject {
  return {
    fields: sel.fields.map((f: OutField) =>
      f.kind === 'object' ? { kind: 'object', key: f.key, of: positionalShape(f.select) }
      : f.kind === 'array' ? { kind: 'list', key: f.key, of: positionalShape(f.select) }
      : { kind: 'value', key: f.key }),
  };
}

/** Parameters as bound: values and lists of them (src/sql/compiler.ts bindValue). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
}

/** Whether a 1:N level is values only (at least one read from a column): written as typed arrays. */
function valuesLevel(sel: SelectNode): boolean {
  return !sel.joins?.length && !sel.from.keys && sel.fields.some((f) => f.kind === 'scalar') && sel.fields.every((f) => f.kind === 'scalar' || f.kind === 'const');
}

/** Whether a root field is compiled to rows by a compiler that can (a test of the coverage). */
export function rowsCover(q: RootQuery): boolean {
  return (q.kind === 'list' || q.kind === 'one') && columnsLevel(q.select);
}

/** Column `n` of a rows statement is named `c<n>` and is at position n of every row. */
interface Column {
  readonly n: number;
  readonly sql: string;
}

/** A to-one relation's presence marker (`<bit> AS m<k>` in its lateral), as the level sees it. */
interface Marker {
  readonly k: number;
  readonly sql: string;
}

interface Level {
  readonly columns: Column[];
  /** The markers of the level's to-one relations and all below them: summed into presence columns at the root. */
  readonly markers: Marker[];
  /** The LEFT JOIN LATERAL of each to-one relation, after the level's FROM. */
  readonly joins: string[];
  readonly fields: RowField[];
}

/** Counters of one statement: columns (their position in the row) and lateral aliases. */
interface Numbering {
  column: number;
  lateral: number;
  /** To-one relations so far, and the presence column of each run of PRESENCE_BITS of them. */
  marker: number;
  readonly presence: number[];
  /** Columns of 1:N levels written as typed arrays; undefined: every 1:N level is JSON text. */
  readonly arrays: number[] | undefined;
}

export abstract class RowsCompiler extends SqlCompiler {
  /** False: every read is one JSON document (SQL_ROWS=false). */
  protected abstract readonly rowsOn: boolean;

  /** A column value as the row returns it; the dialect makes the driver read it as the JSON path would print it. */
  protected abstract columnValue(rendered: string, scalar: ScalarName, list: boolean): string;

  override compileQuery(q: RootQuery, timezone = 'UTC'): CompiledSql {
    if (!this.rowsOn || (q.kind !== 'list' && q.kind !== 'one') || !columnsLevel(q.select)) return super.compileQuery(q, timezone);
    const typed = this.rowsStatement(q, timezone, true);
    if (!typed?.arrays) return typed ?? super.compileQuery(q, timezone);
    // Its 1:N levels as JSON text, for a source that meets an element type it does not read (an
    // enum, a domain, an extension's type). Both take the same parameters, in the same order.
    const json = this.rowsStatement(q, timezone, false);
    if (!json || !sameValue(json.params, typed.params)) return json ?? super.compileQuery(q, timezone);
    return { ...typed, json: { sql: json.sql, rows: json.rows! } };
  }

  /** The rows statement of a list or one object; `arrays`: 1:N levels of values as typed arrays. */
  private rowsStatement(q: RootQuery, timezone: string, arrays: boolean): CompiledSql | undefined {
    const ctx = new SqlContext(timezone);
    if (q.kind !== 'list' && q.kind !== 'one') return undefined;
    const sel = q.select;
    const count: Numbering = { column: 0, lateral: 0, marker: 0, presence: [], arrays: arrays ? [] : undefined };
    let level: Level | undefined;
    let sql: string;
    if (q.kind === 'list') {
      // An unordered list keeps the order of its rows as the JSON path aggregated them (the scan's):
      // `OFFSET 0` keeps each to-one join a nested loop over the list's rows, where a flattened
      // join could be hashed the other way round. An ordered list is sorted last anyway.
      const fence = !sel.orderBy.length;
      const parts = this.listRows(sel, ctx, () => {
        level = this.columns(sel, ctx, count, fence);
        return '';
      });
      sql = `SELECT ${this.selectList(level!, count)} FROM ${parts.from}${level!.joins.join('')}${parts.where}${parts.order ? ` ORDER BY ${parts.order}` : ''}`;
    } else {
      level = this.columns(sel, ctx, count);
      sql = `SELECT ${this.selectList(level, count)} FROM ${this.from(sel, ctx)}${level.joins.join('')}${this.whereClause(sel, ctx)}${sel.unique ? '' : ' LIMIT 1'}`;
    }
    const rows = count.column + count.marker <= MAX_COLUMNS ? assembler({ many: q.kind === 'list', fields: level!.fields }) : undefined;
    if (!rows) return undefined;
    return { sql, params: ctx.params, lineage: ctx.lineage(), rows, ...(count.arrays?.length ? { arrays: count.arrays } : {}) };
  }

  /**
   * The root's select list in column order (position n holds `c<n>`), the markers summed into their
   * presence columns: a marker is its bit or null (no related row, or none above it), so one
   * column alone is its own sum.
   */
  private selectList(level: Level, count: Numbering): string {
    const presence = count.presence.map((n, i) => {
      const markers = level.markers.filter((m) => Math.floor(m.k / PRESENCE_BITS) === i);
      return { n, sql: markers.length === 1 ? markers[0]!.sql : markers.map((m) => `COALESCE(${m.sql}, 0)`).join(' + ') };
    });
    const columns = [...level.columns, ...presence];
    // A select list cannot be empty everywhere; a level of denied fields still returns its rows.
    if (!columns.length) return 'NULL AS c';
    return columns.sort((a, b) => a.n - b.n).map((c) => `${c.sql} AS c${c.n}`).join(', ');
  }

  /** The columns, lateral joins and answer fields of one level; to-one relations join in, recursively. */
  private columns(sel: SelectNode, ctx: SqlContext, count: Numbering, fence = false): Level {
    const level: Level = { columns: [], markers: [], joins: [], fields: [] };
    for (const f of sel.fields) {
      switch (f.kind) {
        case 'scalar': {
          const n = count.column++;
          level.columns.push({ n, sql: this.columnValue(this.renderScalar(this.expr(f.expr, ctx), f.scalar, f.list, ctx), f.scalar, f.list) });
          level.fields.push({ key: f.key, value: { kind: 'column', index: n } });
          break;
        }
        case 'const':
          level.fields.push({ key: f.key, value: { kind: 'const', value: f.value } });
          break;
        case 'object': {
          // The marker is null when no related row matched: the relation's value is null.
          const k = count.marker++;
          if (k % PRESENCE_BITS === 0) count.presence.push(count.column++);
          const present = count.presence[Math.floor(k / PRESENCE_BITS)]!;
          const bit = 2 ** (k % PRESENCE_BITS);
          const inner = this.columns(f.select, ctx, count);
          const alias = `_r${count.lateral++}`;
          const markers = [{ k, sql: String(bit) }, ...inner.markers];
          const select = [...markers.map((m) => `${m.sql} AS m${m.k}`), ...inner.columns.map((c) => `${c.sql} AS c${c.n}`)].join(', ');
          level.joins.push(
            ` LEFT JOIN LATERAL (SELECT ${select} FROM ${this.from(f.select, ctx)}${inner.joins.join('')}${this.whereClause(f.select, ctx)}${f.select.unique ? '' : ' LIMIT 1'}${fence ? ' OFFSET 0' : ''}) AS ${alias} ON TRUE`,
          );
          for (const m of markers) level.markers.push({ k: m.k, sql: `${alias}.m${m.k}` });
          for (const c of inner.columns) level.columns.push({ n: c.n, sql: `${alias}.c${c.n}` });
          level.fields.push({ key: f.key, value: { kind: 'object', present, bit, fields: inner.fields } });
          break;
        }
        case 'array': {
          if (count.arrays && valuesLevel(f.select)) {
            this.arrayColumns(f.key, f.select, ctx, count, level);
            break;
          }
          const n = count.column++;
          // As text: the fast path parses it without scanning for big integers where the level's
          // column types allow (src/pipeline/fast-path/write.ts), the objects path with the scan.
          level.columns.push({ n, sql: `CAST((${this.positional(ctx, () => this.arrayOf(f.select, ctx, f.select.emptyAsNull ?? true))}) AS text)` });
          level.fields.push({ key: f.key, value: { kind: 'children', index: n, rows: positionalShape(f.select) } });
          break;
        }
        default:
          throw new PublicError(ErrorCode.Internal, `a rows statement cannot hold a ${f.kind} field`); // columnsLevel admits none
      }
    }
    return level;
  }

  /**
   * A 1:N level of values as one LEFT JOIN LATERAL returning one array per field (`array_agg` over
   * its rows, read in their order: the inner ORDER BY; the aggregate keeps the order it reads).
   * PostgreSQL prints a value in an array as text, where json_build_array and json_agg build JSON
   * text per row and json_agg sorts its own input: measured on Q1's 200 line items, 10-15% less
   * database CPU for the whole statement (docs/sql.md "Rows"). The values are the columns' own
   * (columnValue), so the source reads each element as it reads a column of that type.
   */
  private arrayColumns(key: string, sel: SelectNode, ctx: SqlContext, count: Numbering, level: Level): void {
    const inner: Column[] = [];
    const fields: ArrayField[] = [];
    const parts = this.listRows(sel, ctx, () => {
      const list = sel.fields.map((f) => {
        if (f.kind === 'scalar') {
          const n = count.column++;
          inner.push({ n, sql: this.columnValue(this.renderScalar(this.expr(f.expr, ctx), f.scalar, f.list, ctx), f.scalar, f.list) });
          fields.push({ key: f.key, value: { kind: 'column', index: n } });
          return `${inner.at(-1)!.sql} AS c${n}`;
        }
        if (f.kind !== 'const') throw new PublicError(ErrorCode.Internal, `a level of values cannot hold a ${f.kind} field`); // valuesLevel admits none
        fields.push({ key: f.key, value: { kind: 'const', value: f.value } });
        // Written as the JSON statement writes it, so both statements number their parameters alike.
        return `${this.constValue(f.value, ctx)} AS k${fields.length - 1}`;
      });
      return list.join(', ');
    });
    const alias = `_a${count.lateral++}`;
    const aggregates = inner.map((c) => `array_agg(_s.c${c.n}) AS c${c.n}`).join(', ');
    level.joins.push(
      ` LEFT JOIN LATERAL (SELECT ${aggregates} FROM (SELECT ${parts.body} FROM ${parts.from}${parts.where}${parts.order ? ` ORDER BY ${parts.order}` : ''}) AS _s) AS ${alias} ON TRUE`,
    );
    for (const c of inner) {
      level.columns.push({ n: c.n, sql: `${alias}.c${c.n}` });
      count.arrays!.push(c.n);
    }
    level.fields.push({ key, value: { kind: 'arrays', fields, emptyAsNull: sel.emptyAsNull ?? true } });
  }

  /** SQL written with objects as positional arrays. */
  private positional(ctx: SqlContext, write: () => string): string {
    const was = ctx.positional;
    ctx.positional = true;
    try {
      return write();
    } finally {
      ctx.positional = was;
    }
  }
}
