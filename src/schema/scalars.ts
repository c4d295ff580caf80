// Shared scalar, enum and filter/aggregation types of the generated surface (SPEC §3.4, §4.1, §4.2).
import type { ScalarName } from '../catalog/model.js';

export const FILTER_OPERATORS: Readonly<Record<ScalarName, readonly string[]>> = {
  String: ['eq', 'in', 'like', 'ilike', 'regex', 'is_null'],
  Int: ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'is_null'],
  BigInt: ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'is_null'],
  Float: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'is_null'],
  Boolean: ['eq', 'is_null'],
  Date: ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'is_null'],
  Time: ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'is_null'],
  Timestamp: ['eq', 'gt', 'gte', 'lt', 'lte', 'is_null'],
  DateTime: ['eq', 'gt', 'gte', 'lt', 'lte', 'is_null'],
  Interval: ['eq', 'gt', 'gte', 'lt', 'lte', 'is_null'],
  JSON: ['eq', 'has', 'has_all', 'contains', 'is_null'],
  Geometry: ['eq', 'intersects', 'contains', 'st_within', 'is_null'],
  IntRange: ['eq', 'contains', 'intersects', 'includes', 'excludes', 'upper', 'lower', 'upper_inclusive', 'lower_inclusive', 'upper_inf', 'lower_inf', 'is_null'],
  BigIntRange: ['eq', 'contains', 'intersects', 'includes', 'excludes', 'upper', 'lower', 'upper_inclusive', 'lower_inclusive', 'upper_inf', 'lower_inf', 'is_null'],
  TimestampRange: ['eq', 'contains', 'intersects', 'includes', 'excludes', 'upper', 'lower', 'upper_inclusive', 'lower_inclusive', 'upper_inf', 'lower_inf', 'is_null'],
  H3Cell: ['eq', 'in', 'within', 'contains', 'grid_disk', 'resolution', 'is_null'],
  Vector: ['is_null'],
};

export const LIST_FILTER_OPERATORS = ['eq', 'contains', 'intersects', 'is_null'] as const;

const RANGE_ELEMENT: Partial<Record<ScalarName, ScalarName>> = { IntRange: 'Int', BigIntRange: 'BigInt', TimestampRange: 'Timestamp' };

/** The GraphQL type of an operator's operand. */
export function operandType(scalar: ScalarName, op: string, list = false): string {
  if (op === 'is_null' || op.endsWith('_inclusive') || op.endsWith('_inf')) return 'Boolean';
  if (list) return `[${scalar}!]`;
  if (op === 'in') return `[${scalar}!]`;
  if (op === 'has') return 'String';
  if (op === 'has_all') return '[String!]';
  if (op === 'st_within' || (scalar === 'Geometry' && op !== 'eq')) return 'Geometry';
  if (scalar === 'H3Cell' && op === 'grid_disk') return 'H3GridDisk';
  if (scalar === 'H3Cell' && op === 'resolution') return 'Int';
  // As hugr's IntRangeFilter: contains/excludes/upper/lower take one element, includes/intersects/eq a range.
  const element = RANGE_ELEMENT[scalar];
  if (element && (op === 'contains' || op === 'excludes' || op === 'upper' || op === 'lower')) return element;
  return scalar;
}

export const filterTypeName = (scalar: ScalarName, list = false): string => `${scalar}${list ? 'List' : ''}Filter`;

export function filterInputSdl(name: string, scalar: ScalarName, ops: readonly string[], list = false): string {
  return `input ${name} {\n${ops.map((op) => `  ${op}: ${operandType(scalar, op, list)}`).join('\n')}\n}`;
}

export const AGGREGATIONS: Readonly<Partial<Record<ScalarName, string>>> = {
  Int: 'count(distinct: Boolean = false): BigInt\n  sum: Float\n  avg: Float\n  min: Int\n  max: Int\n  list(distinct: Boolean = false): [Int]\n  any: Int\n  last: Int',
  BigInt: 'count(distinct: Boolean = false): BigInt\n  sum: BigInt\n  avg: Float\n  min: BigInt\n  max: BigInt\n  list(distinct: Boolean = false): [BigInt]\n  any: BigInt\n  last: BigInt',
  Float: 'count(distinct: Boolean = false): BigInt\n  sum: Float\n  avg: Float\n  min: Float\n  max: Float\n  list(distinct: Boolean = false): [Float]\n  any: Float\n  last: Float',
  String: 'count(distinct: Boolean = false): BigInt\n  string_agg(sep: String!, distinct: Boolean = false): String\n  list(distinct: Boolean = false): [String]\n  any: String\n  last: String',
  Boolean: 'count: BigInt\n  bool_and: Boolean\n  bool_or: Boolean\n  list(distinct: Boolean = false): [Boolean]\n  any: Boolean\n  last: Boolean',
  Date: 'count(distinct: Boolean = false): BigInt\n  min: Date\n  max: Date\n  list(distinct: Boolean = false): [Date]\n  any: Date\n  last: Date',
  Time: 'count(distinct: Boolean = false): BigInt\n  min: Time\n  max: Time\n  list(distinct: Boolean = false): [Time]\n  any: Time\n  last: Time',
  Timestamp: 'count(distinct: Boolean = false): BigInt\n  min: Timestamp\n  max: Timestamp\n  list(distinct: Boolean = false): [Timestamp]\n  any: Timestamp\n  last: Timestamp',
  DateTime: 'count(distinct: Boolean = false): BigInt\n  min: DateTime\n  max: DateTime\n  list(distinct: Boolean = false): [DateTime]\n  any: DateTime\n  last: DateTime',
  JSON: 'count(path: String): BigInt\n  sum(path: String!): Float\n  avg(path: String!): Float\n  min(path: String!): JSON\n  max(path: String!): JSON\n  list(path: String, distinct: Boolean = false): [JSON]\n  any(path: String): JSON\n  last(path: String): JSON\n  string_agg(path: String!, sep: String!, distinct: Boolean = false): String\n  bool_and(path: String!): Boolean\n  bool_or(path: String!): Boolean',
  Geometry: 'count: BigInt\n  list(distinct: Boolean = false): [Geometry]\n  any: Geometry\n  last: Geometry\n  intersection: Geometry\n  union: Geometry\n  extent: Geometry',
};

export const aggregationTypeName = (scalar: ScalarName): string => `${scalar}Aggregation`;
export const subAggregationTypeName = (scalar: ScalarName): string => `${scalar}SubAggregation`;

/** Scalars, enums and inputs every schema has, in a fixed order (codegen output is byte-stable). */
export function baseSdl(): string {
  const scalars = ['BigInt', 'Date', 'Time', 'Timestamp', 'DateTime', 'Interval', 'JSON', 'Geometry', 'IntRange', 'BigIntRange', 'TimestampRange', 'H3Cell', 'Vector'];
  const parts: string[] = scalars.map((s) => `scalar ${s}`);
  // Query-time directives (SPEC §4.5), declared so that documents using them validate.
  parts.push(
    '"Cache this field\'s result (SPEC §9)."\ndirective @cache(ttl: Int, key: String, tags: [String!]) on FIELD',
    '"Do not cache this field, even when its type is cached by default."\ndirective @no_cache on FIELD',
    '"Run the field and replace its cached result."\ndirective @invalidate_cache on FIELD',
    '"Report timings of this field or of the operation in extensions."\ndirective @stats on FIELD | QUERY | MUTATION',
    '"Include soft-deleted rows."\ndirective @with_deleted on FIELD',
    '"Return a list relation as joined rows."\ndirective @unnest on FIELD',
    '"Do not push this field down into the source\'s statement."\ndirective @no_pushdown on FIELD',
  );
  parts.push(
    'enum OrderDirection {\n  ASC\n  DESC\n}',
    'input OrderByField {\n  field: String!\n  direction: OrderDirection = ASC\n}',
    '"The cells within k steps of a cell (H3 grid disk), for the grid_disk filter of H3Cell."\ninput H3GridDisk {\n  cell: H3Cell!\n  k: Int! = 1\n}',
    'enum TimeBucket {\n  minute\n  hour\n  day\n  week\n  month\n  quarter\n  year\n}',
    'enum TimeExtract {\n  epoch\n  minute\n  hour\n  day\n  doy\n  dow\n  iso_dow\n  week\n  month\n  year\n  iso_year\n  quarter\n}',
    'enum GeometryTransform {\n  Transform\n  Centroid\n  Buffer\n  Simplify\n  SimplifyTopology\n  StartPoint\n  EndPoint\n  Reverse\n  FlipCoordinates\n  ConvexHull\n  Envelope\n}',
    'enum GeometryMeasurementTypes {\n  Area\n  AreaSpheroid\n  Length\n  LengthSpheroid\n  Perimeter\n  PerimeterSpheroid\n}',
    'enum GeometrySpatialQueryType {\n  INTERSECTS\n  WITHIN\n  CONTAINS\n  DISJOIN\n  DWITHIN\n}',
    'enum FilterOperator {\n  eq\n  ne\n  gt\n  gte\n  lt\n  lte\n  in\n  between\n  like\n  ilike\n  regex\n  is_null\n  contains\n  intersects\n  includes\n  excludes\n  upper\n  lower\n  upper_inclusive\n  lower_inclusive\n  upper_inf\n  lower_inf\n  within\n  has\n  has_all\n}',
    'type OperationResult {\n  success: Boolean\n  affected_rows: BigInt\n  last_id: BigInt\n  message: String\n}',
  );
  for (const [scalar, ops] of Object.entries(FILTER_OPERATORS) as [ScalarName, readonly string[]][]) {
    parts.push(filterInputSdl(filterTypeName(scalar), scalar, ops));
    if (scalar !== 'Vector' && scalar !== 'Geometry') parts.push(filterInputSdl(filterTypeName(scalar, true), scalar, LIST_FILTER_OPERATORS, true));
  }
  for (const [scalar, body] of Object.entries(AGGREGATIONS) as [ScalarName, string][]) {
    parts.push(`type ${aggregationTypeName(scalar)} {\n  ${body}\n}`);
    if (['Int', 'BigInt', 'Float'].includes(scalar)) {
      parts.push(`type ${subAggregationTypeName(scalar)} {\n  count: BigIntAggregation\n  sum: ${aggregationTypeName(scalar)}\n  avg: FloatAggregation\n  min: ${aggregationTypeName(scalar)}\n  max: ${aggregationTypeName(scalar)}\n}`);
    }
  }
  return parts.join('\n\n');
}
