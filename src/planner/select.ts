// A GraphQL selection over a data object -> SelectNode. Relations become nested selects of the same
// statement (SPEC §5); nothing here runs a query.
import { extensionFieldKeys } from './extension-fields.js';
import {
  type FieldNode, getArgumentValues, getNamedType, type GraphQLField, type GraphQLObjectType, isObjectType,
} from 'graphql';
// Not re-exported by the package root. Node resolves `graphql` to its CommonJS build (the package
// has no "exports"), so this path names the same module instance.
import { collectSubfields } from 'graphql/execution/collectFields.js';
import type { DataObject, Relation } from '../catalog/model.js';
import { forbidden } from '../permissions/access.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { planAggregation } from './aggregate.js';
import { planBuckets } from './buckets.js';
import { isRemote, localOnly, planRemote, relationKeyColumns } from './remote.js';
import { queryJoinFields, type RelationMode } from './query-joins.js';
import type { PlanContext } from './context.js';
import { fieldExpr, generatedValue } from './fields.js';
import { correlation, filterNames, fromFor, guard, objectOf, planFilter } from './filter.js';
import { similarityOf } from './vector.js';
import { cubeRows, rowsCount } from './cube.js';
import type { Expr } from './ir/expr.js';
import type { AggOut, AggregateNode } from './ir/aggregate.js';
import type { FilterNode } from './ir/filter.js';
import type { OrderItem, OutField, SelectNode } from './ir/select.js';
import { addField, callField, columnField, distanceField, extensionField, type FieldAt, generatedField, type Planned, typenameField } from './field-kinds.js';

export type Args = Record<string, unknown>;

interface OrderArg {
  field: string;
  direction?: 'ASC' | 'DESC';
}

function unsupported(what: string): never {
  throw new PublicError(ErrorCode.BadUserInput, `${what} is not supported yet`);
}

/**
 * Which object a planned field list belongs to, and the response keys planned out because the
 * role may not use them: `order_by` naming one is refused as forbidden, not as "not selected".
 * Keyed by the field list itself, which every SelectNode built from it shares.
 */
const plannedFrom = new WeakMap<readonly OutField[], { readonly object: DataObject; readonly denied: ReadonlyMap<string, string> }>();

function subfields(ctx: PlanContext, type: GraphQLObjectType, nodes: readonly FieldNode[]): Map<string, readonly FieldNode[]> {
  return collectSubfields(ctx.schema, ctx.fragments as never, ctx.variables as never, type, nodes);
}

/** The relation an @unnest, relation or relation-aggregation field names, and how it is read. */
function relationOf(obj: DataObject, name: string): { rel: Relation; mode: RelationMode } | undefined {
  const rel = obj.relations.find((r) => r.name === name);
  if (rel) return { rel, mode: 'rows' };
  const agg = obj.relations.find((r) => r.kind !== 'one' && (name === `${r.name}_aggregation` || name === `${r.name}_bucket_aggregation`));
  return agg && { rel: agg, mode: name.endsWith('_bucket_aggregation') ? 'buckets' : 'aggregation' };
}

/** @unnest: the related rows are joined to these rows, one output row per pair (SPEC §4.5). */
function unnestField(planned: Planned, at: FieldAt, rel: Relation, childType: GraphQLObjectType): void {
  const { ctx, alias, key, args } = at;
  for (const a of ['limit', 'offset', 'nested_limit', 'nested_offset', 'distinct_on']) if (args[a] != null) unsupported(`"${a}" on an @unnest relation`);
  const target = objectOf(ctx, rel.target);
  localOnly(ctx, target, `@unnest relation "${at.name}"`);
  const child = ctx.nextAlias();
  const sel: SelectNode = { ...planSelect(ctx, target, child, childType, at.nodes, { filter: args.filter, args: args.args }), correlate: correlation(ctx, rel, alias, child), orderBy: [] };
  addField(planned, key, { kind: 'unnest', key, select: sel }, 'one', sel);
  planned.joins.push(sel);
}

/** A relation, its aggregation or its bucket aggregation; `inner` keeps only parents with related rows. */
function relatedField(planned: Planned, at: FieldAt, rel: Relation, mode: RelationMode, outType: GraphQLObjectType): void {
  const r = relationField(at.ctx, at.obj, at.alias, at.key, rel, mode, outType, at.nodes, at.args);
  addField(planned, at.key, r.field, r.select ? (mode === 'rows' && rel.kind === 'one' ? 'one' : 'many') : 'const', r.select);
  if (at.args.inner && r.select) planned.extraWhere.push(existsRelated(at.ctx, r.select));
}

/** `_join` / `_spatial`: query-time joins (SPEC §4), each field inside a relation made up from the arguments. */
function queryJoinField(planned: Planned, at: FieldAt, outType: GraphQLObjectType): void {
  const { ctx, obj, alias } = at;
  const fields = queryJoinFields(
    ctx, obj, at.name === '_spatial', at.args, outType, at.nodes, (rel2, mode, k, t, nodes, a) => relationField(ctx, obj, alias, k, rel2, mode, t, nodes, a),
    (sel) => planned.extraWhere.push(existsRelated(ctx, sel)),
  );
  addField(planned, at.key, { kind: 'json_object', key: at.key, fields }, 'const');
}

/** One field of the selection, by its kind. */
function planField(planned: Planned, at: FieldAt, def: GraphQLField<unknown, unknown>): void {
  const { obj, name } = at;
  const column = obj.fields.find((f) => f.name === name);
  if (column) return columnField(planned, at, column);
  const call = obj.calls.find((c) => c.name === name);
  if (call && callField(planned, at, call)) return;
  if (name === '_rows_count' && obj.cube) return addField(planned, at.key, rowsCount(at.key), 'scalar');
  const generated = generatedValue(at.ctx, obj, at.alias, name, at.args, 'read');
  if (generated) return generatedField(planned, at, generated);
  const distanceOf = /^_(.+)_distance$/.exec(name)?.[1];
  if (distanceOf && obj.fields.some((f) => f.name === distanceOf && f.type === 'Vector' && !f.list)) return distanceField(planned, at, distanceOf);
  const outType = getNamedType(def.type);
  const related = relationOf(obj, name);
  if (related?.mode === 'rows' && related.rel.kind !== 'one' && at.nodes.some((n) => n.directives?.some((d) => d.name.value === 'unnest'))) {
    if (!isObjectType(outType)) throw new PublicError(ErrorCode.Internal, `relation "${name}" has no object type`);
    return unnestField(planned, at, related.rel, outType);
  }
  if (related && isObjectType(outType)) return relatedField(planned, at, related.rel, related.mode, outType);
  if ((name === '_join' || name === '_spatial') && isObjectType(outType)) return queryJoinField(planned, at, outType);
  const parentKeys = extensionFieldKeys(def);
  if (parentKeys) return extensionField(planned, at, parentKeys);
  unsupported(`field "${at.type.name}.${name}"`);
}

/** The selection `nodes` over `obj` (of GraphQL type `type`), each field planned by its kind. */
function planFields(ctx: PlanContext, obj: DataObject, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[]): Planned {
  const planned: Planned = { fields: [], byKey: new Map(), extraWhere: [], joins: [] };
  const denied = new Map<string, string>();
  plannedFrom.set(planned.fields, { object: obj, denied });
  for (const [key, fieldNodes] of subfields(ctx, type, nodes)) {
    const node = fieldNodes[0]!;
    const name = node.name.value;
    const at: FieldAt = { ctx, obj, alias, key, name, args: {}, type, nodes: fieldNodes };
    if (name === '__typename') {
      typenameField(planned, at);
      continue;
    }
    const def = type.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
    if (!def) throw new PublicError(ErrorCode.ValidationFailed, `Cannot query field "${name}" on type "${type.name}".`);
    // A denied field is not fetched; its resolver answers "forbidden" at its path (SPEC §1).
    if (ctx.access.fieldDenied(type.name, name, getNamedType(def.type).name)) {
      denied.set(key, name);
      continue;
    }
    planField(planned, { ...at, args: getArgumentValues(def, node, ctx.variables as never) as Args }, def);
  }
  return planned;
}

/**
 * A relation field, its aggregation or its bucket aggregation: a subquery of the same statement, or
 * a cross-source level when the target lives in another source (one batched statement, SPEC §5).
 * `inner` on a local relation is the caller's (the returned select).
 */
function relationField(
  ctx: PlanContext, obj: DataObject, alias: string, key: string, rel: Relation, mode: RelationMode, outType: GraphQLObjectType, fieldNodes: readonly FieldNode[], args: Args,
): { field: OutField; select?: SelectNode } {
  const target = objectOf(ctx, rel.target);
  const out = (c: PlanContext, parentAlias: string, k: string): { field: OutField; select?: SelectNode } => {
    if (mode === 'rows') return relationOut(c, rel, target, parentAlias, k, outType, fieldNodes, args);
    const child = c.nextAlias();
    const corr = (a: string) => correlation(c, rel, parentAlias, a);
    const node = mode === 'buckets' ? planBuckets(c, target, child, outType, fieldNodes, args, corr) : planAggregation(c, target, child, outType, fieldNodes, args, corr);
    return { field: { kind: 'aggregate', key: k, node } };
  };
  if (!isRemote(ctx, target)) return out(ctx, alias, key);
  return { field: planRemote(ctx, obj, alias, key, target.source, relationKeyColumns(rel), mode === 'rows' && args.inner === true, (rctx, keys) => out(rctx, keys, 'v').field) };
}

/** The value of a relation field: the related row (N:1) or rows (list), correlated to `alias`. */
function relationOut(
  ctx: PlanContext, rel: Relation, target: DataObject, alias: string, key: string, childType: GraphQLObjectType, fieldNodes: readonly FieldNode[], args: Args,
): { field: OutField; select: SelectNode } {
  const child = ctx.nextAlias();
  const corr = correlation(ctx, rel, alias, child);
  if (rel.kind === 'one') {
    const sel: SelectNode = { ...planSelect(ctx, target, child, childType, fieldNodes, { args: args.args }, corr), correlate: corr, unique: isKey(target, rel.targetFields) && !rel.joinSql };
    return { field: { kind: 'object', key, select: sel }, select: sel };
  }
  const sel = planRelationList(ctx, target, child, childType, fieldNodes, args, corr);
  return { field: { kind: 'array', key, select: sel }, select: sel };
}

/** True when `columns` are the primary key or a unique key of `obj`: a lookup finds one row at most. */
function isKey(obj: DataObject, columns: readonly string[]): boolean {
  const cols = new Set(columns);
  const names = (fields: readonly string[]) => fields.map((n) => obj.fields.find((f) => f.name === n)?.column ?? n);
  const same = (key: readonly string[]) => key.length > 0 && key.length === cols.size && names(key).every((c) => cols.has(c));
  return same(obj.pk) || obj.uniques.some((u) => same(u.fields));
}

/** `inner: true`: the parent row exists only with related rows (the relation's own filter included). */
function existsRelated(ctx: PlanContext, sel: SelectNode): FilterNode {
  void ctx;
  const where = [sel.correlate, sel.pre?.where, sel.where].filter((x): x is FilterNode => !!x);
  return { kind: 'exists', from: sel.from, where: where.length === 1 ? where[0]! : { kind: 'and', items: where } };
}

function planRelationList(
  ctx: PlanContext, target: DataObject, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[], args: Args, corr: FilterNode,
): SelectNode {
  const base = planSelect(ctx, target, alias, type, nodes, { filter: args.filter, distinct_on: args.distinct_on, args: args.args }, corr);
  const wholeOrder = orderItems(ctx, base, args.order_by as OrderArg[] | undefined, target);
  const nestedOrder = args.nested_order_by ? orderItems(ctx, base, args.nested_order_by as OrderArg[], target) : wholeOrder;
  const hasWhole = args.limit !== undefined && args.limit !== null || (args.offset !== undefined && args.offset !== null && args.offset !== 0);
  return {
    ...base,
    ...(hasWhole ? { pre: { ...(base.where ? { where: base.where } : {}), orderBy: wholeOrder, limit: (args.limit as number | null) ?? undefined, offset: (args.offset as number | null) ?? undefined } } : {}),
    ...(hasWhole ? { where: undefined } : {}),
    correlate: corr,
    orderBy: nestedOrder,
    limit: (args.nested_limit as number | null) ?? undefined,
    offset: (args.nested_offset as number | null) ?? undefined,
    emptyAsNull: !args.inner,
  };
}

/** Resolves an `order_by` path over the selected fields and aliases (SPEC §4). */
function orderExpr(ctx: PlanContext, sel: SelectNode, path: string[], full: string, objName: string): { expr: Expr; notNull: boolean } {
  const [head, ...rest] = path;
  const f = sel.fields.find((x) => x.key === head);
  if (!f) {
    orderDenied(ctx, sel, head!);
    throw new PublicError(ErrorCode.BadUserInput, `order_by field "${full}" of "${objName}" is not selected`);
  }
  if (f.kind === 'scalar' && rest.length === 0) {
    if (f.origin) ctx.access.useField(f.origin.object, f.origin.field, 'order');
    return { expr: f.expr, notNull: f.notNull === true };
  }
  // An N:1 path is null when no related row is visible, whatever its column says.
  if (f.kind === 'object' && rest.length) return { expr: { kind: 'subquery', select: f.select, value: orderExpr(ctx, f.select, rest, full, objName).expr }, notNull: false };
  if (f.kind === 'remote') throw new PublicError(ErrorCode.BadUserInput, `order_by field "${full}" of "${objName}" is in another source: across sources rows are ordered within each source only`);
  // An @unnest relation is joined (inner): its columns order the joined rows directly.
  if (f.kind === 'unnest' && rest.length) return orderExpr(ctx, f.select, rest, full, objName);
  if (f.kind === 'aggregate' && rest.length) {
    const value = aggregateOrderExpr(f.node, rest);
    if (value) return { expr: value, notNull: false };
  }
  throw new PublicError(ErrorCode.BadUserInput, `order_by field "${full}" of "${objName}" must name a selected scalar field or an N:1 relation path`);
}

/**
 * `orders_aggregation.total.sum` / `orders_aggregation._rows_count` (hugr's sorting page): the
 * selected aggregate of a relation, recomputed per parent as a scalar subquery over the same related
 * rows. Only plain aggregations of unlimited rows qualify (buckets, distinct or ordered values do not).
 */
function aggregateOrderExpr(node: AggregateNode, path: readonly string[]): Expr | undefined {
  const rows = node.rows;
  if (node.groupBy || node.joins.length || rows.limit !== undefined || rows.offset !== undefined || rows.distinctOn || rows.pre) return undefined;
  let outs: readonly AggOut[] = node.fields;
  let item: AggOut | undefined;
  for (const [i, key] of path.entries()) {
    item = outs.find((o) => o.key === key);
    if (item?.kind === 'object' && i < path.length - 1) outs = item.fields;
    else if (i < path.length - 1) return undefined;
  }
  if (!item || (item.kind !== 'count' && item.kind !== 'agg') || item.distinct || (item.kind === 'agg' && item.order)) return undefined;
  const where = [rows.correlate, rows.where, item.filter].filter((x): x is FilterNode => !!x);
  return {
    kind: 'agg_subquery', from: rows.from, where: where.length === 1 ? where[0]! : { kind: 'and', items: where },
    fn: item.kind === 'count' ? 'count' : item.fn, ...(item.arg ? { arg: item.arg } : {}),
  };
}

/**
 * Response paths (below the list, without row indexes) of the fields planned out of `sel` and its
 * nested selections because the role may not use them. /ipc streams rows without running field
 * resolvers, so it reports each once from here (issue 31); /query answers them row by row.
 */
export function deniedPaths(sel: SelectNode, prefix: readonly string[] = []): string[][] {
  const out = [...(plannedFrom.get(sel.fields)?.denied.keys() ?? [])].map((k) => [...prefix, k]);
  for (const f of sel.fields) {
    if (f.kind === 'object' || f.kind === 'array' || f.kind === 'unnest') out.push(...deniedPaths(f.select, [...prefix, f.key]));
  }
  return out;
}

/** `order_by` naming a field the role may not use (selected or not) is forbidden, naming the field. */
function orderDenied(ctx: PlanContext, sel: SelectNode, key: string): void {
  const from = plannedFrom.get(sel.fields);
  if (!from) return;
  const name = from.denied.get(key) ?? key;
  const known = from.object.fields.some((x) => x.name === name) || from.object.relations.some((r) => r.name === name);
  if (!known) return;
  ctx.access.useField(from.object.name, name, 'order');
  if (from.denied.has(key)) throw forbidden(`field "${from.object.name}.${name}" may not be used by role "${ctx.access.role}"`);
}

function orderItems(ctx: PlanContext, sel: SelectNode, order: OrderArg[] | undefined | null, obj: DataObject): OrderItem[] {
  return (order ?? []).map((o) => {
    const { expr, notNull } = orderExpr(ctx, sel, o.field.split('.'), o.field, obj.name);
    return { expr, desc: o.direction === 'DESC', ...(notNull ? { notNull } : {}) };
  });
}

/** Plans the rows of `obj` under `alias` with the list arguments of SPEC §4. */
export function planSelect(
  ctx: PlanContext, obj: DataObject, alias: string, type: GraphQLObjectType, nodes: readonly FieldNode[], args: Args,
  /** What the caller reads of these rows besides the fields (a relation's correlation): a cube keeps those columns. */
  keep?: FilterNode,
): SelectNode {
  const planned = planFields(ctx, obj, alias, type, nodes);
  const where: FilterNode[] = [...planned.extraWhere];
  const g = guard(ctx, obj, alias);
  if (g) where.push(g);
  const filter = args.filter as Args | undefined | null;
  if (filter) where.push(planFilter(ctx, obj, alias, filter));
  const distinct = (args.distinct_on as string[] | undefined | null)?.map((name) => {
    const f = obj.fields.find((x) => x.name === name);
    if (!f) throw new PublicError(ErrorCode.BadUserInput, `distinct_on field "${name}" is not a field of "${obj.name}"`);
    return fieldExpr(ctx, obj, alias, f, 'order');
  });
  // similarity: the nearest rows first, at most its limit (the query's own limit may cut further).
  const near = similarityOf(ctx, obj, alias, args.similarity);
  if (near) where.push(near.where);
  const limit = near ? Math.min(near.limit, typeof args.limit === 'number' ? args.limit : near.limit) : args.limit;
  const from = fromFor(ctx, obj, alias, args.args as Record<string, unknown> | null | undefined);
  const filtered: FilterNode | undefined = where.length ? (where.length === 1 ? where[0]! : { kind: 'and', items: where }) : undefined;
  // A cube selecting aggregated measurements reads its groups: filters apply to the rows before.
  const grouped = obj.cube ? cubeRows(from, planned.fields, filtered, [keep, distinct, planned.joins]) : undefined;
  if (grouped) plannedFrom.set(grouped.fields, plannedFrom.get(planned.fields)!);
  const sel: SelectNode = {
    kind: 'select',
    from: grouped?.from ?? from,
    fields: grouped?.fields ?? planned.fields,
    ...(planned.joins.length ? { joins: planned.joins } : {}),
    ...(filtered && !grouped ? { where: filtered } : {}),
    orderBy: [],
    ...(typeof limit === 'number' ? { limit } : {}),
    ...(typeof args.offset === 'number' ? { offset: args.offset } : {}),
    ...(distinct?.length ? { distinctOn: distinct } : {}),
  };
  const order = orderItems(ctx, sel, args.order_by as OrderArg[] | undefined, obj);
  return { ...sel, orderBy: near ? [near.order, ...order] : order };
}

/** @filter_required: a query of the object must filter on these fields. */
export function checkRequiredFilters(obj: DataObject, filter: Args | undefined | null): void {
  for (const f of obj.fields) {
    if (f.filterRequired && !filterNames(filter, f.name)) {
      throw new PublicError(ErrorCode.BadUserInput, `a query of "${obj.name}" must filter on "${f.name}"`);
    }
  }
}
