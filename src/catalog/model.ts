// The compiled form of a catalog: plain, frozen, JSON-serialisable data. Codegen writes it to
// src/generated/<source>/catalog.json; the runtime compiles it the same way for load_data_source.

export const SCALARS = [
  'String', 'Int', 'BigInt', 'Float', 'Boolean', 'Date', 'Time', 'Timestamp', 'DateTime', 'Interval',
  'JSON', 'Geometry', 'IntRange', 'BigIntRange', 'TimestampRange', 'H3Cell', 'Vector',
] as const;
export type ScalarName = (typeof SCALARS)[number];
export const isScalar = (name: string): name is ScalarName => (SCALARS as readonly string[]).includes(name);

/**
 * The name of a kind of data source (`duckdb`, `postgres`, ...): the kinds are listed in
 * src/sources/kinds.ts, above the catalog, which compiles every kind alike.
 */
export type SourceType = string;

export interface SourceInfo {
  readonly name: string;
  readonly type: SourceType;
  readonly prefix: string;
  readonly asModule: boolean;
  readonly readOnly: boolean;
  /**
   * Dotted module path an `as_module` source is placed under (default: its name). The system
   * modules use it: the engine views are the source `core.meta`, served at `{ core { meta } }`.
   */
  readonly module?: string;
}

export interface Location {
  readonly file: string;
  readonly line: number;
}

export interface FieldDefault {
  readonly value?: unknown;
  readonly sequence?: string;
  readonly insertExp?: string;
  readonly updateExp?: string;
}

export interface ColumnField {
  readonly name: string;
  /** Physical column name (`@field_source`), or the field name. */
  readonly column: string;
  /** JSON for struct-typed columns, whose `struct` names their (prefixed) structure type. */
  readonly type: ScalarName;
  readonly struct?: string;
  readonly list: boolean;
  readonly nonNull: boolean;
  readonly pk: boolean;
  /** `@sql(exp:)`: computed, never stored. `[field]` names columns of the same row. */
  readonly sql?: string;
  readonly default?: FieldDefault;
  readonly excludeFilter: readonly string[];
  readonly filterRequired: boolean;
  readonly description?: string;
  /** `@dim(len:)` of a Vector field: the vectors searched against it have this many elements. */
  readonly dim?: number;
  /** `@measurement` on a field of a `@cube` object: aggregated by the query's `measurement_func`. */
  readonly measurement?: boolean;
  /** `@timescale_key`: the time axis of a `@hypertable` object. */
  readonly timescaleKey?: boolean;
  readonly loc: Location;
  /**
   * A Timestamp field over a naive database timestamp (DuckDB or PostgreSQL `TIMESTAMP`): its
   * values are instants in UTC. Set when the source loads (src/sources/schema-check.ts), never by
   * the catalog compiler.
   */
  readonly naive?: boolean;
  /**
   * A column whose stored type has no JSON form the database writes right (MySQL `BIT(n)`, `YEAR`):
   * the dialect reads it as `read` says wherever the value is used. Set when the source loads
   * (src/sources/schema-check.ts), never by the catalog compiler.
   */
  readonly read?: ColumnRead;
  /**
   * A Float field over a 4-byte float column (ColumnKind `single`): shown as the shortest decimal that
   * reads back as the stored value (`1.1`, as the databases print it), not the double it widens to
   * (`1.100000023841858`); filters and orders compare the stored value. Set when the source loads
   * (src/sources/schema-check.ts), never by the catalog compiler.
   */
  readonly single?: boolean;
  /**
   * A field over an integer or decimal column: its average is the database's own avg(), which cannot
   * overflow there (a double's can: see the PostgreSQL dialect). Set when the source loads
   * (src/sources/schema-check.ts), never by the catalog compiler.
   */
  readonly exact?: boolean;
}

/**
 * How a column is read where its database type has no JSON form of its own: a `BIT(n)` as its `width`
 * binary digits (`"10100101"`, as PostgreSQL writes `bit(n)`) or as the unsigned number; a `YEAR` as
 * a number (MariaDB writes year 0 as `0000` into JSON).
 */
export type ColumnRead = { readonly kind: 'bits'; readonly width: number; readonly as: 'text' | 'number' } | { readonly kind: 'year' };

/**
 * The `measurement_func` values a `@measurement` field of each scalar takes (hugr's
 * `<Scalar>MeasurementAggregation` enums); other scalars are not measured.
 */
export const MEASUREMENT_FUNCS: Partial<Readonly<Record<ScalarName, readonly string[]>>> = {
  Int: ['SUM', 'AVG', 'MIN', 'MAX', 'ANY'],
  BigInt: ['SUM', 'AVG', 'MIN', 'MAX', 'ANY'],
  Float: ['SUM', 'AVG', 'MIN', 'MAX', 'ANY'],
  Boolean: ['ANY', 'OR', 'AND'],
  Date: ['MIN', 'MAX', 'ANY'],
  Timestamp: ['MIN', 'MAX', 'ANY'],
  DateTime: ['MIN', 'MAX', 'ANY'],
  Time: ['MIN', 'MAX', 'ANY'],
  String: ['ANY'],
};

/** A field a query may aggregate with `measurement_func`: `@measurement` on a `@cube`, of a measured scalar. */
export const isMeasured = (obj: Pick<DataObject, 'cube'>, f: ColumnField): boolean => !!obj.cube && !!f.measurement && !f.list && !f.struct && !!MEASUREMENT_FUNCS[f.type];

export type RelationKind = 'one' | 'many' | 'm2m';

export interface Relation {
  /** Field name on the owning object. */
  readonly name: string;
  readonly kind: RelationKind;
  /** GraphQL type name of the related object. */
  readonly target: string;
  /** Columns of the owner (physical names) matched to `targetFields`. */
  readonly sourceFields: readonly string[];
  readonly targetFields: readonly string[];
  /** For m2m: the junction object, its columns matching the owner, and its columns matching the target. */
  readonly via?: { readonly object: string; readonly ownerFields: readonly string[]; readonly targetFields: readonly string[] };
  /**
   * `@join(sql:)`: a condition ANDed to the column pairs, its `[source.f]` / `[dest.f]` already
   * resolved to physical columns of the owner and the target (SPEC §3.3).
   */
  readonly joinSql?: readonly JoinSqlPart[];
  /**
   * `_spatial(field:, type:, buffer:)`: related rows by a spatial relationship between the owner's
   * geometry column `source` and the target's `dest` (SPEC §4); a query-time relation only.
   */
  readonly spatial?: { readonly type: SpatialType; readonly source: string; readonly dest: string; readonly buffer?: number };
  /** `@join`: a declared join field; it has no back reference and is not filterable (SPEC §3.3). */
  readonly declared?: boolean;
  readonly description?: string;
}

/** GeometrySpatialQueryType (SPEC §4). */
export type SpatialType = 'INTERSECTS' | 'WITHIN' | 'CONTAINS' | 'DISJOIN' | 'DWITHIN';

export type JoinSqlPart = string | { readonly side: 'source' | 'dest'; readonly column: string };

export interface UniqueKey {
  readonly fields: readonly string[];
  readonly suffix: string;
  readonly skipQuery: boolean;
}

/** `@function_call` (SPEC §3.3): a field computed by a catalog function from the row's values. */
export interface FunctionCallField {
  readonly name: string;
  /** The function's source when it is another than the object's (an extension's cross-source call). */
  readonly source?: string;
  /** The function's name in the same catalog (`references_name`). */
  readonly function: string;
  /** Function argument -> field of this object. */
  readonly args: Readonly<Record<string, string>>;
  readonly type: string;
  readonly list: boolean;
  /** `@table_function_call_join`: rows of a table function matched to the row by these fields. */
  readonly join?: { readonly sourceFields: readonly string[]; readonly referencesFields: readonly string[] };
  readonly description?: string;
  readonly loc: Location;
}

export interface DataObject {
  /** GraphQL type name, with the source prefix. */
  readonly name: string;
  /** Name as written in the catalog (relations refer to it). */
  readonly localName: string;
  readonly source: string;
  readonly kind: 'table' | 'view';
  /** Table or view name in the database (may be schema-qualified: `sales.orders`). */
  readonly table: string;
  /** `@view(sql:)` */
  readonly sql?: string;
  readonly pk: readonly string[];
  readonly uniques: readonly UniqueKey[];
  readonly fields: readonly ColumnField[];
  readonly relations: readonly Relation[];
  readonly calls: readonly FunctionCallField[];
  /** Dotted module path ('' = the source's own placement). */
  readonly module: string;
  readonly isM2m: boolean;
  readonly softDelete?: { readonly cond?: string; readonly set?: string };
  readonly args?: { readonly input: string; readonly required: boolean };
  readonly readOnly: boolean;
  /**
   * `@cube`: a row query selecting a measurement with `measurement_func` (or `_rows_count`) groups
   * the rows by the other selected fields (src/planner/cube.ts).
   */
  readonly cube?: boolean;
  /** `@hypertable` (TimescaleDB in hugr): served as a table; its `@timescale_key` field is the time axis. */
  readonly hypertable?: boolean;
  /** `@cache` on the type: every query of the object is cached (SPEC §9). */
  readonly cache?: { readonly ttl?: number | string; readonly key?: string; readonly tags?: readonly string[] };
  readonly description?: string;
  readonly loc: Location;
}

export interface InputField {
  readonly name: string;
  readonly type: string;
  readonly list: boolean;
  readonly nonNull: boolean;
  /** `@named(name:)`: the parameter of the view's table function this field is passed to by name. */
  readonly named?: string;
}

export interface InputType {
  readonly name: string;
  readonly fields: readonly InputField[];
}

/** A plain object type (no @table/@view): function results and JSON structures. */
export interface StructType {
  readonly name: string;
  /** `source`: the key of the JSON answer the field is read from (`@field_source`), when not its name. */
  readonly fields: readonly { readonly name: string; readonly type: string; readonly list: boolean; readonly nonNull: boolean; readonly source?: string }[];
  readonly description?: string;
}

export interface FunctionArg {
  readonly name: string;
  readonly type: string;
  readonly list: boolean;
  readonly nonNull: boolean;
  /** `@arg_default(value:)`: injected by the server, hidden from clients. */
  readonly injected?: string;
  /** The SDL default (`limit: Int = 10`) as a GraphQL literal: GraphQL fills it in when the argument is left out. */
  readonly defaultValue?: string;
}

/** `extend type Function` / `extend type MutationFunction` fields with `@function` (SPEC §4.4). */
export interface CatalogFunction {
  readonly name: string;
  readonly source: string;
  readonly mutation: boolean;
  /** Dotted module path under the source's placement. */
  readonly module: string;
  /** Database function name (positional call) when there is no `sql`. */
  readonly dbName: string;
  readonly sql?: string;
  readonly args: readonly FunctionArg[];
  readonly returns: { readonly type: string; readonly list: boolean; readonly nonNull: boolean };
  readonly isTable: boolean;
  readonly jsonCast: boolean;
  readonly skipNullArg: boolean;
  /** `@cache` on the function field: its results are cached (SPEC §9). */
  readonly cache?: { readonly ttl?: number | string; readonly key?: string; readonly tags?: readonly string[] };
  readonly description?: string;
  readonly loc: Location;
}

/** A function's identity within its source (module, name, query or mutation): `@function(name:)` need not be unique. */
export const functionKey = (fn: Pick<CatalogFunction, 'module' | 'name' | 'mutation'>): string => `${fn.mutation ? 'mutation' : 'query'}:${fn.module}:${fn.name}`;

/**
 * An extension source (SPEC §3.1 `type: extension`): its SDL changes other sources' objects. It is
 * compiled again against the served catalogs at every schema build (src/catalog/extension.ts), so a
 * dependency reloaded with a changed catalog is met as it is now.
 */
export interface ExtensionInfo {
  readonly files: readonly { readonly file: string; readonly text: string }[];
  /** `@dependency(name)` plus the sources of the objects it extends or names. */
  readonly dependencies: readonly string[];
}

export interface ResolvedCatalog {
  readonly source: SourceInfo;
  readonly extension?: ExtensionInfo;
  readonly objects: readonly DataObject[];
  readonly inputs: readonly InputType[];
  readonly structs: readonly StructType[];
  readonly functions: readonly CatalogFunction[];
  /** Non-fatal findings (kept for describe_data_source_schema(log: true)). */
  readonly warnings: readonly string[];
}

/** Recursively freezes plain data (the IR and catalogs are immutable once built). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
