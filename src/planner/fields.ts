import type { ColumnField, DataObject } from '../catalog/model.js';
import type { FieldUse } from '../permissions/access.js';
import type { PlanContext } from './context.js';
import type { OutField } from './ir/select.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { Expr, RawSqlExpr } from './ir/expr.js';

/**
 * The expression of a column field: the physical column, or its `@sql` expression. This is the one
 * way the planner reaches a column's value, so each use is asked of the access service here; an
 * `@sql` field asks for every column it is computed from as well.
 */
export function fieldExpr(ctx: PlanContext, obj: DataObject, alias: string, f: ColumnField, use: FieldUse): Expr {
  if (!ctx.inGuard) {
    ctx.access.useField(obj.name, f.name, use);
    if (f.sql !== undefined) for (const m of f.sql.matchAll(/\[([A-Za-z_][A-Za-z0-9_]*)\]/g)) if (m[1] !== f.name && obj.fields.some((x) => x.name === m[1])) ctx.access.useField(obj.name, m[1]!, use);
  }
  // A naive timestamp served as Timestamp is read as an instant (in UTC) wherever its value is
  // shown, truncated or taken apart in the request's zone; filters compare it as it is.
  if (f.sql === undefined) return { kind: 'column', table: alias, column: f.column, ...(f.naive ? { instant: true } : {}) };
  return sqlTemplate(obj, alias, f.sql);
}

/**
 * A key column the planner uses only to tie rows together (counting related rows, bucket
 * membership); its value is never shown, filtered by the client or ordered on, so it is not asked.
 */
export function keyExpr(obj: DataObject, alias: string, f: ColumnField): Expr {
  return f.sql === undefined ? { kind: 'column', table: alias, column: f.column } : sqlTemplate(obj, alias, f.sql);
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

/**
 * `struct:` on a JSON field (SPEC §4): typed extraction. `{pages: "int", cover: "string",
 * size: {w: "float"}}` builds an object of those keys read as numbers, text, booleans, or JSON
 * ("json" or any other type name); nested objects extract nested paths.
 */
export function jsonStruct(expr: Expr, spec: unknown, path: readonly string[] = []): OutField[] {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new PublicError(ErrorCode.BadUserInput, '"struct" must be an object of field names to types');
  return Object.entries(spec as Record<string, unknown>).map(([key, type]): OutField => {
    if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(key)) throw new PublicError(ErrorCode.BadUserInput, `struct key "${key}" must be a GraphQL name`);
    const at = [...path, key];
    if (type && typeof type === 'object') return { kind: 'json_object', key, fields: jsonStruct(expr, type, at) };
    const t = String(type).toLowerCase();
    const as = ['int', 'integer', 'bigint', 'float', 'double', 'number', 'numeric'].includes(t) ? 'number' : ['bool', 'boolean'].includes(t) ? 'boolean' : ['string', 'text', 'varchar'].includes(t) ? 'text' : 'json';
    const scalar = as === 'number' ? 'Float' : as === 'boolean' ? 'Boolean' : as === 'text' ? 'String' : 'JSON';
    return { kind: 'scalar', key, expr: { kind: 'json_path', expr, path: at, as }, scalar, list: false };
  });
}
