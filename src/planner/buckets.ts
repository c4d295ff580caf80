// `T_bucket_aggregation` (SPEC §4.2): GROUP BY the selected `key` fields (columns, `bucket:`
// truncations, N:1 paths), with `aggregations(filter:)` aliased any number of times.
import type { FieldNode, GraphQLObjectType } from 'graphql';
import type { DataObject } from '../catalog/model.js';
import { forbidden } from '../permissions/access.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { aggFields, fieldsOf, type Scope } from './aggregate.js';
import type { PlanContext } from './context.js';
import { columnValue, fieldExpr, generatedValue, jsonStruct } from './fields.js';
import { andAll, correlation, fromFor, guard, objectOf, planFilter } from './filter.js';
import { localOnly } from './remote.js';
import type { AggOut, AggregateNode } from './ir/aggregate.js';
import type { Expr } from './ir/expr.js';
import type { FilterNode } from './ir/filter.js';
import type { OrderItem, OutField } from './ir/select.js';
import { type Args, catalogPathExpr, type OrderArg, rowsSelect } from './rows.js';

function keyFields(scope: Scope, groupBy: Expr[], obj: DataObject, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[]): AggOut[] {
  const { ctx } = scope;
  return fieldsOf(ctx, type, nodes).map((f): AggOut => {
    if (f.name === '__typename') return { kind: 'value', key: f.key, expr: { kind: 'param', value: type.name, scalar: 'String' }, scalar: 'String', list: false };
    const column = obj.fields.find((c) => c.name === f.name);
    if (column?.type === 'JSON' && f.args.struct != null) {
      // A JSON key trimmed to its struct groups by the extracted values (hugr's generated fields page).
      const byStruct = (outs: readonly OutField[]): AggOut[] => outs.map((o): AggOut => {
        if (o.kind === 'json_object') return { kind: 'object', key: o.key, fields: byStruct(o.fields) };
        if (o.kind !== 'scalar') throw new PublicError(ErrorCode.Internal, `unexpected struct member "${o.key}"`);
        groupBy.push(o.expr);
        return { kind: 'value', key: o.key, expr: o.expr, scalar: o.scalar, list: o.list };
      });
      return { kind: 'object', key: f.key, fields: byStruct(jsonStruct(fieldExpr(ctx, obj, alias, column, 'aggregate'), f.args.struct)) };
    }
    if (column) {
      // Grouping by a value shows it: asked as an aggregation use.
      const expr = columnValue(ctx, obj, alias, column, f.args, 'aggregate');
      groupBy.push(expr);
      return { kind: 'value', key: f.key, expr, scalar: column.type, list: column.list };
    }
    const generated = generatedValue(ctx, obj, alias, f.name, f.args, 'aggregate');
    if (generated) {
      groupBy.push(generated.expr);
      return { kind: 'value', key: f.key, expr: generated.expr, scalar: generated.scalar, list: false };
    }
    const rel = obj.relations.find((r) => r.name === f.name);
    if (rel?.kind === 'one' && f.type) {
      if (ctx.access.fieldDenied(type.name, f.name, f.type.name)) throw forbidden(`"${obj.name}.${f.name}" may not be used as a bucket key by role "${ctx.access.role}"`);
      const target = objectOf(ctx, rel.target);
      localOnly(ctx, target, `bucket key "${type.name}.${f.name}"`);
      const j = ctx.nextAlias();
      scope.joins.push({ from: fromFor(ctx, target, j, f.args.args as Args | null | undefined), on: andAll(correlation(ctx, rel, alias, j), guard(ctx, target, j))! });
      // No related row (or none the view's arguments let through): the key object is null, not {field: null}.
      // The join's own key column: a presence test, not a use of a field the role is asked about.
      const joined: Expr = { kind: 'column', table: j, column: rel.targetFields[0]! };
      return { kind: 'object', key: f.key, fields: keyFields(scope, groupBy, target, j, f.type, f.nodes), nullUnless: joined };
    }
    throw new PublicError(ErrorCode.BadUserInput, `bucket key field "${type.name}.${f.name}" is not supported yet`);
  });
}

/** Finds the output at a dotted path of response keys (`key.category.name`, `aggregations.total.sum`). */
function orderExpr(fields: readonly AggOut[], path: readonly string[], full: string, within?: AggregateNode): Expr {
  const [head, ...rest] = path;
  const f = fields.find((x) => x.key === head);
  if (f?.kind === 'object' && rest.length) return orderExpr(f.fields, rest, full, within);
  if (f?.kind === 'nested' && rest.length && !within) return orderExpr(f.node.fields, rest, full, f.node);
  if (f && !rest.length && within && (f.kind === 'count' || f.kind === 'agg')) return { kind: 'agg_ref', agg: f, within };
  if (f && !rest.length && (f.kind === 'value')) return f.expr;
  if (f && !rest.length && (f.kind === 'count' || f.kind === 'agg')) return { kind: 'agg_ref', agg: f };
  throw new PublicError(ErrorCode.BadUserInput, `order_by field "${full}" is not a selected key or aggregation value`);
}

export function planBuckets(
  ctx: PlanContext, obj: DataObject, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[], args: Args,
  correlateFor?: (alias: string) => FilterNode,
): AggregateNode {
  const rows = rowsSelect(ctx, obj, alias, { filter: args.filter, distinct_on: args.distinct_on, similarity: args.similarity }, correlateFor?.(alias), false);
  const joins: Scope['joins'] = [];
  const groupBy: Expr[] = [];
  const rowsOf = (a: string) => rowsSelect(ctx, obj, a, { filter: args.filter }, correlateFor?.(a), false);
  const fields = fieldsOf(ctx, type, nodes).map((f): AggOut => {
    if (f.name === '__typename') return { kind: 'value', key: f.key, expr: { kind: 'param', value: type.name, scalar: 'String' }, scalar: 'String', list: false };
    if (f.name === 'key') return { kind: 'object', key: f.key, fields: keyFields({ ctx, joins }, groupBy, obj, alias, f.type!, f.nodes) };
    const filter = f.args.filter ? planFilter(ctx, obj, alias, f.args.filter as Args) : undefined;
    const order = ((f.args.order_by as OrderArg[] | null | undefined) ?? []).map((o) => ({ expr: catalogPathExpr(ctx, obj, alias, o.field.split('.'), o.field), desc: o.direction === 'DESC' }));
    return { kind: 'object', key: f.key, fields: aggFields({ ctx, joins, inBuckets: true, ...(filter ? { filter } : {}), ...(order.length ? { order } : {}) }, obj, alias, f.type!, f.nodes, rowsOf) };
  });
  const orderBy: OrderItem[] = ((args.order_by as OrderArg[] | null | undefined) ?? []).map((o) => ({ expr: orderExpr(fields, o.field.split('.'), o.field), desc: o.direction === 'DESC' }));
  return {
    kind: 'aggregate', rows, joins, fields, groupBy, orderBy,
    ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
    ...(typeof args.offset === 'number' && args.offset > 0 ? { offset: args.offset } : {}),
  };
}
