// Aggregations of the IR (SPEC §4.2): one row of aggregates, or one row per bucket (GROUP BY).
import type { ScalarName } from '../../catalog/model.js';
import type { Expr, ParamExpr } from './expr.js';
import type { FilterNode } from './filter.js';
import type { FromNode, OrderItem, SelectNode } from './select.js';

export type AggFn = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'list' | 'any' | 'last' | 'string_agg' | 'bool_and' | 'bool_or' | 'union' | 'extent' | 'intersection';

/** An N:1 relation joined for aggregation or bucket keys; never changes the row count. */
export interface JoinNode {
  readonly from: FromNode;
  readonly on: FilterNode;
}

export type AggOut =
  | { readonly kind: 'count'; readonly key: string; readonly filter?: FilterNode; readonly arg?: Expr; readonly distinct?: boolean }
  | {
      readonly kind: 'agg'; readonly key: string; readonly fn: AggFn; readonly arg: Expr; readonly scalar: ScalarName;
      readonly distinct: boolean; readonly sep?: ParamExpr; readonly filter?: FilterNode;
      /** `aggregations(order_by:)`: the order of values for list, string_agg, any and last. */
      readonly order?: readonly OrderItem[];
    }
  /**
   * `nullUnless`: in a group, the object is null when no row has this expression non-null (a bucket
   * key through an N:1 relation whose related row is missing for the whole group).
   */
  | { readonly kind: 'object'; readonly key: string; readonly fields: readonly AggOut[]; readonly nullUnless?: Expr }
  /** A grouped value (bucket key), or any per-group expression. */
  | { readonly kind: 'value'; readonly key: string; readonly expr: Expr; readonly scalar: ScalarName; readonly list: boolean }
  /** An aggregate computed by its own subquery (a list relation aggregated over all parents). */
  | { readonly kind: 'nested'; readonly key: string; readonly node: AggregateNode };

export interface AggregateNode {
  readonly kind: 'aggregate';
  readonly rows: SelectNode;
  readonly joins: readonly JoinNode[];
  readonly fields: readonly AggOut[];
  /** Present for bucket aggregations. */
  readonly groupBy?: readonly Expr[];
  readonly orderBy: readonly OrderItem[];
  readonly limit?: number;
  readonly offset?: number;
}

/** `fn(arg)` over the related rows of one parent: a scalar subquery (sub-aggregations). */
export interface AggSubqueryExpr {
  readonly kind: 'agg_subquery';
  readonly from: FromNode;
  readonly where: FilterNode;
  readonly fn: AggFn;
  readonly arg?: Expr;
}
