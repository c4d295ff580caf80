// `_T_aggregation` and `_T_aggregation_bucket` selections -> AggregateNode (SPEC §4.2).
import { type FieldNode, getArgumentValues, getNamedType, type GraphQLField, type GraphQLObjectType, isObjectType } from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields.js';
import { type DataObject, isScalar, type Relation } from '../catalog/model.js';
import { forbidden } from '../permissions/access.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { PlanContext } from './context.js';
import { fieldExpr, generatedValue, keyExpr } from './fields.js';
import { andAll, correlation, fromFor, guard, objectOf, planFilter, structLeaf } from './filter.js';
import { localOnly } from './remote.js';
import type { AggFn, AggOut, AggregateNode, JoinNode } from './ir/aggregate.js';
import type { Expr } from './ir/expr.js';
import type { FilterNode } from './ir/filter.js';
import type { OrderItem } from './ir/select.js';
import { type Args, rowsSelect } from './rows.js';

const FNS: readonly AggFn[] = ['count', 'sum', 'avg', 'min', 'max', 'list', 'any', 'last', 'string_agg', 'bool_and', 'bool_or', 'union', 'extent', 'intersection'];

export interface Scope {
  readonly ctx: PlanContext;
  readonly joins: JoinNode[];
  readonly filter?: FilterNode;
  /** Inside a bucket: a list relation aggregated over "all related rows" would need the group's rows. */
  readonly inBuckets?: boolean;
  /** `aggregations(order_by:)`: the order of values inside order-sensitive aggregates. */
  readonly order?: readonly OrderItem[];
}

function unsupported(what: string): never {
  throw new PublicError(ErrorCode.BadUserInput, `${what} is not supported yet`);
}

export function fieldsOf(ctx: PlanContext, type: GraphQLObjectType, nodes: readonly FieldNode[]) {
  const out: { key: string; name: string; nodes: readonly FieldNode[]; args: Args; type: GraphQLObjectType | undefined }[] = [];
  for (const [key, group] of collectSubfields(ctx.schema, ctx.fragments as never, ctx.variables as never, type, nodes)) {
    const name = group[0]!.name.value;
    const def = type.getFields()[name];
    const args = def ? (getArgumentValues(def as GraphQLField<unknown, unknown>, group[0]!, ctx.variables as never) as Args) : {};
    const named = def ? getNamedType(def.type) : undefined;
    out.push({ key, name, nodes: group, args, type: named && isObjectType(named) ? named : undefined });
  }
  return out;
}

const typename = (key: string, name: string): AggOut => ({ kind: 'value', key, expr: { kind: 'param', value: name, scalar: 'String' }, scalar: 'String', list: false });

/** A JSON path as hugr's pages write it: `details.amount`, or JSONPath `$.details.amount` (the data-object aggregations page). */
const pathParts = (path: string): string[] => path.replace(/^\$\.?/, '').split('.');

/** Aggregate functions of one value (`<Scalar>Aggregation` subfields). */
function functions(scope: Scope, type: GraphQLObjectType, nodes: readonly FieldNode[], arg: Expr, scalar: DataObject['fields'][number]['type']): AggOut[] {
  return fieldsOf(scope.ctx, type, nodes).map((f): AggOut => {
    if (f.name === '__typename') return typename(f.key, type.name);
    let value = arg;
    let valueScalar = scalar;
    if (scalar === 'JSON' && typeof f.args.path === 'string' && f.args.path) {
      // JSON aggregations read the value at `path` (SPEC §4.2): numbers for sum/avg, booleans for
      // bool_and/bool_or, text for string_agg, the JSON value itself otherwise.
      const as = ['sum', 'avg', 'min', 'max'].includes(f.name) ? 'number' : ['bool_and', 'bool_or'].includes(f.name) ? 'boolean' : f.name === 'string_agg' ? 'text' : 'json';
      value = { kind: 'json_path', expr: arg, path: pathParts(f.args.path), as };
      valueScalar = as === 'number' ? 'Float' : as === 'boolean' ? 'Boolean' : as === 'text' ? 'String' : 'JSON';
    } else if (scalar === 'JSON' && f.name !== 'count' && f.name !== 'list' && f.name !== 'any' && f.name !== 'last') {
      throw new PublicError(ErrorCode.BadUserInput, `"${f.name}" of a JSON field needs a path`);
    }
    if (f.name === 'count') return { kind: 'count', key: f.key, arg: value, ...(f.args.distinct === true ? { distinct: true } : {}), ...(scope.filter ? { filter: scope.filter } : {}) };
    const fn = f.name as AggFn;
    if (!FNS.includes(fn)) unsupported(`aggregation "${f.name}"`);
    return {
      kind: 'agg', key: f.key, fn, arg: value, scalar: valueScalar, distinct: f.args.distinct === true,
      ...(f.args.sep !== undefined ? { sep: { kind: 'param', value: f.args.sep, scalar: 'String' } } : {}),
      ...(scope.filter ? { filter: scope.filter } : {}),
      ...(scope.order?.length ? { order: scope.order } : {}),
    };
  });
}

/** Outer functions over a per-parent inner aggregate (sub-aggregations). */
function overParents(scope: Scope, type: GraphQLObjectType, nodes: readonly FieldNode[], inner: Expr, innerScalar: 'BigInt' | 'Float'): AggOut[] {
  return functions(scope, type, nodes, inner, innerScalar);
}

function subAggregation(scope: Scope, rel: Relation, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[], args: Args): AggOut[] {
  const { ctx } = scope;
  const target = objectOf(ctx, rel.target);
  const perParent = (fn: AggFn, column?: DataObject['fields'][number]): Expr => {
    const child = ctx.nextAlias();
    const where: FilterNode[] = [correlation(ctx, rel, alias, child)];
    const g = guard(ctx, target, child);
    if (g) where.push(g);
    if (args.filter) where.push(planFilter(ctx, target, child, args.filter as Args));
    return {
      kind: 'agg_subquery', from: fromFor(ctx, target, child, args.args as Args | null | undefined), where: where.length === 1 ? where[0]! : { kind: 'and', items: where }, fn,
      ...(column ? { arg: fieldExpr(ctx, target, child, column, 'aggregate') } : {}),
    };
  };
  return fieldsOf(ctx, type, nodes).map((f): AggOut => {
    if (f.name === '__typename') return typename(f.key, type.name);
    if (f.name === '_rows_count') return { kind: 'object', key: f.key, fields: overParents(scope, f.type!, f.nodes, perParent('count'), 'BigInt') };
    const column = target.fields.find((c) => c.name === f.name);
    if (!column || !['Int', 'BigInt', 'Float'].includes(column.type)) unsupported(`sub-aggregation of "${target.name}.${f.name}"`);
    const inner = fieldsOf(ctx, f.type!, f.nodes).map((g): AggOut => {
      if (g.name === '__typename') return typename(g.key, f.type!.name);
      const fn = g.name as AggFn;
      if (!['count', 'sum', 'avg', 'min', 'max'].includes(fn)) unsupported(`sub-aggregation "${g.name}"`);
      const scalar = fn === 'count' ? 'BigInt' : fn === 'avg' ? 'Float' : column.type === 'Int' ? 'Float' : column.type;
      return { kind: 'object', key: g.key, fields: overParents(scope, g.type!, g.nodes, perParent(fn, column), scalar as 'BigInt' | 'Float') };
    });
    return { kind: 'object', key: f.key, fields: inner };
  });
}

/** `_<struct>_aggregation`: each nested scalar aggregated at its path inside the structured column. */
function structFields(scope: Scope, structName: string, type: GraphQLObjectType, nodes: readonly FieldNode[], column: Expr, path: readonly string[]): AggOut[] {
  const st = scope.ctx.index.structs.get(structName);
  if (!st) throw new PublicError(ErrorCode.Internal, `unknown structure type "${structName}"`);
  return fieldsOf(scope.ctx, type, nodes).map((f): AggOut => {
    if (f.name === '__typename') return typename(f.key, type.name);
    const field = st.fields.find((x) => x.name === f.name);
    if (!field || !f.type) unsupported(`aggregation field "${type.name}.${f.name}"`);
    const at = [...path, field.name];
    if (!isScalar(field.type)) return { kind: 'object', key: f.key, fields: structFields(scope, field.type, f.type, f.nodes, column, at) };
    return { kind: 'object', key: f.key, fields: functions(scope, f.type, f.nodes, structLeaf(column, at, field.type), field.type) };
  });
}

/** `parent`'s row is one of the rows of the current bucket (under `alias`, passing `filter`). */
function groupMember(obj: DataObject, alias: string, parent: string, filter: FilterNode | undefined, name: string): FilterNode {
  const key = obj.pk.length === 1 ? obj.fields.find((c) => c.name === obj.pk[0]) : undefined;
  if (!key) unsupported(`"${name}" inside bucket aggregations of "${obj.name}", which has no single-field primary key (use "${name}_aggregation")`);
  return { kind: 'in_group', value: keyExpr(obj, parent, key), member: keyExpr(obj, alias, key), ...(filter ? { filter } : {}) };
}

/** The fields of `_T_aggregation` over rows of `obj` under `alias`. */
export function aggFields(scope: Scope, obj: DataObject, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[], rowsOf: (alias: string) => AggregateNode['rows'], countArg?: Expr): AggOut[] {
  const { ctx } = scope;
  return fieldsOf(ctx, type, nodes).map((f): AggOut => {
    if (f.name === '__typename') return typename(f.key, type.name);
    if (f.name === '_rows_count') return { kind: 'count', key: f.key, ...(countArg ? { arg: countArg } : {}), ...(scope.filter ? { filter: scope.filter } : {}) };
    const column = obj.fields.find((c) => c.name === f.name);
    // Aggregating a field the role may not read would reveal it (SPEC §7); a relation to an object
    // the role may not read is refused the same way (issue 14 item 6).
    if (column?.struct) return { kind: 'object', key: f.key, fields: structFields(scope, column.struct, f.type!, f.nodes, fieldExpr(ctx, obj, alias, column, 'aggregate'), []) };
    if (column) return { kind: 'object', key: f.key, fields: functions(scope, f.type!, f.nodes, fieldExpr(ctx, obj, alias, column, 'aggregate'), column.type) };
    const generated = generatedValue(ctx, obj, alias, f.name, f.args, 'aggregate');
    if (generated) return { kind: 'object', key: f.key, fields: functions(scope, f.type!, f.nodes, generated.expr, generated.scalar) };
    if (obj.relations.some((r) => r.name === f.name || `${r.name}_aggregation` === f.name) && ctx.access.fieldDenied(type.name, f.name, f.type?.name)) {
      throw forbidden(`"${obj.name}.${f.name}" may not be aggregated by role "${ctx.access.role}"`);
    }
    const rel = obj.relations.find((r) => r.name === f.name || `${r.name}_aggregation` === f.name);
    if (!rel) unsupported(`aggregation field "${type.name}.${f.name}"`);
    const target = objectOf(ctx, rel.target);
    localOnly(ctx, target, `aggregation field "${type.name}.${f.name}"`);
    if (rel.kind === 'one' && f.name === rel.name) {
      const j = ctx.nextAlias();
      scope.joins.push({ from: fromFor(ctx, target, j, f.args.args as Args | null | undefined), on: andAll(correlation(ctx, rel, alias, j), guard(ctx, target, j))! });
      const first = target.fields.find((c) => rel.targetFields.includes(c.column)) ?? target.fields[0]!;
      // A list relation below reaches the related rows of the aggregated rows (issue 32: it was tied
      // to the aggregated object's own table, under the related object's columns).
      const relatedOnes = (a: string): AggregateNode['rows'] => {
        const p = ctx.nextAlias();
        const parentRows = rowsOf(p);
        const where: FilterNode[] = [correlation(ctx, rel, p, a), ...(parentRows.where ? [parentRows.where] : []), ...(parentRows.correlate ? [parentRows.correlate] : [])];
        return rowsSelect(ctx, target, a, { args: f.args.args }, { kind: 'exists', from: parentRows.from, where: { kind: 'and', items: where } }, false);
      };
      return { kind: 'object', key: f.key, fields: aggFields(scope, target, j, f.type!, f.nodes, relatedOnes, keyExpr(target, j, first)) };
    }
    if (f.name === `${rel.name}_aggregation`) return { kind: 'object', key: f.key, fields: subAggregation(scope, rel, alias, f.type!, f.nodes, f.args) };
    // A list relation by its own name: aggregate every related row of every aggregated row.
    // Rows of the relation whose parent is one of the aggregated rows (under `p`); nested list
    // relations below repeat this, so every level stays tied to the rows being aggregated.
    const relatedRows = (c: string, p: string): AggregateNode['rows'] => {
      const parentRows = rowsOf(p);
      if (parentRows.limit !== undefined || parentRows.offset !== undefined) unsupported(`"${f.name}" with limit or offset on the aggregated rows`);
      const where: FilterNode[] = [correlation(ctx, rel, p, c), ...(parentRows.where ? [parentRows.where] : []), ...(parentRows.correlate ? [parentRows.correlate] : [])];
      // In a bucket, the aggregated rows are the group's: the parent's key must be among the group's keys.
      if (scope.inBuckets) where.push(groupMember(obj, alias, p, scope.filter, f.name));
      return rowsSelect(ctx, target, c, { filter: f.args.filter, args: f.args.args }, { kind: 'exists', from: parentRows.from, where: { kind: 'and', items: where } }, false);
    };
    const child = ctx.nextAlias();
    const related = relatedRows(child, ctx.nextAlias());
    const inner: Scope = { ctx, joins: [] };
    const node: AggregateNode = { kind: 'aggregate', rows: related, joins: inner.joins, fields: [], orderBy: [] };
    const fields = aggFields(inner, target, child, f.type!, f.nodes, (a) => relatedRows(a, ctx.nextAlias()));
    return { kind: 'nested', key: f.key, node: { ...node, fields } };
  });
}

/** `T_aggregation` (root) and `<relation>_aggregation` (per parent): one row of aggregates. */
/** `correlateFor(alias)` ties rows under `alias` to the parent row (relation aggregations). */
export function planAggregation(
  ctx: PlanContext, obj: DataObject, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[], args: Args,
  correlateFor?: (alias: string) => FilterNode,
): AggregateNode {
  const rows = rowsSelect(ctx, obj, alias, args, correlateFor?.(alias));
  const scope: Scope = { ctx, joins: [] };
  const rowsOf = (a: string) => rowsSelect(ctx, obj, a, args, correlateFor?.(a));
  const fields = aggFields(scope, obj, alias, type, nodes, rowsOf);
  return { kind: 'aggregate', rows, joins: scope.joins, fields, orderBy: [] };
}
