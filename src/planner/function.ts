// Catalog functions (SPEC §4.4) -> one call statement. Arguments are parameters; `@arg_default`
// values are injected from the caller's identity and cannot come from the client.
import { type CatalogFunction, type DataObject, isScalar, type ScalarName } from '../catalog/model.js';
import { substitute } from '../permissions/placeholders.js';
import type { PlanContext } from './context.js';
import { fieldExpr } from './fields.js';
import type { Expr, FunctionExpr, ParamExpr } from './ir/expr.js';
import type { FunctionCallNode } from './ir/select.js';

type Part = NonNullable<FunctionCallNode['sql']>[number];

export function planCall(ctx: PlanContext, fn: CatalogFunction, args: Record<string, unknown>): FunctionCallNode {
  const value = (name: string): unknown => {
    const a = fn.args.find((x) => x.name === name);
    if (a?.injected !== undefined) return substitute(a.injected.replaceAll('[$catalog]', fn.source), ctx.authVars);
    return args[name] ?? null;
  };
  const param = (name: string): ParamExpr => {
    const a = fn.args.find((x) => x.name === name);
    const scalar = (a && isScalar(a.type) ? a.type : 'String') as ScalarName;
    return { kind: 'param', value: value(name), scalar, ...(a?.list ? { list: true } : {}) };
  };
  const namespace = ctx.tableName({ source: fn.source, table: '_' } as never).slice(0, -1);
  const result: FunctionCallNode['result'] = fn.isTable ? 'table' : isScalar(fn.returns.type) ? 'scalar' : 'object';
  const base = {
    kind: 'call' as const,
    result,
    list: fn.returns.list,
    jsonCast: fn.jsonCast,
    ...(isScalar(fn.returns.type) ? { scalar: fn.returns.type } : {}),
  };
  if (fn.sql === undefined) {
    const used = fn.args.filter((a) => !(fn.skipNullArg && value(a.name) === null));
    const qualified = fn.dbName.includes('.') ? fn.dbName.split('.') : [...namespace, fn.dbName];
    return { ...base, name: qualified, args: used.map((a) => param(a.name)) };
  }
  // `[arg]` names an argument, `[$auth.x]` a caller value, `[$catalog]` the source's namespace.
  const parts: Part[] = [];
  let last = 0;
  for (const m of fn.sql.matchAll(/\[(\$?)([A-Za-z_][A-Za-z0-9_.]*)\]/g)) {
    const [whole, dollar, name] = m as unknown as [string, string, string];
    const known = dollar ? name === 'catalog' || name.startsWith('auth.') : fn.args.some((a) => a.name === name);
    if (!known) continue;
    parts.push(fn.sql.slice(last, m.index));
    if (dollar && name === 'catalog') parts.push({ kind: 'ident', parts: namespace });
    else if (dollar) parts.push({ kind: 'param', value: ctx.authVars[name.slice(5)] ?? null, scalar: 'String' });
    else parts.push(param(name));
    last = m.index + whole.length;
  }
  parts.push(fn.sql.slice(last));
  return { ...base, sql: parts, args: [] };
}

/**
 * A function called with values of the current row (`@function_call`, SPEC §3.3): mapped arguments
 * are columns of `alias`, the others come from the field's own arguments or are injected.
 */
export function planRowCall(
  ctx: PlanContext, fn: CatalogFunction, obj: DataObject, alias: string, mapping: Readonly<Record<string, string>>, fieldArgs: Record<string, unknown>,
): FunctionExpr {
  const argExpr = (name: string): Expr => {
    const field = mapping[name];
    const column = field ? obj.fields.find((f) => f.name === field) : undefined;
    if (column) return fieldExpr(obj, alias, column);
    const a = fn.args.find((x) => x.name === name);
    const value = a?.injected !== undefined ? substitute(a.injected.replaceAll('[$catalog]', fn.source), ctx.authVars) : (fieldArgs[name] ?? null);
    return { kind: 'param', value, scalar: (a && isScalar(a.type) ? a.type : 'String') as ScalarName, ...(a?.list ? { list: true } : {}) };
  };
  const namespace = ctx.tableName({ source: fn.source, table: '_' } as never).slice(0, -1);
  if (fn.sql === undefined) {
    const qualified = fn.dbName.includes('.') ? fn.dbName.split('.') : [...namespace, fn.dbName];
    return { kind: 'fn', name: qualified, args: fn.args.map((a) => argExpr(a.name)) };
  }
  const parts: NonNullable<FunctionExpr['sql']>[number][] = [];
  let last = 0;
  for (const m of fn.sql.matchAll(/\[(\$?)([A-Za-z_][A-Za-z0-9_.]*)\]/g)) {
    const [whole, dollar, name] = m as unknown as [string, string, string];
    const known = dollar ? name === 'catalog' || name.startsWith('auth.') : fn.args.some((a) => a.name === name);
    if (!known) continue;
    parts.push(fn.sql.slice(last, m.index));
    if (dollar && name === 'catalog') parts.push({ kind: 'ident', parts: namespace });
    else if (dollar) parts.push({ kind: 'param', value: ctx.authVars[name.slice(5)] ?? null, scalar: 'String' });
    else parts.push(argExpr(name));
    last = m.index + whole.length;
  }
  parts.push(fn.sql.slice(last));
  return { kind: 'fn', args: [], sql: parts };
}
