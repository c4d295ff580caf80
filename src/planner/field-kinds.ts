// The fields of a row, one planner per kind of field (planFields in select.ts dispatches): columns,
// `__typename`, function calls on the row, geometry measurements, date parts and an extension's
// fields. Relations, @unnest and query-time joins are planned in select.ts, which they recurse into.
import type { FieldNode, GraphQLObjectType } from 'graphql';
import type { DataObject } from '../catalog/model.js';
import { isMeasured, isScalar as isScalarName } from '../catalog/model.js';
import { measured } from './cube.js';
import type { PlanContext } from './context.js';
import { PARENT_KEY_PREFIX } from './extension-fields.js';
import { columnValue, fieldExpr, jsonStruct } from './fields.js';
import { argParam, planRowCall } from './function.js';
import type { Expr } from './ir/expr.js';
import type { FilterNode } from './ir/filter.js';
import type { OutField, SelectNode } from './ir/select.js';
import { callKeyColumns, planRemote } from './remote.js';
import { vectorDistance } from './vector.js';

type Args = Record<string, unknown>;

/** Planned output fields keyed by response key, kept to resolve `order_by` paths. */
export interface Planned {
  readonly fields: OutField[];
  readonly byKey: Map<string, { field: OutField; select?: SelectNode; kind: 'scalar' | 'one' | 'many' | 'const' }>;
  readonly extraWhere: FilterNode[];
  readonly joins: SelectNode[];
}

/** One field of the selection being planned: where it goes and what the client asked of it. */
export interface FieldAt {
  readonly ctx: PlanContext;
  readonly obj: DataObject;
  readonly alias: string;
  readonly key: string;
  readonly name: string;
  readonly args: Args;
  readonly type: GraphQLObjectType;
  readonly nodes: readonly FieldNode[];
}

export function addField(planned: Planned, key: string, field: OutField, kind: 'scalar' | 'one' | 'many' | 'const', select?: SelectNode): void {
  planned.fields.push(field);
  planned.byKey.set(key, { field, kind, ...(select ? { select } : {}) });
}

export function typenameField(planned: Planned, at: FieldAt): void {
  addField(planned, at.key, { kind: 'const', key: at.key, value: at.type.name }, 'const');
}

/** A stored or computed column: its value, a JSON struct's parts, a time bucket or a geometry transform. */
export function columnField(planned: Planned, at: FieldAt, column: DataObject['fields'][number]): void {
  const { ctx, obj, alias, key, args } = at;
  if (column.type === 'JSON' && args.struct !== undefined && args.struct !== null) {
    const value = fieldExpr(ctx, obj, alias, column, 'read');
    addField(planned, key, { kind: 'json_object', key, fields: jsonStruct(value, args.struct), nullWhen: value }, 'const');
    return;
  }
  const expr = columnValue(ctx, obj, alias, column, args, 'read');
  // A stored column declared `!` is never null; computed and transformed values may be.
  const notNull = column.nonNull && expr.kind === 'column';
  const field: OutField = { kind: 'scalar', key, expr, scalar: column.type, list: column.list, ...(notNull ? { notNull } : {}), origin: { object: obj.name, field: column.name } };
  // A cube's measurement with `measurement_func` is aggregated per group (src/planner/cube.ts).
  const func = args.measurement_func as string | null | undefined;
  addField(planned, key, func && isMeasured(obj, column) ? measured(field, func, column.type) : field, 'scalar');
}

/**
 * `@function_call` (SPEC §3.3): computed by a function from this row's values, inside the same
 * statement, or as a cross-source level when the function belongs to another source.
 */
export function callField(planned: Planned, at: FieldAt, call: DataObject['calls'][number]): boolean {
  const { ctx, obj, alias, key, args } = at;
  const callFn = ctx.index.functionsByName.get(`${call.source ?? obj.source}.${call.function}`);
  if (!callFn) return false;
  const out = (c: PlanContext, a: string, k: string): OutField => {
    const expr = planRowCall(c, callFn, obj, a, call.args, args);
    if (!call.join && !callFn.isTable) return { kind: 'scalar', key: k, expr, scalar: isScalarName(call.type) ? call.type : 'JSON', list: call.list };
    // Rows of a table function, called with this row's values (and matched to it by @table_function_call_join).
    const join = (call.join?.sourceFields ?? []).map((s2, i) => ({ parent: fieldExpr(c, obj, a, obj.fields.find((x) => x.name === s2)!, 'read'), column: call.join!.referencesFields[i]! }));
    return { kind: 'fn_rows', key: k, call: expr, join };
  };
  // The answer depends on the function's source: its tag, as a function's own answers carry (SPEC §9).
  ctx.reads?.add(callFn.source);
  let f: OutField;
  if (ctx.statement && callFn.source !== ctx.statement.source) {
    const columns = callKeyColumns(obj, call);
    const column = (field: string) => obj.fields.find((x) => x.name === field)?.column ?? field;
    // Unmapped arguments are the field's own or injected (`@arg_default`), as within one source.
    const callArgs = Object.fromEntries(callFn.args.map((a) => [a.name, a.name in call.args ? { key: columns.indexOf(column(call.args[a.name]!)) } : { value: argParam(ctx, callFn, a.name, args).value }]));
    const join = call.join?.sourceFields.map((s2, i) => ({ key: columns.indexOf(column(s2)), field: call.join!.referencesFields[i]! }));
    f = planRemote(ctx, obj, alias, key, callFn.source, columns, false, (rctx, keys) => out(rctx, keys, 'v'), { fn: callFn, args: callArgs, ...(join ? { join } : {}) });
  } else f = out(ctx, alias, key);
  addField(planned, key, f, f.kind === 'scalar' ? 'scalar' : 'const');
  return true;
}

/** `_<geometry>_measurement` (area, length, ... of a Geometry field) or `_<time>_part` (`extract`): a number per row. */
export function generatedField(planned: Planned, at: FieldAt, value: { expr: Expr; scalar: 'BigInt' | 'Float' }): void {
  addField(planned, at.key, { kind: 'scalar', key: at.key, expr: value.expr, scalar: value.scalar, list: false }, 'scalar');
}

/** `_<vector>_distance(vector:, distance:)`: the distance of a Vector field to a given vector (hugr's vector search). */
export function distanceField(planned: Planned, at: FieldAt, field: string): void {
  const { ctx, obj, alias, key, args } = at;
  addField(planned, key, { kind: 'scalar', key, expr: vectorDistance(ctx, obj, alias, field, args.vector, args.distance, 'read'), scalar: 'Float', list: false }, 'scalar');
}

/** An extension's field (src/extensions/): resolved by its own code from the row's key fields, which are read under hidden keys. */
export function extensionField(planned: Planned, at: FieldAt, parentKeys: readonly string[]): void {
  const { ctx, obj, alias } = at;
  for (const k of parentKeys) {
    const column = obj.fields.find((f) => f.name === k);
    const hidden = `${PARENT_KEY_PREFIX}${k}`;
    if (!column || planned.byKey.has(hidden)) continue;
    addField(planned, hidden, { kind: 'scalar', key: hidden, expr: fieldExpr(ctx, obj, alias, column, 'read'), scalar: column.type, list: column.list }, 'scalar');
  }
}
