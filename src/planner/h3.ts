// The root `h3(resolution)` query (SPEC §4.5): a data object's `_T_aggregation` per H3 cell. Each
// row counts in the cell of its geometry's centroid (WGS 84), so one object's aggregation is a
// bucket aggregation whose key is that cell: the rows, the role's row filter and the aggregated
// fields are planned exactly as the object's own aggregation plans them (aggFields, rowsSelect).
import type { FieldNode, GraphQLObjectType } from 'graphql';
import type { ColumnField, DataObject } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { aggFields, type Scope } from './aggregate.js';
import { planBuckets } from './buckets.js';
import type { PlanContext } from './context.js';
import { fieldExpr } from './fields.js';
import type { AggregateNode } from './ir/aggregate.js';
import type { Expr } from './ir/expr.js';
import { type Args, rowsSelect } from './rows.js';

/** Response keys of one cell's row in the statement's answer. */
export const H3_CELL_KEY = 'cell';
export const H3_DATA_KEY = 'data';

/** One `_h3_data_query` field: `<T>_aggregation` or `<T>_bucket_aggregation` (field, filter, inner, ...). */
export interface H3Aggregation {
  readonly obj: DataObject;
  /** The aggregation type (`_T_aggregation`) and the field nodes selecting it. */
  readonly type: GraphQLObjectType;
  readonly nodes: readonly FieldNode[];
  readonly args: Args;
  /** `<T>_bucket_aggregation`: a list of buckets per cell. */
  readonly buckets: boolean;
}

/** The geometry field the cells come from: `field:`, or the object's only Geometry field. */
export function h3GeometryField(obj: DataObject, name: unknown): ColumnField {
  const geometries = obj.fields.filter((f) => f.type === 'Geometry' && !f.list);
  if (name !== undefined && name !== null) {
    const f = geometries.find((g) => g.name === name);
    if (!f) throw new PublicError(ErrorCode.BadUserInput, `h3: "${String(name)}" is not a Geometry field of "${obj.name}" (${geometries.map((g) => g.name).join(', ')})`);
    return f;
  }
  if (geometries.length !== 1) throw new PublicError(ErrorCode.BadUserInput, `h3: "${obj.name}" has ${geometries.length} Geometry fields (${geometries.map((g) => g.name).join(', ')}): name one with field:`);
  return geometries[0]!;
}

export function checkResolution(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 15) throw new PublicError(ErrorCode.BadUserInput, `h3: resolution must be an integer from 0 to 15, not ${String(v)}`);
  return v;
}

/**
 * The rows of one object grouped by `key(geometry)`: the cell (with `fields`, the aggregation the
 * client selected) or, where the database cannot compute cells, the centroid the server maps to one.
 * `filter` is the client's filter already ANDed with the field rows that apply (resolvers).
 */
export function planH3Groups(ctx: PlanContext, a: H3Aggregation, alias: string, key: (geometry: Expr) => Expr, withData: boolean): AggregateNode {
  const geometry = h3GeometryField(a.obj, a.args.field);
  // Grouping by the geometry shows where rows are: asked as an aggregation use of the field.
  const expr = key(fieldExpr(ctx, a.obj, alias, geometry, 'aggregate'));
  const rowsOf = (x: string) => rowsSelect(ctx, a.obj, x, { filter: a.args.filter, args: a.args.args }, undefined, false);
  const rows = rowsOf(alias);
  const scope: Scope = { ctx, joins: [], inBuckets: true };
  return {
    kind: 'aggregate', rows, joins: scope.joins, groupBy: [expr], orderBy: [],
    fields: [
      { kind: 'value', key: H3_CELL_KEY, expr, scalar: 'String', list: false },
      ...(withData ? [{ kind: 'object' as const, key: H3_DATA_KEY, fields: aggFields(scope, a.obj, alias, a.type, a.nodes, rowsOf) }] : []),
    ],
  };
}

/**
 * `<T>_bucket_aggregation` in a cell: the object's own bucket aggregation, grouped by the cell
 * before its keys; each answered row is one bucket of one cell (the server lists them per cell).
 */
export function planH3Buckets(ctx: PlanContext, a: H3Aggregation, alias: string, key: (geometry: Expr) => Expr): AggregateNode {
  const expr = key(fieldExpr(ctx, a.obj, alias, h3GeometryField(a.obj, a.args.field), 'aggregate'));
  const node = planBuckets(ctx, a.obj, alias, a.type, a.nodes, { filter: a.args.filter, args: a.args.args, order_by: a.args.order_by });
  return {
    ...node, groupBy: [expr, ...(node.groupBy ?? [])],
    fields: [{ kind: 'value', key: H3_CELL_KEY, expr, scalar: 'String', list: false }, { kind: 'object', key: H3_DATA_KEY, fields: node.fields }],
  };
}
