// The served schema as rows of the `_schema_*` tables (seed 001), split by the catalog each row
// belongs to. Rows of a catalog are rewritten when it loads; rows without a catalog (built-in
// scalars, root and module types) form the "system" part, rewritten when the served shape changes.
import {
  type GraphQLField, type GraphQLInputField, type GraphQLNamedType, type GraphQLSchema, type GraphQLType,
  getNamedType, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, print, astFromValue,
} from 'graphql';
import type { ResolvedCatalog } from '../../catalog/model.js';
import { aggregatableStructs, names, structAggregationName } from '../../schema/object-sdl.js';
import type { SchemaIndex } from '../../schema/surface.js';

export type Row = Record<string, unknown>;

/** One catalog's rows (or the system part's, `catalog` null). */
export interface CatalogRows {
  readonly types: Row[];
  readonly fields: Row[];
  readonly arguments: Row[];
  readonly enumValues: Row[];
  readonly dataObjects: Row[];
  readonly dataObjectQueries: Row[];
}

export interface SchemaRows {
  readonly byCatalog: Map<string, CatalogRows>;
  readonly system: CatalogRows;
  readonly modules: Row[];
  readonly moduleTypeCatalogs: Row[];
  readonly directives: Row[];
}

const ROOTS = { Query: 'query', Mutation: 'mutation', Function: 'function', MutationFunction: 'mut_function' } as const;
type RootKey = (typeof ROOTS)[keyof typeof ROOTS];

/** Root field kind (src/schema/surface.ts) -> `query_type` / field `hugr_type`. */
const QUERY_TYPES: Record<string, string> = {
  list: 'select', by_pk: 'select_one', unique: 'select_one', aggregation: 'aggregate', bucket_aggregation: 'bucket_aggregate',
  insert: 'insert', insert_batch: 'insert', update: 'update', delete: 'delete',
};

const emptyRows = (): CatalogRows => ({ types: [], fields: [], arguments: [], enumValues: [], dataObjects: [], dataObjectQueries: [] });

const kindOf = (t: GraphQLNamedType): string =>
  isObjectType(t) ? 'OBJECT' : isInputObjectType(t) ? 'INPUT_OBJECT' : isEnumType(t) ? 'ENUM' : isInterfaceType(t) ? 'INTERFACE' : isUnionType(t) ? 'UNION' : 'SCALAR';

const typeText = (t: GraphQLType): string => String(t);

interface TypeInfo {
  catalog: string | null;
  hugrType: string;
  module: string;
}

/** Which catalog owns each generated type, and what kind of type it is. */
function typeOwners(catalogs: readonly ResolvedCatalog[], modules: Map<string, { module: string; root: RootKey }>): Map<string, TypeInfo> {
  const out = new Map<string, TypeInfo>();
  for (const c of catalogs) {
    const base = c.source.asModule ? (c.source.module ?? c.source.name) : '';
    const moduleOf = (m: string) => [base, m].filter(Boolean).join('.');
    for (const o of c.objects) {
      const n = names(o.name);
      const module = moduleOf(o.module);
      const add = (name: string, hugrType: string) => out.set(name, { catalog: c.source.name, hugrType, module });
      add(o.name, o.kind);
      add(n.filter, 'filter');
      add(n.listFilter, 'filter_list');
      add(n.mutInput, 'mut_input');
      add(n.mutData, 'mut_data');
      add(n.aggregation, 'aggregation');
      add(n.bucket, 'bucket_aggregation');
      add(n.subAggregation, 'sub_aggregation');
    }
    const structAggs = aggregatableStructs(c.structs, c.objects);
    for (const s of c.structs) {
      out.set(s.name, { catalog: c.source.name, hugrType: 'object', module: moduleOf('') });
      out.set(`${s.name}_filter`, { catalog: c.source.name, hugrType: 'filter', module: moduleOf('') });
      if (structAggs.has(s.name)) out.set(structAggregationName(s.name), { catalog: c.source.name, hugrType: 'aggregation', module: moduleOf('') });
    }
    for (const i of c.inputs) out.set(i.name, { catalog: c.source.name, hugrType: 'input', module: moduleOf('') });
  }
  for (const [type, m] of modules) out.set(type, { catalog: null, hugrType: 'module', module: m.module });
  for (const root of Object.keys(ROOTS)) out.set(root, { catalog: null, hugrType: 'module', module: '' });
  return out;
}

/** Module root types reachable from the four roots: type name -> dotted module path and root kind. */
function moduleTypes(schema: GraphQLSchema, index: SchemaIndex): Map<string, { module: string; root: RootKey }> {
  const out = new Map<string, { module: string; root: RootKey }>();
  const walk = (typeName: string, path: string[], root: RootKey) => {
    const t = schema.getType(typeName);
    if (!isObjectType(t)) return;
    for (const f of Object.values(t.getFields())) {
      if (!index.modules.has(`${typeName}.${f.name}`) || f.name === 'jq') continue;
      const child = getNamedType(f.type).name;
      if (f.name === 'function' && !path.length) continue;
      out.set(child, { module: [...path, f.name].join('.'), root });
      walk(child, [...path, f.name], root);
    }
  };
  for (const [rootName, root] of Object.entries(ROOTS)) walk(rootName, [], root);
  return out;
}

function argRow(typeName: string, fieldName: string, a: { name: string; type: GraphQLType; description?: string | null | undefined; defaultValue?: unknown }, i: number): Row {
  const def = a.defaultValue === undefined ? null : astFromValue(a.defaultValue, a.type as never);
  return {
    type_name: typeName, field_name: fieldName, name: a.name, arg_type: typeText(a.type), arg_type_name: getNamedType(a.type).name,
    default_value: def ? print(def) : null, description: a.description ?? '', ordinal: i,
  };
}

/** Every named type and field of the served schema, as rows, by owning catalog. */
export function schemaRows(schema: GraphQLSchema, index: SchemaIndex, catalogs: readonly ResolvedCatalog[]): SchemaRows {
  const modules = moduleTypes(schema, index);
  const owners = typeOwners(catalogs, modules);
  const byCatalog = new Map<string, CatalogRows>(catalogs.map((c) => [c.source.name, emptyRows()]));
  const system = emptyRows();
  const part = (catalog: string | null) => (catalog === null ? system : byCatalog.get(catalog) ?? system);
  const moduleTypeCatalogs = new Set<string>();

  /** The catalog a root or module field comes from: its data object's, or its function's. */
  const fieldCatalog = (coord: string): { catalog: string | null; hugrType: string } => {
    const root = index.roots.get(coord);
    if (root) return { catalog: index.objects.get(root.object)?.source ?? null, hugrType: QUERY_TYPES[root.kind] ?? '' };
    const fn = index.catalogFunctions.get(coord);
    if (fn) return { catalog: fn.source, hugrType: fn.mutation ? 'mut_function' : 'function' };
    if (index.functions.has(coord)) return { catalog: null, hugrType: coord.includes('Mutation') || coord.includes('_mut_function') ? 'mut_function' : 'function' };
    return { catalog: null, hugrType: index.modules.has(coord) ? 'submodule' : '' };
  };

  for (const t of Object.values(schema.getTypeMap())) {
    if (t.name.startsWith('__')) continue;
    const info = owners.get(t.name) ?? { catalog: null, hugrType: '', module: '' };
    const rows = part(info.catalog);
    rows.types.push({
      name: t.name, kind: kindOf(t), description: t.description ?? '', hugr_type: info.hugrType, module: info.module, catalog: info.catalog,
      interfaces: isObjectType(t) ? t.getInterfaces().map((i) => i.name).join(',') : '',
      union_types: isUnionType(t) ? t.getTypes().map((u) => u.name).join(',') : '',
    });
    if (isEnumType(t)) {
      t.getValues().forEach((v, i) => rows.enumValues.push({ type_name: t.name, name: v.name, description: v.description ?? '', ordinal: i }));
    }
    if (!isObjectType(t) && !isInputObjectType(t)) continue;
    const object = index.objects.get(t.name);
    const fields = Object.values(t.getFields()) as (GraphQLField<unknown, unknown> | GraphQLInputField)[];
    fields.forEach((f, i) => {
      const container = info.hugrType === 'module';
      const owner = container ? fieldCatalog(`${t.name}.${f.name}`) : { catalog: info.catalog, hugrType: object ? (object.fields.some((c) => c.name === f.name) ? 'column' : 'relation') : '' };
      if (container && owner.catalog) moduleTypeCatalogs.add(`${t.name}\u0000${owner.catalog}`);
      const target = part(owner.catalog);
      target.fields.push({
        type_name: t.name, name: f.name, field_type: typeText(f.type), field_type_name: getNamedType(f.type).name,
        description: f.description ?? '', hugr_type: owner.hugrType, catalog: owner.catalog, dependency_catalog: null,
        is_pk: !!object?.pk.includes(f.name), ordinal: i,
      });
      if ('args' in f) f.args.forEach((a, j) => target.arguments.push(argRow(t.name, f.name, a, j)));
      const root = container ? index.roots.get(`${t.name}.${f.name}`) : undefined;
      if (root) target.dataObjectQueries.push({ name: f.name, object_name: root.object, query_root: t.name, query_type: QUERY_TYPES[root.kind] ?? '' });
    });
  }
  for (const o of index.objects.values()) {
    part(o.source).dataObjects.push({ name: o.name, filter_type_name: names(o.name).filter, args_type_name: o.args?.input ?? null });
  }
  const moduleRows = new Map<string, Row>();
  for (const [type, m] of modules) {
    const row = moduleRows.get(m.module) ?? { name: m.module, description: '', query_root: null, mutation_root: null, function_root: null, mut_function_root: null };
    row[`${m.root}_root`] = type;
    if (m.root === 'query') row.description = schema.getType(type)?.description ?? '';
    moduleRows.set(m.module, row);
  }
  const directives = schema.getDirectives().map((d) => ({
    name: d.name, description: d.description ?? '', locations: d.locations.join(','), is_repeatable: d.isRepeatable,
    arguments: JSON.stringify(d.args.map((a) => ({ name: a.name, type: typeText(a.type) }))),
  }));
  return {
    byCatalog, system, directives,
    modules: [...moduleRows.values()],
    moduleTypeCatalogs: [...moduleTypeCatalogs].map((k) => {
      const [type_name, catalog_name] = k.split('\u0000');
      return { type_name, catalog_name };
    }),
  };
}
