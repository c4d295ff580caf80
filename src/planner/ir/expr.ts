// Scalar expressions of the IR. Frozen data with a `kind`; no behaviour (DESIGN.md §3.2).
import type { ColumnRead, ScalarName } from '../../catalog/model.js';

/** A column of a table alias in the statement. */
export interface ColumnExpr {
  readonly kind: 'column';
  readonly table: string;
  readonly column: string;
  /** A naive timestamp read as an instant in UTC (a Timestamp field, ColumnField.naive). */
  readonly instant?: boolean;
  /** A stored type the dialect reads itself (ColumnField.read). */
  readonly read?: ColumnRead;
  /** A 4-byte float (a list of them) whose value is shown: its shortest decimal (ColumnField.single). */
  readonly single?: 'value' | 'list';
  /** An integer or decimal column, aggregated (ColumnField.exact). */
  readonly exact?: boolean;
}

/** A value supplied by the client or the server: always a bound parameter. */
export interface ParamExpr {
  readonly kind: 'param';
  readonly value: unknown;
  readonly scalar: ScalarName;
  readonly list?: boolean;
  /** Written into a column the dialect reads itself (ColumnField.read): it writes the value back the same way. */
  readonly into?: ColumnRead;
}

/** Catalog-authored SQL (`@sql`), with `[field]` references already resolved to columns. */
export interface RawSqlExpr {
  readonly kind: 'raw';
  readonly parts: readonly (string | ColumnExpr | ParamExpr)[];
}

/** A scalar subquery returning one value (ordering by N:1 relation paths). */
export interface SubqueryExpr {
  readonly kind: 'subquery';
  readonly select: import('./select.js').SelectNode;
  readonly value: Expr;
}

/** `date_trunc(unit, expr)` for `bucket:` arguments (SPEC §4). */
export interface TruncExpr {
  readonly kind: 'trunc';
  readonly unit: string;
  readonly expr: Expr;
  /** The truncated field's type: a Date stays a Date. */
  readonly scalar: ScalarName;
}

/** `bucket_interval:` — the start of the fixed-width bin (from 2000-01-01 UTC) a time falls in. */
export interface TimeBinExpr {
  readonly kind: 'time_bin';
  readonly interval: ParamExpr;
  readonly expr: Expr;
  readonly scalar: ScalarName;
}

/** `_<f>_part(extract:, extract_divide:)`: a part of a time value, in the request's zone for timestamps. */
export interface ExtractExpr {
  readonly kind: 'extract';
  readonly part: string;
  readonly expr: Expr;
  readonly scalar: ScalarName;
  readonly divide?: number;
}

/** A value inside a JSON column at a dotted `path` (JSON aggregations, SPEC §4.2), read as `as`. */
export interface JsonPathExpr {
  readonly kind: 'json_path';
  readonly expr: Expr;
  readonly path: readonly string[];
  readonly as: 'json' | 'text' | 'number' | 'boolean';
  /** Text read as this type (dates, times) before comparing. */
  readonly cast?: ScalarName;
}

/** Geometry transforms of a Geometry field's arguments, applied in order (SPEC §4). */
export interface GeoTransformExpr {
  readonly kind: 'geo_transform';
  readonly expr: Expr;
  readonly transforms: readonly string[];
  readonly from?: number;
  readonly to?: number;
  readonly buffer?: number;
  readonly simplifyFactor?: number;
}

/** `_<f>_measurement(type:, transform:, from:, to:)` of a Geometry field. */
export interface GeoMeasureExpr {
  readonly kind: 'geo_measure';
  readonly expr: Expr;
  readonly type: string;
  readonly transform: boolean;
  readonly from?: number;
  readonly to?: number;
}

/**
 * The distance between a Vector column and a given vector (hugr's `_<f>_distance` fields and the
 * `similarity` argument): smaller is nearer for every metric (`Inner` is the negative inner product).
 */
export interface VectorDistanceExpr {
  readonly kind: 'vector_distance';
  readonly expr: Expr;
  readonly vector: ParamExpr;
  readonly distance: 'L2' | 'Cosine' | 'Inner';
}

/** A catalog function called with row values (`@function_call`): positional or an `sql` template. */
export interface FunctionExpr {
  readonly kind: 'fn';
  readonly name?: readonly string[];
  readonly args: readonly Expr[];
  readonly sql?: readonly (string | Expr | { readonly kind: 'ident'; readonly parts: readonly string[] })[];
  /** The catalog function called (catalog functionKey): sources that send requests rather than SQL (http) dispatch on it. */
  readonly function?: string;
}

/**
 * The H3 cell (hex text) at `resolution` of a geometry's centroid in WGS 84: the key of the root h3
 * query (SPEC §4.5). `cells`: where the database cannot compute cells, the server's map from
 * `geo_point_key` texts to cells, sent as one parameter.
 */
export interface H3CellExpr {
  readonly kind: 'h3_cell';
  readonly expr: Expr;
  readonly resolution: number;
  readonly cells?: Readonly<Record<string, string>>;
}

/** A geometry's centroid in WGS 84 as the text `x y`, printed by the database (the key `cells` maps). */
export interface GeoPointKeyExpr {
  readonly kind: 'geo_point_key';
  readonly expr: Expr;
}

/** An aggregate as a value: ordering buckets by `aggregations.*` paths. */
export interface AggRefExpr {
  readonly kind: 'agg_ref';
  readonly agg: import('./aggregate.js').AggOut;
  /** The aggregate lives in a nested aggregation subquery (a list relation's `items { total { sum } }`). */
  readonly within?: import('./aggregate.js').AggregateNode;
}

export type Expr = ColumnExpr | ParamExpr | RawSqlExpr | SubqueryExpr | TruncExpr | TimeBinExpr | ExtractExpr | JsonPathExpr | GeoTransformExpr | GeoMeasureExpr | VectorDistanceExpr | FunctionExpr | H3CellExpr | GeoPointKeyExpr | AggRefExpr | import('./aggregate.js').AggSubqueryExpr;
