import type { ColumnField, DataObject } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { Expr, RawSqlExpr } from './ir/expr.js';

/** The expression of a column field: the physical column, or its `@sql` expression. */
export function fieldExpr(obj: DataObject, alias: string, f: ColumnField): Expr {
  if (f.sql === undefined) return { kind: 'column', table: alias, column: f.column };
  return sqlTemplate(obj, alias, f.sql);
}

/** `[field]` in catalog SQL names a column of the same row (SPEC §3.3 @sql). */
export function sqlTemplate(obj: DataObject, alias: string, template: string): RawSqlExpr {
  const parts: RawSqlExpr['parts'][number][] = [];
  let last = 0;
  for (const m of template.matchAll(/\[([A-Za-z_][A-Za-z0-9_]*)\]/g)) {
    const f = obj.fields.find((x) => x.name === m[1]);
    parts.push(template.slice(last, m.index));
    parts.push(f ? { kind: 'column', table: alias, column: f.column } : m[0]);
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  return { kind: 'raw', parts };
}

/**
 * Catalog SQL that names columns bare (`deleted_at IS NULL`, as soft_delete_cond is usually
 * written) or as `[field]`: both become columns of `alias`. Quoted text is left alone.
 */
export function columnSql(obj: DataObject, alias: string, template: string): RawSqlExpr {
  const parts: RawSqlExpr['parts'][number][] = [];
  const byName = new Map<string, string>();
  for (const f of obj.fields) if (f.sql === undefined) byName.set(f.name, f.column).set(f.column, f.column);
  const token = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\[([A-Za-z_][A-Za-z0-9_]*)\]|\b([A-Za-z_][A-Za-z0-9_]*)\b/g;
  let last = 0;
  for (const m of template.matchAll(token)) {
    const name = m[1] ?? m[2];
    const column = name ? byName.get(name) : undefined;
    if (!column) continue;
    parts.push(template.slice(last, m.index), { kind: 'column', table: alias, column });
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  return { kind: 'raw', parts };
}

const TIME_TYPES = ['Timestamp', 'DateTime', 'Date'];

/** A time field's `bucket:` truncation or `bucket_interval:` bin (SPEC §4), or the value itself. */
export function timeBucket(obj: DataObject, f: ColumnField, expr: Expr, args: Record<string, unknown>): Expr {
  const unit = args.bucket as string | null | undefined;
  const interval = args.bucket_interval as string | null | undefined;
  if (!unit && !interval) return expr;
  if (!TIME_TYPES.includes(f.type)) throw new PublicError(ErrorCode.BadUserInput, `"bucket" applies to time fields, not "${obj.name}.${f.name}"`);
  if (interval) return { kind: 'time_bin', interval: { kind: 'param', value: interval, scalar: 'Interval' }, expr, scalar: f.type };
  return { kind: 'trunc', unit: String(unit), expr, scalar: f.type };
}
