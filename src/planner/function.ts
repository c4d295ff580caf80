// Catalog functions (SPEC §4.4) -> one call statement, or a call inside a row's object
// (`@function_call`). Arguments are parameters or the row's columns; `@arg_default` values are
// injected from the caller's identity and cannot come from the client.
import { type CatalogFunction, type DataObject, functionKey, isScalar, type ScalarName } from '../catalog/model.js';
import { substitute } from '../permissions/placeholders.js';
import { authParam } from './auth-param.js';
import type { PlanContext } from './context.js';
import { fieldExpr } from './fields.js';
import type { Expr, FunctionExpr, ParamExpr } from './ir/expr.js';
import type { FunctionCallNode } from './ir/select.js';

type Part = NonNullable<FunctionExpr['sql']>[number];

/** The source's namespace (attached database and schema, or PostgreSQL schema). */
const namespaceOf = (ctx: PlanContext, fn: CatalogFunction): string[] => [...ctx.tableName({ source: fn.source, table: '_' } as never).slice(0, -1)];

/** An argument's value as a parameter: injected, or given by the client. */
export function argParam(ctx: PlanContext, fn: CatalogFunction, name: string, given: Record<string, unknown>): ParamExpr {
  const a = fn.args.find((x) => x.name === name);
  const value = a?.injected !== undefined ? substitute(a.injected.replaceAll('[$catalog]', fn.source), ctx.authVars) : (given[name] ?? null);
  return { kind: 'param', value, scalar: (a && isScalar(a.type) ? a.type : 'String') as ScalarName, ...(a?.list ? { list: true } : {}) };
}

/** The call itself: `ns.fn(args)` positionally, or the `sql` template's parts. */
function callOf(ctx: PlanContext, fn: CatalogFunction, arg: (name: string) => Expr, skip: (name: string) => boolean): FunctionExpr {
  const namespace = namespaceOf(ctx, fn);
  const body = fn.sql === undefined && !fn.dbName.includes('.') ? ctx.functionBody?.(fn.source, fn.dbName) : undefined;
  if (body !== undefined) {
    // A macro the source gave back with its tables qualified: called as its body, arguments by position.
    const parts: Part[] = [];
    let last = 0;
    for (const m of body.matchAll(/\[\$(\d+)\]/g)) {
      const a = fn.args[Number(m[1]) - 1];
      if (!a) continue;
      parts.push(body.slice(last, m.index), arg(a.name));
      last = m.index + m[0].length;
    }
    parts.push(body.slice(last));
    return { kind: 'fn', args: [], sql: parts, function: functionKey(fn) };
  }
  if (fn.sql === undefined) {
    const qualified = fn.dbName.includes('.') ? fn.dbName.split('.') : ctx.functionName(fn.source, fn.dbName);
    return { kind: 'fn', name: qualified, args: fn.args.filter((a) => !skip(a.name)).map((a) => arg(a.name)), function: functionKey(fn) };
  }
  // `[arg]` names an argument, `[$auth.x]` a caller value, `[$catalog]` the source's namespace.
  const parts: Part[] = [];
  let last = 0;
  for (const m of fn.sql.matchAll(/\[(\$?)([A-Za-z_][A-Za-z0-9_.]*)\]/g)) {
    const [whole, dollar, name] = m as unknown as [string, string, string];
    const known = dollar ? name === 'catalog' || name.startsWith('auth.') : fn.args.some((a) => a.name === name);
    if (!known) continue;
    const before = fn.sql.slice(last, m.index);
    parts.push(before);
    if (dollar && name === 'catalog') parts.push({ kind: 'ident', parts: namespace });
    else if (dollar) parts.push(authParam(ctx, name.slice(5)));
    else parts.push(countOrArg(before, arg(name)));
    last = m.index + whole.length;
  }
  parts.push(fn.sql.slice(last));
  return { kind: 'fn', args: [], sql: parts, function: functionKey(fn) };
}

/**
 * `LIMIT [n]` / `OFFSET [n]` in a function's sql: the count is written as a number. DuckDB refuses a
 * parameter there inside a correlated subquery ("Non-constant limit"), which is how a table function
 * is called per row (`@function_call`). Only a whole number checked here (or NULL: no limit) is
 * written, never the client's text; anything else stays a parameter.
 */
function countOrArg(before: string, value: Expr): Expr | string {
  if (value.kind !== 'param' || !/\b(LIMIT|OFFSET)\s*$/i.test(before)) return value;
  if (value.value === null) return 'NULL';
  return Number.isSafeInteger(value.value) ? String(value.value) : value;
}

export function planCall(ctx: PlanContext, fn: CatalogFunction, args: Record<string, unknown>): FunctionCallNode {
  const call = callOf(ctx, fn, (name) => argParam(ctx, fn, name, args), (name) => fn.skipNullArg && argParam(ctx, fn, name, args).value === null);
  // One object of a structured type (not JSON cast to it): its members, rendered one by one.
  const struct = !fn.isTable && !fn.jsonCast && !fn.returns.list && !isScalar(fn.returns.type) ? ctx.index.structs.get(fn.returns.type) : undefined;
  return {
    kind: 'call',
    call,
    result: fn.isTable ? 'table' : isScalar(fn.returns.type) ? 'scalar' : 'object',
    list: fn.returns.list,
    jsonCast: fn.jsonCast,
    ...(isScalar(fn.returns.type) ? { scalar: fn.returns.type } : {}),
    ...(struct ? { members: struct.fields.map((f) => ({ key: f.source ?? f.name, list: f.list, ...(isScalar(f.type) ? { scalar: f.type } : {}) })) } : {}),
  };
}

/**
 * A function called with values of the current row (`@function_call`, SPEC §3.3): mapped arguments
 * are columns of `alias`, the others come from the field's own arguments or are injected.
 */
export function planRowCall(
  ctx: PlanContext, fn: CatalogFunction, obj: DataObject, alias: string, mapping: Readonly<Record<string, string>>, fieldArgs: Record<string, unknown>,
): FunctionExpr {
  return callOf(ctx, fn, (name) => {
    const mapped = mapping[name];
    const column = mapped ? obj.fields.find((f) => f.name === mapped) : undefined;
    if (column) return fieldExpr(ctx, obj, alias, column, 'read');
    // Chained calls (hugr's function-calls page): an argument mapped to another scalar @function_call
    // field is that call on the same row (the catalog compiler checked it is scalar, of this source and acyclic).
    const chained = mapped ? obj.calls.find((c) => c.name === mapped) : undefined;
    const chainedFn = chained && ctx.index.functionsByName.get(`${chained.source ?? obj.source}.${chained.function}`);
    if (chained && chainedFn) return planRowCall(ctx, chainedFn, obj, alias, chained.args, {});
    return argParam(ctx, fn, name, fieldArgs);
  }, () => false);
}
