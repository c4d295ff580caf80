// The rows a list, aggregation or bucket field works on: filter, order_by (over the object's own
// fields and N:1 paths, since aggregations select no rows), limit, offset, distinct_on.
import type { DataObject } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { PlanContext } from './context.js';
import { fieldExpr } from './fields.js';
import { andAll, correlation, fromFor, guard, objectOf, planFilter } from './filter.js';
import { localOnly } from './remote.js';
import { similarityOf } from './vector.js';
import type { Expr } from './ir/expr.js';
import type { FilterNode } from './ir/filter.js';
import type { OrderItem, SelectNode } from './ir/select.js';

export type Args = Record<string, unknown>;
export interface OrderArg {
  field: string;
  direction?: 'ASC' | 'DESC';
}

/** A column of `obj`, or a column reached through N:1 relations (`customer.name`). */
export function catalogPathExpr(ctx: PlanContext, obj: DataObject, alias: string, path: readonly string[], full: string): Expr {
  const [head, ...rest] = path;
  const f = obj.fields.find((x) => x.name === head);
  if (f && !rest.length) return fieldExpr(ctx, obj, alias, f, 'order');
  const rel = obj.relations.find((r) => r.name === head);
  if (rel && rel.kind === 'one' && rest.length) {
    ctx.access.useField(obj.name, rel.name, 'order');
    const target = objectOf(ctx, rel.target);
    localOnly(ctx, target, `order_by "${full}"`);
    const child = ctx.nextAlias();
    const g = guard(ctx, target, child);
    const select: SelectNode = { kind: 'select', from: fromFor(ctx, target, child), fields: [], orderBy: [], correlate: correlation(ctx, rel, alias, child), ...(g ? { where: g } : {}) };
    return { kind: 'subquery', select, value: catalogPathExpr(ctx, target, child, rest, full) };
  }
  throw new PublicError(ErrorCode.BadUserInput, `order_by field "${full}" is not a field or N:1 relation path of "${obj.name}"`);
}

export function rowsSelect(ctx: PlanContext, obj: DataObject, alias: string, args: Args, correlate?: FilterNode, withLimits = true): SelectNode {
  const filter = args.filter as Args | null | undefined;
  const order = (args.order_by as OrderArg[] | null | undefined) ?? [];
  const orderBy: OrderItem[] = withLimits ? order.map((o) => ({ expr: catalogPathExpr(ctx, obj, alias, o.field.split('.'), o.field), desc: o.direction === 'DESC' })) : [];
  const distinct = (args.distinct_on as string[] | null | undefined)?.map((name) => catalogPathExpr(ctx, obj, alias, [name], name));
  // similarity narrows the rows themselves (the nearest `limit`), for buckets too.
  const near = similarityOf(ctx, obj, alias, args.similarity);
  const where = andAll(filter ? planFilter(ctx, obj, alias, filter) : undefined, guard(ctx, obj, alias), near?.where);
  const limit = withLimits && typeof args.limit === 'number' ? (near ? Math.min(near.limit, args.limit) : args.limit) : near?.limit;
  return {
    kind: 'select',
    from: fromFor(ctx, obj, alias, args.args as Record<string, unknown> | null | undefined),
    fields: [],
    ...(where ? { where } : {}),
    ...(correlate ? { correlate } : {}),
    orderBy: near ? [near.order, ...orderBy] : orderBy,
    ...(typeof limit === 'number' ? { limit } : {}),
    ...(withLimits && typeof args.offset === 'number' && args.offset > 0 ? { offset: args.offset } : {}),
    ...(distinct?.length ? { distinctOn: distinct } : {}),
  };
}
