// The select tree of one root field: each object level becomes a JSON object, each list level a
// JSON array, all inside one statement (SPEC §5).
import type { ScalarName } from '../../catalog/model.js';
import type { Expr } from './expr.js';
import type { FilterNode } from './filter.js';

/** A table or view of a source, or catalog SQL (`@view(sql:)`), under an alias. */
export interface FromNode {
  readonly kind: 'from';
  readonly alias: string;
  /** Qualified name parts, e.g. ['shop', 'main', 'orders']; empty when `sql` is set. */
  readonly name: readonly string[];
  /** `@view(sql:)` text with its placeholders as parameters. */
  readonly sql?: readonly (string | import('./expr.js').ParamExpr | { readonly kind: 'ident'; readonly parts: readonly string[] })[];
  /** The parents' keys of a cross-source level, as a table (src/planner/ir/remote.ts). */
  readonly keys?: import('./remote.js').KeysTable;
  /**
   * A cube's grouped rows (src/planner/cube.ts): `source` filtered by `where`, one row per group of
   * the columns without `agg`, the others aggregated; the derived table is named `alias`.
   */
  readonly group?: {
    readonly source: FromNode;
    readonly where?: FilterNode;
    readonly columns: readonly GroupColumn[];
  };
}

/** A column of a cube's grouped rows: a grouped value, or an aggregate (`count` with no `expr` counts rows). */
export interface GroupColumn {
  readonly name: string;
  readonly expr?: Expr;
  readonly agg?: import('./aggregate.js').AggFn;
  /** The aggregate's value is cast back to the field's scalar (the average of an Int measurement is an Int). */
  readonly cast?: ScalarName;
}

export interface OrderItem {
  readonly expr: Expr;
  readonly desc: boolean;
  /**
   * The value is never null (a stored column declared `!`): where nulls sort needs no saying, so
   * the database may walk an index in either direction (docs/sql.md, "Ordering and nulls").
   */
  readonly notNull?: boolean;
}

/** One key of an output object. */
export type OutField =
  | {
    readonly kind: 'scalar'; readonly key: string; readonly expr: Expr; readonly scalar: ScalarName; readonly list: boolean; readonly notNull?: boolean;
    /** The object field it reads, so ordering by it is asked of the access service too. */
    readonly origin?: { readonly object: string; readonly field: string };
  }
  | { readonly kind: 'const'; readonly key: string; readonly value: string | number | boolean | null }
  | { readonly kind: 'object'; readonly key: string; readonly select: SelectNode }
  | { readonly kind: 'array'; readonly key: string; readonly select: SelectNode }
  | { readonly kind: 'aggregate'; readonly key: string; readonly node: import('./aggregate.js').AggregateNode }
  /** An `@unnest` relation: the joined related row, as a one-element list. */
  | { readonly kind: 'unnest'; readonly key: string; readonly select: SelectNode }
  /** Rows of a table function called with this row's values (`@table_function_call_join`). */
  | { readonly kind: 'fn_rows'; readonly key: string; readonly call: import('./expr.js').FunctionExpr; readonly join: readonly { readonly parent: Expr; readonly column: string }[] }
  /** An object built from values of the same row (JSON `struct:` extraction); null when the column is. */
  | { readonly kind: 'json_object'; readonly key: string; readonly fields: readonly OutField[]; readonly nullWhen?: Expr }
  /** A cross-source level: the key values, answered by the executor (src/planner/ir/remote.ts). */
  | import('./remote.js').RemoteOutField;

export interface SelectNode {
  readonly kind: 'select';
  readonly from: FromNode;
  readonly fields: readonly OutField[];
  readonly where?: FilterNode;
  /** Applied to the rows as a whole, before correlation (SPEC §4 relation `limit`). */
  readonly pre?: { readonly where?: FilterNode; readonly orderBy: readonly OrderItem[]; readonly limit?: number; readonly offset?: number };
  /** Correlation with the parent row (applied after `pre`). */
  readonly correlate?: FilterNode;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: number;
  readonly offset?: number;
  readonly distinctOn?: readonly Expr[];
  /** A list relation with no rows is null, not [] (SPEC §4) unless inner. */
  readonly emptyAsNull?: boolean;
  /** At most one row can match (a key lookup): no LIMIT 1 is needed, which lets engines decorrelate plainly. */
  readonly unique?: boolean;
  /** `@unnest` list relations: their rows are joined to these rows (one output row per pair). */
  readonly joins?: readonly SelectNode[];
}

/** What a root field's statement returns. */
export type RootQuery =
  | { readonly kind: 'list'; readonly select: SelectNode }
  | { readonly kind: 'one'; readonly select: SelectNode }
  | { readonly kind: 'aggregate'; readonly node: import('./aggregate.js').AggregateNode }
  | FunctionCallNode;

/** A catalog function call (SPEC §4.4), the whole statement of a function field. */
export interface FunctionCallNode {
  readonly kind: 'call';
  /** The call: a qualified database function with its arguments, or an `sql` template. */
  readonly call: import('./expr.js').FunctionExpr;
  /** scalar / list of scalars / object (struct or JSON with json_cast) / rows of a table function. */
  readonly result: 'scalar' | 'object' | 'table';
  readonly scalar?: ScalarName;
  readonly list: boolean;
  readonly jsonCast: boolean;
  /**
   * An object result's members (the key its answer is read from, and the scalar, none for a nested
   * object): each is written as its scalar is everywhere else (a Timestamp in RFC 3339), not as the
   * database writes a struct member.
   */
  readonly members?: readonly { readonly key: string; readonly scalar?: ScalarName; readonly list: boolean }[];
  /** The most rows of a table function read (src/planner/row-cap.ts); none: all of them. */
  readonly limit?: number;
}
