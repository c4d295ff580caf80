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
  // shown, truncated or taken apart in the request's zone; filters compare it as it is. So is a
  // 4-byte float: shown (and aggregated) as its shortest decimal, compared as stored.
  const single = f.single && (use === 'read' || use === 'aggregate') ? { single: f.list ? 'list' as const : 'value' as const } : {};
  const exact = f.exact && use === 'aggregate' ? { exact: true } : {};
  if (f.sql === undefined) return { kind: 'column', table: alias, column: f.column, ...(f.naive ? { instant: true } : {}), ...(f.read ? { read: f.read } : {}), ...single, ...exact };
  return sqlTemplate(obj, alias, f.sql);
}

/**
 * A key column the planner uses only to tie rows together (counting related rows, bucket
 * membership); its value is never shown, filtered by the client or ordered on, so it is not asked.
 */
export function keyExpr(obj: DataObject, alias: string, f: ColumnField): Expr {
  return f.sql === undefined ? { kind: 'column', table: alias, column: f.column } : sqlTemplate(obj, alias, f.sql);
}

/**
 * `[field]` in catalog SQL names a column of the same row (SPEC §3.3 @sql); `objects.column` (hugr's
 * alias for the data object's own table) names a physical column directly, whatever field maps it.
 */
export function sqlTemplate(obj: DataObject, alias: string, template: string): RawSqlExpr {
  const parts: RawSqlExpr['parts'][number][] = [];
  let last = 0;
  for (const m of template.matchAll(/\[([A-Za-z_][A-Za-z0-9_]*)\]|\bobjects\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const f = m[1] ? obj.fields.find((x) => x.name === m[1]) : undefined;
    parts.push(template.slice(last, m.index));
    parts.push(m[2] ? { kind: 'column', table: alias, column: m[2] } : f ? { kind: 'column', table: alias, column: f.column } : m[0]);
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
 * size: {w: "float"}, tags: ["string"]}` builds an object of those keys read as numbers, text,
 * booleans, or JSON ("json", a list, or any other type name); nested objects extract nested paths.
 */
export function jsonStruct(expr: Expr, spec: unknown, path: readonly string[] = []): OutField[] {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new PublicError(ErrorCode.BadUserInput, '"struct" must be an object of field names to types');
  return Object.entries(spec as Record<string, unknown>).map(([key, type]): OutField => {
    if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(key)) throw new PublicError(ErrorCode.BadUserInput, `struct key "${key}" must be a GraphQL name`);
    const at = [...path, key];
    // `tags: ["string"]` (hugr's form for arrays): the array as it is stored.
    if (Array.isArray(type)) return { kind: 'scalar', key, expr: { kind: 'json_path', expr, path: at, as: 'json' }, scalar: 'JSON', list: false };
    if (type && typeof type === 'object') return { kind: 'json_object', key, fields: jsonStruct(expr, type, at) };
    const t = String(type).toLowerCase();
    const as = ['int', 'integer', 'bigint', 'float', 'double', 'number', 'numeric'].includes(t) ? 'number' : ['bool', 'boolean'].includes(t) ? 'boolean' : ['string', 'text', 'varchar'].includes(t) ? 'text' : 'json';
    const scalar = as === 'number' ? 'Float' : as === 'boolean' ? 'Boolean' : as === 'text' ? 'String' : 'JSON';
    return { kind: 'scalar', key, expr: { kind: 'json_path', expr, path: at, as }, scalar, list: false };
  });
}

/** `_<f>_part(extract:)` of a time field or `_<f>_measurement(type:)` of a geometry field: a number per row (read or aggregated). */
export function generatedValue(ctx: PlanContext, obj: DataObject, alias: string, name: string, args: Readonly<Record<string, unknown>>, use: FieldUse): { expr: Expr; scalar: 'BigInt' | 'Float' } | undefined {
  const part = /^_(.+)_part$/.exec(name)?.[1];
  const time = part ? obj.fields.find((c) => c.name === part && ['Timestamp', 'DateTime', 'Date'].includes(c.type) && !c.list) : undefined;
  if (time) {
    const expr: Expr = { kind: 'extract', part: String(args.extract), expr: fieldExpr(ctx, obj, alias, time, use), scalar: time.type, ...(typeof args.extract_divide === 'number' ? { divide: args.extract_divide } : {}) };
    return { expr, scalar: 'BigInt' };
  }
  const measured = /^_(.+)_measurement$/.exec(name)?.[1];
  const shape = measured ? obj.fields.find((c) => c.name === measured && c.type === 'Geometry' && !c.list) : undefined;
  if (!shape) return undefined;
  const num = (v: unknown) => typeof v === 'number';
  const expr: Expr = {
    kind: 'geo_measure', expr: fieldExpr(ctx, obj, alias, shape, use), type: String(args.type), transform: args.transform === true,
    ...(num(args.from) ? { from: args.from as number } : {}), ...(num(args.to) ? { to: args.to as number } : {}),
  };
  return { expr, scalar: 'Float' };
}

/** A column's value as asked: a time `bucket`, geometry `transforms` (with from/to, buffer, simplify_factor). */
export function columnValue(ctx: PlanContext, obj: DataObject, alias: string, column: ColumnField, args: Readonly<Record<string, unknown>>, use: FieldUse): Expr {
  const expr = timeBucket(obj, column, fieldExpr(ctx, obj, alias, column, use), args as Record<string, unknown>);
  const transforms = args.transforms as string[] | null | undefined;
  if (column.type !== 'Geometry' || !(transforms?.length || args.buffer != null || args.simplify_factor != null)) return expr;
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const t = { from: num(args.from), to: num(args.to), buffer: num(args.buffer), simplifyFactor: num(args.simplify_factor) };
  return { kind: 'geo_transform', expr, transforms: transforms ?? [], ...Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined)) };
}
