// `_module(name)` and `_dataObject(name)` (issue 18 item 9): root fields that describe the catalog the
// way clients of the established servers browse it: a module's submodules, data objects and
// functions; an object's kind, keys, arguments, queries, fields and relations. A role sees what
// `__type` shows it: the answers are read from the role's own schema (src/permissions/schema-filter.ts),
// and what that schema lacks is absent (an unknown or hidden name answers null).
import { getNamedType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema, isInputObjectType, isObjectType } from 'graphql';
import type { DataObject } from '../../catalog/model.js';
import type { RequestContext } from '../../executor/request-context.js';
import { type AccessScope, accessOf } from '../../permissions/access.js';
import type { RoleSchemas } from '../../permissions/schema-filter.js';
import type { SchemaIndex } from '../../schema/surface.js';


const ROOTS: Readonly<Record<string, keyof Kinds>> = { Query: 'queryType', Mutation: 'mutationType', Function: 'functionType', MutationFunction: 'mutationFunctionType' };
interface Kinds { queryType?: string; mutationType?: string; functionType?: string; mutationFunctionType?: string }

/** What the served schema says about modules, computed once per schema. */
interface Layout {
  /** Module type name -> dotted path. */
  readonly paths: ReadonlyMap<string, string>;
  /** Data object -> dotted module path (of its list field). */
  readonly objectModule: ReadonlyMap<string, string>;
}

function layoutOf(schema: GraphQLSchema, index: SchemaIndex): Layout {
  const paths = new Map<string, string>(Object.keys(ROOTS).map((t) => [t, '']));
  for (let grew = true; grew; ) {
    grew = false;
    for (const coord of index.modules) {
      const [parent, field] = coord.split('.') as [string, string];
      const parentPath = paths.get(parent);
      const type = (schema.getType(parent) as GraphQLObjectType | undefined)?.getFields()[field]?.type;
      if (parentPath === undefined || !type || field === 'jq' || field === 'function') continue;
      const name = getNamedType(type).name;
      if (paths.has(name)) continue;
      paths.set(name, parentPath ? `${parentPath}.${field}` : field);
      grew = true;
    }
  }
  const objectModule = new Map<string, string>();
  for (const [coord, root] of index.roots) if (root.kind === 'list') objectModule.set(root.object, paths.get(coord.split('.')[0]!) ?? '');
  return { paths, objectModule };
}

const layouts = new WeakMap<GraphQLSchema, Layout>();

export interface CatalogIntroDeps {
  readonly roleSchemas?: RoleSchemas;
  /** The served schema's access scope: the caller's rules are read against it, as __type's are. */
  readonly scope: AccessScope;
  readonly version: number;
}

export function attachCatalogIntro(schema: GraphQLSchema, index: SchemaIndex, deps: CatalogIntroDeps): void {
  const query = schema.getQueryType()!.getFields();
  const layout = (): Layout => {
    let l = layouts.get(schema);
    if (!l) layouts.set(schema, (l = layoutOf(schema, index)));
    return l;
  };
  const seen = (ctx: RequestContext): GraphQLSchema => deps.roleSchemas?.get(schema, deps.version, accessOf(ctx.access, deps.scope)) ?? schema;
  if (query._module) query._module.resolve = (_s, args: { name: string }, ctx: RequestContext) => moduleInfo(args.name.trim(), layout(), index, seen(ctx));
  if (query._dataObject) query._dataObject.resolve = (_s, args: { name: string }, ctx: RequestContext) => dataObjectInfo(args.name, layout(), index, seen(ctx));
}

/** Whether the role's schema has `Type.field`. */
const has = (role: GraphQLSchema, type: string, field: string): boolean => {
  const t = role.getType(type);
  return isObjectType(t) && field in t.getFields();
};

function visibleObject(obj: DataObject | undefined, index: SchemaIndex, role: GraphQLSchema): obj is DataObject {
  if (!obj || !isObjectType(role.getType(obj.name))) return false;
  return [...index.roots].some(([coord, r]) => r.object === obj.name && has(role, ...(coord.split('.') as [string, string])));
}

function ref(obj: DataObject, layout: Layout) {
  return { name: obj.name, type: obj.kind === 'table' ? 'TABLE' : 'VIEW', description: obj.description ?? null, moduleName: layout.objectModule.get(obj.name) ?? '', dataSourceName: obj.source };
}

function moduleInfo(name: string, layout: Layout, index: SchemaIndex, role: GraphQLSchema): unknown {
  const types = [...layout.paths].filter(([t, p]) => p === name && isObjectType(role.getType(t)));
  const children = new Set([...layout.paths.values()].filter((p) => p.startsWith(name ? `${name}.` : '') && p !== name).map((p) => p.slice(name ? name.length + 1 : 0).split('.')[0]!));
  if (!types.length && name !== '') return null;
  const kinds: Kinds = {};
  for (const [t] of types) {
    const root = ROOTS[t] ?? (t.endsWith('_mut_function') ? 'mutationFunctionType' : t.endsWith('_function') ? 'functionType' : t.endsWith('_mutation') ? 'mutationType' : 'queryType');
    kinds[root] = t;
  }
  const objects = [...index.objects.values()].filter((o) => layout.objectModule.get(o.name) === name && visibleObject(o, index, role));
  const functions = [...index.catalogFunctions, ...[...index.functions].map(([c]) => [c, undefined] as const)].flatMap(([coord, fn]) => {
    const [type, field] = coord.split('.') as [string, string];
    if (layout.paths.get(type) !== name || !has(role, type, field)) return [];
    const def = (role.getType(type) as GraphQLObjectType).getFields()[field]!;
    const mutation = type === 'MutationFunction' || type.endsWith('_mut_function');
    return [{ name: field, description: def.description ?? null, moduleName: name, dataSourceName: fn?.source ?? null, isMutation: mutation, isTable: fn?.isTable ?? false, type: def.type, args: def.args }];
  });
  const sub = [...children].sort().map((c) => moduleInfo(name ? `${name}.${c}` : c, layout, index, role)).filter((m) => m !== null);
  return {
    name,
    description: null,
    queryType: null, mutationType: null, functionType: null, mutationFunctionType: null, ...kinds,
    modules: sub,
    dataObjects: objects.map((o) => ref(o, layout)),
    functions,
  };
}

function fieldKind(obj: DataObject, name: string): string {
  if (obj.fields.some((f) => f.name === name)) return 'column';
  if (obj.relations.some((r) => r.name === name)) return 'relation';
  if (obj.relations.some((r) => name === `${r.name}_aggregation` || name === `${r.name}_bucket_aggregation`)) return 'aggregation';
  if (obj.calls.some((c) => c.name === name)) return 'function_call';
  return 'derived';
}

function dataObjectInfo(name: string, layout: Layout, index: SchemaIndex, role: GraphQLSchema): unknown {
  const obj = index.objects.get(name);
  if (!visibleObject(obj, index, role)) return null;
  const type = role.getType(obj.name) as GraphQLObjectType;
  const fields = Object.values(type.getFields()) as GraphQLField<unknown, unknown>[];
  const input = obj.args ? role.getType(obj.args.input) : undefined;
  const relations = obj.relations.flatMap((r) => {
    const target = index.objects.get(r.target);
    if (!visibleObject(target, index, role) || !(r.name in type.getFields())) return [];
    const via = r.via ? index.objects.get(r.via.object) : undefined;
    return [{
      name: r.name, kind: r.kind === 'one' ? 'one' : 'many', fieldName: r.name, description: r.description ?? null, dataObject: ref(target, layout),
      through: via && visibleObject(via, index, role) ? ref(via, layout) : null, sourceKeys: r.sourceFields, destinationKeys: r.targetFields,
    }];
  });
  const moduleName = layout.objectModule.get(obj.name) ?? '';
  return {
    ...ref(obj, layout),
    primaryKey: obj.pk,
    properties: { isM2M: obj.isM2m, softDelete: !!obj.softDelete, isParameterized: !!obj.args, readOnly: obj.kind !== 'table' || obj.readOnly },
    args: isInputObjectType(input) ? Object.values(input.getFields()) : [],
    queries: [...index.roots].filter(([coord, r]) => r.object === obj.name && has(role, ...(coord.split('.') as [string, string])))
      .map(([coord, r]) => ({ name: coord.split('.')[1]!, type: r.kind, rootTypeName: coord.split('.')[0]! })),
    fields: fields.map((f) => ({ name: f.name, description: f.description ?? null, kind: fieldKind(obj, f.name), type: f.type, args: f.args })),
    relations,
    module: moduleInfo(moduleName, layout, index, role),
  };
}
