// hugr's vector search (issue 32): `_<f>_distance(vector:, distance:)` fields of Vector columns and the
// `similarity: {name, vector, distance, limit}` argument of root queries and aggregations: the rows
// (after the filter) nearest to the vector, nearest first, at most `limit`.
import type { DataObject } from '../catalog/model.js';
import type { FieldUse } from '../permissions/access.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { PlanContext } from './context.js';
import { fieldExpr } from './fields.js';
import type { VectorDistanceExpr } from './ir/expr.js';
import type { FilterNode } from './ir/filter.js';
import type { OrderItem } from './ir/select.js';

const METRICS = new Set(['L2', 'Cosine', 'Inner']);

/** The distance of `obj.<field>` (a Vector column) to `vector` under `distance`. */
export function vectorDistance(ctx: PlanContext, obj: DataObject, alias: string, field: string, vector: unknown, distance: unknown, use: FieldUse): VectorDistanceExpr {
  const column = obj.fields.find((f) => f.name === field);
  if (!column || column.type !== 'Vector' || column.list) throw new PublicError(ErrorCode.BadUserInput, `"${field}" is not a Vector field of "${obj.name}"`);
  if (!METRICS.has(String(distance))) throw new PublicError(ErrorCode.BadUserInput, `unknown vector distance "${String(distance)}": use L2, Cosine or Inner`);
  if (!Array.isArray(vector) || !vector.length || vector.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
    throw new PublicError(ErrorCode.BadUserInput, `the vector for "${obj.name}.${field}" must be a non-empty list of numbers`);
  }
  if (column.dim !== undefined && vector.length !== column.dim) throw new PublicError(ErrorCode.BadUserInput, `the vector for "${obj.name}.${field}" has ${vector.length} elements, not ${column.dim} (@dim)`);
  return { kind: 'vector_distance', expr: fieldExpr(ctx, obj, alias, column, use), vector: { kind: 'param', value: vector, scalar: 'Vector' }, distance: String(distance) as VectorDistanceExpr['distance'] };
}

/**
 * `similarity:` as an order (nearest first), a row limit and a condition: rows without a vector have
 * no distance and are not among the nearest. Undefined without the argument.
 */
export function similarityOf(ctx: PlanContext, obj: DataObject, alias: string, arg: unknown): { order: OrderItem; limit: number; where: FilterNode } | undefined {
  if (arg === undefined || arg === null) return undefined;
  const s = arg as { name?: unknown; vector?: unknown; distance?: unknown; limit?: unknown };
  if (typeof s.limit !== 'number' || !Number.isInteger(s.limit) || s.limit < 0) throw new PublicError(ErrorCode.BadUserInput, 'similarity.limit must be a non-negative integer');
  const distance = vectorDistance(ctx, obj, alias, String(s.name), s.vector, s.distance, 'order');
  const where: FilterNode = { kind: 'compare', op: 'is_null', left: distance.expr, right: { kind: 'param', value: false, scalar: 'Vector' }, scalar: 'Vector', list: false };
  return { order: { expr: distance, desc: false }, limit: s.limit, where };
}
