// Boolean conditions of the IR (SPEC §4.1). Permission filters (SPEC §7) are the same nodes.
import type { ScalarName } from '../../catalog/model.js';
import type { ColumnExpr, Expr, ParamExpr } from './expr.js';
import type { FromNode } from './select.js';

export interface AndNode { readonly kind: 'and'; readonly items: readonly FilterNode[] }
export interface OrNode { readonly kind: 'or'; readonly items: readonly FilterNode[] }
export interface NotNode { readonly kind: 'not'; readonly item: FilterNode }

/** `left <op> right` for one scalar operator of the filter table. */
export interface CompareNode {
  readonly kind: 'compare';
  readonly op: string;
  readonly left: Expr;
  readonly right: ParamExpr;
  readonly scalar: ScalarName;
  readonly list: boolean;
}

/** `a.x = b.y`: correlation between a parent and a related row. */
export interface ColumnsEqualNode {
  readonly kind: 'columns_equal';
  readonly left: ColumnExpr;
  readonly right: ColumnExpr;
}

/** EXISTS (SELECT 1 FROM from WHERE where). */
export interface ExistsNode {
  readonly kind: 'exists';
  readonly from: FromNode;
  readonly where: FilterNode;
}

export interface ConstNode { readonly kind: 'const'; readonly value: boolean }

/** A catalog-authored condition (soft_delete_cond), columns already resolved. */
export interface SqlConditionNode { readonly kind: 'sql'; readonly expr: import('./expr.js').RawSqlExpr }

/**
 * `value` is one of the values `member` takes over the rows of the enclosing GROUP BY group (those
 * passing `filter`): the aggregate belongs to the outer, grouped query. Lets a subquery reach the
 * rows of one bucket without repeating its keys and joins.
 */
export interface InGroupNode { readonly kind: 'in_group'; readonly value: Expr; readonly member: Expr; readonly filter?: FilterNode }

/**
 * `_spatial`: the related row's geometry `other` stands in relation `type` to the parent's
 * `reference` (WITHIN: other lies within reference; CONTAINS: other contains it; DWITHIN: within
 * `buffer` metres). `buffer` with the other types widens the reference by that many metres first.
 */
export interface SpatialNode {
  readonly kind: 'spatial';
  readonly type: import('../../catalog/model.js').SpatialType;
  readonly reference: Expr;
  readonly other: Expr;
  readonly buffer?: number;
}

export type FilterNode = AndNode | OrNode | NotNode | CompareNode | ColumnsEqualNode | ExistsNode | ConstNode | SqlConditionNode | InGroupNode | SpatialNode;
