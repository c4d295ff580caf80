import type { ColumnField, DataObject } from '../catalog/model.js';
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
