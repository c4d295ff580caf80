// Writes of the IR (SPEC §4.3).
import type { ColumnExpr, Expr, ParamExpr } from './expr.js';
import type { FilterNode } from './filter.js';

export interface InsertNode {
  readonly kind: 'insert';
  readonly table: readonly string[];
  readonly columns: readonly string[];
  readonly values: readonly (ParamExpr | Expr)[];
  /** Columns to return (primary key), so the row can be read back. */
  readonly returning: readonly string[];
}

export interface UpdateNode {
  readonly kind: 'update';
  readonly table: readonly string[];
  readonly alias: string;
  readonly set: readonly { readonly column: string; readonly value: ParamExpr | Expr }[];
  /** Catalog-authored assignments (soft_delete_set), written as the catalog has them. */
  readonly rawSet?: string;
  readonly where?: FilterNode;
}

export interface DeleteNode {
  readonly kind: 'delete';
  readonly table: readonly string[];
  readonly alias: string;
  readonly where?: FilterNode;
}

export type WriteNode = InsertNode | UpdateNode | DeleteNode;
export type { ColumnExpr };
