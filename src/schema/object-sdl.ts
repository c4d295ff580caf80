// The types one data object contributes to the schema (SPEC §4): the object, its filters,
// mutation inputs and aggregation types.
import { type CatalogFunction, type ColumnField, type FunctionArg, type DataObject, isMeasured, isScalar, MEASUREMENT_FUNCS, type Relation, type ScalarName, type StructType } from '../catalog/model.js';
import { aggregationTypeName, AGGREGATIONS, FILTER_OPERATORS, filterInputSdl, filterTypeName, subAggregationTypeName } from './scalars.js';

const desc = (d: string | undefined, indent = ''): string => (d ? `${indent}${JSON.stringify(d)}\n` : '');

export const names = (n: string) => ({
  filter: `${n}_filter`,
  listFilter: `${n}_list_filter`,
  mutInput: `${n}_mut_input_data`,
  mutData: `${n}_mut_data`,
  aggregation: `_${n}_aggregation`,
  bucket: `_${n}_aggregation_bucket`,
  subAggregation: `_${n}_aggregation_sub_aggregation`,
});

function gqlType(f: ColumnField, input = false): string {
  // Struct-typed columns are their structure type on output, JSON on input.
  const t = f.struct && !input ? f.struct : f.type;
  return f.list ? `[${t}]` : t;
}

function columnArgs(obj: DataObject, f: ColumnField): string {
  if (f.list || f.struct) return '';
  // A cube's measurement takes the aggregate applied per group (hugr's `<Scalar>MeasurementAggregation`).
  const measured = isMeasured(obj, f) ? [`measurement_func: ${measurementEnum(f.type)}`] : [];
  const own = ((): string[] => {
    switch (f.type) {
      case 'Timestamp':
      case 'DateTime':
        return ['bucket: TimeBucket', 'bucket_interval: Interval'];
      case 'Date':
        return ['bucket: TimeBucket'];
      case 'JSON':
        return ['struct: JSON'];
      case 'Geometry':
        return ['transforms: [GeometryTransform!]', 'from: Int', 'to: Int', 'buffer: Float', 'simplify_factor: Float'];
      default:
        return [];
    }
  })();
  const args = [...own, ...measured];
  return args.length ? `(${args.join(', ')})` : '';
}

const measurementEnum = (scalar: ScalarName): string => `${scalar}MeasurementAggregation`;

/** The `measurement_func` enums of the scalars some cube measures (none without cubes, so other schemas stay as they were). */
export function measurementSdl(objects: readonly DataObject[]): string[] {
  const used = new Set(objects.flatMap((o) => o.fields.filter((f) => isMeasured(o, f)).map((f) => f.type)));
  return (Object.keys(MEASUREMENT_FUNCS) as ScalarName[]).filter((t) => used.has(t)).map((t) => `enum ${measurementEnum(t)} {\n  ${MEASUREMENT_FUNCS[t]!.join('\n  ')}\n}`);
}

/** `args: <Input>` of a parameterized view (`!` when required), or '' for other objects. */
export const viewArgs = (obj: DataObject): string => (obj.args ? `args: ${obj.args.input}${obj.args.required ? '!' : ''}` : '');

/** A function argument as the schema offers it, with its SDL default. */
export function functionArgSdl(a: FunctionArg): string {
  return `${a.name}: ${a.list ? `[${a.type}]` : a.type}${a.nonNull ? '!' : ''}${a.defaultValue !== undefined ? ` = ${a.defaultValue}` : ''}`;
}

export function listArgs(obj: DataObject, extra = '', root = false): string {
  const n = names(obj.name);
  const args = obj.args ? `, ${viewArgs(obj)}` : '';
  // Root queries and aggregations of an object with a Vector field search by similarity (hugr's vector search).
  const near = root && hasVector(obj) ? ', similarity: VectorSearchInput' : '';
  return `(filter: ${n.filter}, order_by: [OrderByField!], limit: Int = 2000, offset: Int = 0, distinct_on: [String!]${extra}${near}${args})`;
}

export const hasVector = (obj: DataObject): boolean => obj.fields.some((f) => f.type === 'Vector' && !f.list);

/** The vector search types, served when some object has a Vector field. */
export const VECTOR_SEARCH_SDL = [
  'enum VectorDistanceType {\n  L2\n  Cosine\n  Inner\n}',
  '"The rows nearest to a vector: by the Vector field `name`, at most `limit`, nearest first."\ninput VectorSearchInput {\n  name: String!\n  vector: Vector!\n  distance: VectorDistanceType!\n  limit: Int!\n}',
];

function relationFields(obj: DataObject, byName: Map<string, DataObject>): string[] {
  const lines: string[] = [];
  for (const r of obj.relations) {
    const target = byName.get(r.target);
    if (!target) continue;
    const d = desc(r.description, '  ');
    if (r.kind === 'one') {
      // A view with arguments behind the relation takes them here too (issue 18 item 1).
      lines.push(`${d}  ${r.name}(inner: Boolean = false${target.args ? `, ${viewArgs(target)}` : ''}): ${target.name}`);
      continue;
    }
    const nested = ', inner: Boolean = false, nested_order_by: [OrderByField!], nested_limit: Int, nested_offset: Int';
    const tn = names(target.name);
    const args = listArgs(target, nested).replace('limit: Int = 2000', 'limit: Int').replace('offset: Int = 0', 'offset: Int');
    lines.push(`${d}  ${r.name}${args}: [${target.name}]`);
    const aggArgs = listArgs(target).replace('limit: Int = 2000', 'limit: Int').replace('offset: Int = 0', 'offset: Int');
    lines.push(`  ${r.name}_aggregation${aggArgs}: ${tn.aggregation}`);
    lines.push(`  ${r.name}_bucket_aggregation${aggArgs}: [${tn.bucket}]`);
  }
  return lines;
}

function callFields(obj: DataObject, fns: ReadonlyMap<string, CatalogFunction>): string[] {
  return obj.calls.map((c) => {
    const fn = fns.get(`${c.source ?? obj.source}.${c.function}`);
    // Arguments not mapped to the row nor injected are arguments of the field (SPEC §3.3).
    const free = (fn?.args ?? []).filter((a) => !(a.name in c.args) && a.injected === undefined);
    const args = free.length ? `(${free.map(functionArgSdl).join(', ')})` : '';
    return `${desc(c.description, '  ')}  ${c.name}${args}: ${c.list ? `[${c.type}]` : c.type}`;
  });
}

function objectType(obj: DataObject, byName: Map<string, DataObject>, fns: ReadonlyMap<string, CatalogFunction>): string {
  const lines: string[] = [];
  for (const f of obj.fields) {
    lines.push(`${desc(f.description, '  ')}  ${f.name}${columnArgs(obj, f)}: ${gqlType(f)}${f.nonNull && !f.sql ? '!' : ''}`);
    if (!f.list && ['Timestamp', 'DateTime', 'Date'].includes(f.type)) lines.push(`  _${f.name}_part(extract: TimeExtract!, extract_divide: Int): BigInt`);
    if (!f.list && f.type === 'Geometry') lines.push(`  _${f.name}_measurement(type: GeometryMeasurementTypes!, transform: Boolean, from: Int, to: Int): Float`);
    if (!f.list && f.type === 'Vector') lines.push(`  "Distance to the vector (smaller is nearer; Inner: the negative inner product)"\n  _${f.name}_distance(vector: Vector!, distance: VectorDistanceType!): Float`);
  }
  // A cube counts the rows of each group (hugr's special-types page selects `_rows_count` beside measurements).
  if (obj.cube) lines.push('  "The number of rows in the group (a cube query groups by the other selected fields)."\n  _rows_count: BigInt');
  lines.push(...relationFields(obj, byName), ...callFields(obj, fns));
  // Query-time joins to any object (SPEC §4): `_join` by fields, `_spatial` by geometry.
  lines.push('  "Rows of any data object whose `fields` equal these fields of this row (a query-time join)."\n  _join(fields: [String!]!): _join');
  if (hasGeometry(obj)) lines.push('  "Rows of any data object with geometry in the relationship `type` to this row\'s `field`; `buffer` in metres."\n  _spatial(field: String!, type: GeometrySpatialQueryType!, buffer: Int): _spatial');
  return `${desc(obj.description)}type ${obj.name} {\n${lines.join('\n')}\n}`;
}

function fieldFilterType(obj: DataObject, f: ColumnField, extra: string[]): string {
  if (f.struct) return `${f.struct}_filter`;
  if (f.list) return filterTypeName(f.type, true);
  if (!f.excludeFilter.length) return filterTypeName(f.type);
  const name = `${obj.name}_${f.name}_filter`;
  extra.push(filterInputSdl(name, f.type, FILTER_OPERATORS[f.type].filter((o) => !f.excludeFilter.includes(o))));
  return name;
}

function filterTypes(obj: DataObject, byName: Map<string, DataObject>): string[] {
  const n = names(obj.name);
  const extra: string[] = [];
  const lines = [`  _and: [${n.filter}]`, `  _or: [${n.filter}]`, `  _not: ${n.filter}`];
  for (const f of obj.fields) if (f.type !== 'Vector' || !f.list) lines.push(`  ${f.name}: ${fieldFilterType(obj, f, extra)}`);
  for (const r of obj.relations) {
    const target = byName.get(r.target);
    // A filter cannot carry a view's arguments: views that require them are not filterable through
    // relations. Declared joins (`@join`) are not filterable (SPEC §3.3).
    if (!target || target.args?.required || r.declared) continue;
    lines.push(`  ${r.name}: ${r.kind === 'one' ? names(r.target).filter : names(r.target).listFilter}`);
  }
  return [
    `input ${n.filter} {\n${lines.join('\n')}\n}`,
    `input ${n.listFilter} {\n  any_of: ${n.filter}\n  all_of: ${n.filter}\n  none_of: ${n.filter}\n}`,
    ...extra,
  ];
}

const storable = (f: ColumnField): boolean => !f.sql;

function mutationInputs(obj: DataObject, byName: Map<string, DataObject>): string[] {
  const n = names(obj.name);
  const cols = obj.fields.filter(storable).map((f) => `  ${f.name}: ${gqlType(f, true)}`);
  const rels = obj.relations
    .filter((r: Relation) => byName.get(r.target)?.kind === 'table' && !r.declared && byName.get(r.target)?.source === obj.source)
    .map((r) => `  ${r.name}: ${r.kind === 'one' ? names(r.target).mutInput : `[${names(r.target).mutInput}!]`}`);
  return [`input ${n.mutInput} {\n${[...cols, ...rels].join('\n')}\n}`, `input ${n.mutData} {\n${cols.join('\n')}\n}`];
}

function aggregationTypes(obj: DataObject, byName: Map<string, DataObject>, structAggs: ReadonlySet<string>): string[] {
  const n = names(obj.name);
  const agg = ['  _rows_count: BigInt'];
  const sub = ['  _rows_count: BigIntAggregation'];
  for (const f of obj.fields) {
    // A structured column offers its nested fields with their scalars' aggregations (issue 18 item 2).
    if (f.struct && !f.list && structAggs.has(f.struct)) agg.push(`  ${f.name}: ${structAggregationName(f.struct)}`);
    if (f.list || f.struct || !AGGREGATIONS[f.type]) continue;
    agg.push(`  ${f.name}: ${aggregationTypeName(f.type)}`);
    // Generated fields aggregate too (hugr's generated fields page): parts of times, measurements of shapes.
    if (['Timestamp', 'DateTime', 'Date'].includes(f.type)) agg.push(`  _${f.name}_part(extract: TimeExtract!, extract_divide: Int): BigIntAggregation`);
    if (f.type === 'Geometry') agg.push(`  _${f.name}_measurement(type: GeometryMeasurementTypes!, transform: Boolean, from: Int, to: Int): FloatAggregation`);
    const numeric = (['Int', 'BigInt', 'Float'] as ScalarName[]).includes(f.type);
    sub.push(`  ${f.name}: ${numeric ? subAggregationTypeName(f.type) : aggregationTypeName(f.type)}`);
  }
  for (const r of obj.relations) {
    const t = byName.get(r.target);
    if (!t) continue;
    agg.push(`  ${r.name}${t.args ? `(${viewArgs(t)})` : ''}: ${names(t.name).aggregation}`);
    if (r.kind !== 'one') {
      const args = listArgs(t).replace('limit: Int = 2000', 'limit: Int').replace('offset: Int = 0', 'offset: Int');
      agg.push(`  ${r.name}_aggregation${args}: ${names(t.name).subAggregation}`);
    }
  }
  return [
    `type ${n.aggregation} {\n${agg.join('\n')}\n}`,
    `type ${n.subAggregation} {\n${sub.join('\n')}\n}`,
    `type ${n.bucket} {\n  key: ${obj.name}\n  aggregations(filter: ${n.filter}, order_by: [OrderByField!]): ${n.aggregation}\n}`,
  ];
}

export const hasGeometry = (obj: DataObject): boolean => obj.fields.some((f) => f.type === 'Geometry' && !f.list);

/**
 * `type _join` and `type _spatial` (SPEC §4): inside them every data object appears by its type
 * name with the list arguments of a relation, plus the fields (or geometry field) to match, with
 * aggregation twins.
 */
export function queryJoinSdl(objects: readonly DataObject[]): string[] {
  const fieldsOf = (match: string, only: (o: DataObject) => boolean) => objects.filter(only).flatMap((o) => {
    const n = names(o.name);
    const nested = ', inner: Boolean = false, nested_order_by: [OrderByField!], nested_limit: Int, nested_offset: Int';
    const list = listArgs(o, nested).replace('(', `(${match}, `).replace('limit: Int = 2000', 'limit: Int').replace('offset: Int = 0', 'offset: Int');
    const agg = listArgs(o).replace('(', `(${match}, `).replace('limit: Int = 2000', 'limit: Int').replace('offset: Int = 0', 'offset: Int');
    return [`  ${o.name}${list}: [${o.name}]`, `  ${o.name}_aggregation${agg}: ${n.aggregation}`, `  ${o.name}_bucket_aggregation${agg}: [${n.bucket}]`];
  });
  const out = [`type _join {\n${fieldsOf('fields: [String!]!', () => true).join('\n')}\n}`];
  const spatial = fieldsOf('field: String!', hasGeometry);
  if (spatial.length) out.push(`type _spatial {\n${spatial.join('\n')}\n}`);
  return out;
}

/** SDL of every type one data object contributes; `structAggs`: structures with an aggregation type. */
export function objectSdl(
  obj: DataObject, byName: Map<string, DataObject>, fns: ReadonlyMap<string, CatalogFunction> = new Map(), structAggs: ReadonlySet<string> = new Set(),
): string[] {
  const out = [objectType(obj, byName, fns), ...filterTypes(obj, byName), ...aggregationTypes(obj, byName, structAggs)];
  if (obj.kind === 'table' && !obj.readOnly) out.push(...mutationInputs(obj, byName));
  return out;
}

/** `input <struct>_filter`: a filter inside a struct-typed column (SPEC §4.1), field by field. */
export function structFilterSdl(st: StructType): string {
  const lines = st.fields.map((f) => {
    const t = isScalar(f.type) ? filterTypeName(f.type, f.list) : `${f.type}_filter`;
    return `  ${f.name}: ${t}`;
  });
  return `input ${st.name}_filter {\n${lines.join('\n')}\n}`;
}

export const structAggregationName = (struct: string): string => `_${struct}_aggregation`;

/**
 * Structures that get an aggregation type: those of struct-typed columns (and structures inside them)
 * with something to aggregate, a scalar field with aggregations or such a structure.
 */
export function aggregatableStructs(structs: readonly StructType[], objects: readonly DataObject[]): Set<string> {
  const byName = new Map(structs.map((st) => [st.name, st]));
  const out = new Set<string>();
  const visit = (st: StructType, seen: Set<string>): boolean => {
    if (out.has(st.name)) return true;
    if (seen.has(st.name)) return false;
    seen.add(st.name);
    const ok = st.fields.some((f) => !f.list && (isScalar(f.type) ? !!AGGREGATIONS[f.type] : !!byName.get(f.type) && visit(byName.get(f.type)!, seen)));
    if (ok) out.add(st.name);
    return ok;
  };
  for (const o of objects) {
    for (const f of o.fields) {
      const st = f.struct && !f.list ? byName.get(f.struct) : undefined;
      if (st) visit(st, new Set());
    }
  }
  return out;
}

/** `type _<struct>_aggregation`: the aggregations of each scalar field, nested structures alike. */
export function structAggregationSdl(st: StructType, structAggs: ReadonlySet<string>): string {
  const lines = st.fields.flatMap((f) => {
    if (f.list) return [];
    if (isScalar(f.type)) return AGGREGATIONS[f.type] ? [`  ${f.name}: ${aggregationTypeName(f.type)}`] : [];
    return structAggs.has(f.type) ? [`  ${f.name}: ${structAggregationName(f.type)}`] : [];
  });
  return `type ${structAggregationName(st.name)} {\n${lines.join('\n')}\n}`;
}
