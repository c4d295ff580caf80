// Per-role rows of the `core.catalog` views (issue 17 item 2): a role sees in them only what its
// introspection shows. The access service decides what introspection shows (filterSchema over the
// served schema); the names it leaves are turned into row filters of each view, bound as one list
// parameter each, and ANDed in by the planner's guard like a permission filter.
import { type GraphQLSchema, getNamedType, isInputObjectType, isObjectType } from 'graphql';
import type { DataObject } from '../../catalog/model.js';
import type { Access } from '../../permissions/access.js';
import { filterSchema } from '../../permissions/schema-filter.js';
import type { PlanContext } from '../../planner/context.js';
import type { ColumnExpr, RawSqlExpr } from '../../planner/ir/expr.js';
import type { FilterNode } from '../../planner/ir/filter.js';
import type { SchemaIndex } from '../../schema/surface.js';
import { CATALOG_VIEWS_PREFIX } from './views.js';

interface Visible {
  readonly types: readonly string[];
  /** `Type.field` of object and input types. */
  readonly fields: readonly string[];
  readonly catalogs: readonly string[];
  readonly modules: readonly string[];
}

const ROOTS = ['Query', 'Mutation', 'Function', 'MutationFunction'];

function visibleOf(schema: GraphQLSchema, index: SchemaIndex, access: Access): Visible {
  const seen = filterSchema(schema, access);
  const types: string[] = [];
  const fields: string[] = [];
  for (const [name, t] of Object.entries(seen.getTypeMap())) {
    if (name.startsWith('__')) continue;
    types.push(name);
    if (isObjectType(t) || isInputObjectType(t)) for (const f of Object.keys(t.getFields())) fields.push(`${name}.${f}`);
  }
  const shown = new Set(fields);
  const catalogs = new Set<string>();
  for (const name of types) {
    const o = index.objects.get(name);
    if (o) catalogs.add(o.source);
  }
  for (const [coord, fn] of index.catalogFunctions) if (shown.has(coord)) catalogs.add(fn.source);
  // Modules: the module fields reachable from the roots the role sees (`core`, `core.meta`, ...).
  const modules = new Set<string>();
  const walk = (typeName: string, path: readonly string[]) => {
    const t = seen.getType(typeName);
    if (!isObjectType(t)) return;
    for (const f of Object.values(t.getFields())) {
      if (!index.modules.has(`${typeName}.${f.name}`) || f.name === 'jq' || (f.name === 'function' && !path.length)) continue;
      modules.add([...path, f.name].join('.'));
      walk(getNamedType(f.type).name, [...path, f.name]);
    }
  };
  for (const r of ROOTS) walk(r, []);
  return { types, fields, catalogs: [...catalogs], modules: [...modules] };
}

const cache = new WeakMap<GraphQLSchema, WeakMap<Access, Visible>>();

function visible(ctx: PlanContext): Visible {
  let bySchema = cache.get(ctx.schema);
  if (!bySchema) cache.set(ctx.schema, (bySchema = new WeakMap()));
  let v = bySchema.get(ctx.access);
  if (!v) bySchema.set(ctx.access, (v = visibleOf(ctx.schema, ctx.index, ctx.access)));
  return v;
}

/** `expr IN (the list)`, the list one bound parameter however long it is. */
function member(expr: ColumnExpr | RawSqlExpr, list: readonly string[]): FilterNode {
  return { kind: 'sql', expr: { kind: 'raw', parts: ['(', ...(expr.kind === 'raw' ? expr.parts : [expr]), ') IN (SELECT unnest(', { kind: 'param', value: list, scalar: 'String', list: true }, '))'] } };
}

const and = (items: FilterNode[]): FilterNode => ({ kind: 'and', items });

/**
 * The rows of a `core.catalog` view the caller's role may see, or undefined for admin without
 * rules (who sees everything) and for objects that are not catalog views.
 */
export function catalogRowScope(ctx: PlanContext, obj: DataObject, alias: string): FilterNode | undefined {
  if (ctx.access.unrestricted) return undefined;
  const view = obj.name.slice(CATALOG_VIEWS_PREFIX.length + 1);
  const col = (column: string): ColumnExpr => ({ kind: 'column', table: alias, column });
  const dotted = (a: string, b: string): RawSqlExpr => ({ kind: 'raw', parts: [col(a), " || '.' || ", col(b)] });
  const v = visible(ctx);
  switch (view) {
    case 'catalogs': return member(col('name'), v.catalogs);
    case 'catalog_dependencies': return and([member(col('catalog'), v.catalogs), member(col('depends_on'), v.catalogs)]);
    case 'types': return member(col('name'), v.types);
    case 'fields': return member(dotted('type_name', 'name'), v.fields);
    case 'arguments': return member(dotted('type_name', 'field_name'), v.fields);
    case 'enum_values': return member(col('type_name'), v.types);
    case 'data_objects': return member(col('name'), v.types);
    case 'data_object_queries': return and([member(col('object_name'), v.types), member(dotted('query_root', 'name'), v.fields)]);
    case 'modules': return member(col('name'), v.modules);
    case 'module_catalogs': return and([member(col('module'), v.modules), member(col('catalog'), v.catalogs)]);
    case 'module_intro': return member(dotted('type_name', 'field_name'), v.fields);
    default: return { kind: 'const', value: false };
  }
}
