// `_service` and `_entities` of the subgraph (issue 20 item 4). A representation list is answered
// with one read per entity type, through that type's own list field: the same resolver, cache,
// permissions (object filters, field rules) and time zone as a client's query, and one statement
// per type however many representations the gateway sends.
import {
  type FieldNode, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema, GraphQLError, type SelectionNode,
  execute, getNamedType, isObjectType, isUnionType, Kind, parse, print,
} from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { accessOf, type AccessScope } from '../permissions/access.js';
import type { RoleSchemas } from '../permissions/schema-filter.js';
import { byResponseKey } from '../schema/by-response-key.js';
import type { SchemaIndex } from '../schema/surface.js';
import { ErrorCode } from '../shared/errors.js';
import { type Entity, subgraphSdl } from './subgraph.js';

/** The entity type of a row `_entities` answers (the `_Entity` union's resolveType reads it). */
const ENTITY_TYPE = Symbol('svc.entityType');
const KEY_PREFIX = 'svc_key_';
const FILTER_VARIABLE = 'svc_entities_filter';

/** Field names from Query down to each module type (`core { ... }`), so a list field inside a module can be reached. */
function modulePaths(schema: GraphQLSchema, index: SchemaIndex): Map<string, string[]> {
  const paths = new Map<string, string[]>([['Query', []]]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const coord of index.modules) {
      const [parent, field] = coord.split('.') as [string, string];
      const at = paths.get(parent);
      const type = (schema.getType(parent) as GraphQLObjectType | undefined)?.getFields()[field];
      if (!at || !type) continue;
      const child = getNamedType(type.type).name;
      if (!paths.has(child)) {
        paths.set(child, [...at, field]);
        grew = true;
      }
    }
  }
  return paths;
}

/** The selections of `_entities { ... }` that apply to `type` (its own fragments, `__typename`). */
function selectionsFor(type: string, nodes: readonly FieldNode[], info: GraphQLResolveInfo): SelectionNode[] {
  const applies = (cond: string | undefined) => cond === undefined || cond === type || cond === '_Entity';
  return nodes.flatMap((n) => n.selectionSet?.selections ?? []).filter((s) => {
    if (s.kind === Kind.INLINE_FRAGMENT) return applies(s.typeCondition?.name.value);
    if (s.kind === Kind.FRAGMENT_SPREAD) return applies(info.fragments[s.name.value]?.typeCondition.name.value);
    return true;
  });
}

/** WHERE the key fields match one of the representations: `in` for a one-field key, else an `_or` of rows. */
function keyFilter(entity: Entity, reps: readonly Record<string, unknown>[]): Record<string, unknown> {
  if (entity.keys.length === 1) {
    const k = entity.keys[0]!;
    return { [k]: { in: reps.map((r) => r[k]) } };
  }
  return { _or: reps.map((r) => Object.fromEntries(entity.keys.map((k) => [k, { eq: r[k] }]))) };
}

const keyOf = (entity: Entity, row: Record<string, unknown>, prefix: string) => JSON.stringify(entity.keys.map((k) => String(row[`${prefix}${k}`])));

function badRepresentation(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BadUserInput } });
}

/** Reads the rows of one entity type for its representations, in one statement. */
async function readEntities(entity: Entity, reps: readonly Record<string, unknown>[], path: readonly string[], ctx: RequestContext, info: GraphQLResolveInfo): Promise<Map<string, unknown>> {
  const [parent, listField] = entity.list.split('.') as [string, string];
  const field = (info.schema.getType(parent) as GraphQLObjectType).getFields()[listField]!;
  const filterType = String(field.args.find((a) => a.name === 'filter')!.type);
  const keys = entity.keys.map((k) => `${KEY_PREFIX}${k}: ${k}`).join(' ');
  const selections = selectionsFor(entity.type, info.fieldNodes, info).map((s) => print(s)).join(' ');
  const outerVariables = info.operation.variableDefinitions?.map((d) => print(d)) ?? [];
  const open = path.map((p) => `${p} { `).join('');
  const close = path.map(() => ' }').join('');
  const text = [
    `query (${[...outerVariables, `$${FILTER_VARIABLE}: ${filterType}`].join(', ')}) { ${open}rows: ${listField}(filter: $${FILTER_VARIABLE}, limit: ${reps.length}) { ${keys} ${selections} }${close} }`,
    ...Object.values(info.fragments).map((f) => print(f)),
  ].join('\n');
  const result = await execute({
    schema: info.schema, document: parse(text), contextValue: ctx, fieldResolver: byResponseKey,
    variableValues: { ...info.variableValues, [FILTER_VARIABLE]: keyFilter(entity, reps) },
  });
  // A denied field inside comes back as a null with "forbidden": the outer field guard raises the
  // same error at the entity's own path. Anything else fails the representations of this type.
  const failure = result.errors?.find((e) => e.extensions?.code !== ErrorCode.Forbidden && e.message !== 'forbidden');
  if (failure || !result.data) throw failure ?? result.errors?.[0] ?? new GraphQLError('entities could not be read');
  let rows: unknown = result.data;
  for (const p of [...path, 'rows']) rows = (rows as Record<string, unknown> | null)?.[p];
  const byKey = new Map<string, unknown>();
  for (const row of (rows as Record<string, unknown>[] | null) ?? []) {
    Object.defineProperty(row, ENTITY_TYPE, { value: entity.type });
    byKey.set(keyOf(entity, row, KEY_PREFIX), row);
  }
  return byKey;
}

/** Sets the resolvers of `_service`, `_entities` and `_Entity` on a schema built with federationSdl. */
export function attachFederation(schema: GraphQLSchema, index: SchemaIndex, scope: AccessScope, entities: ReadonlyMap<string, Entity>, served: () => { sdl: string; version: number }, roleSchemas?: RoleSchemas): void {
  const query = schema.getQueryType()!;
  const fields = query.getFields();
  const perRole = new WeakMap<GraphQLSchema, string>();
  const service = (schema.getType('_Service') as GraphQLObjectType).getFields();
  service.sdl!.resolve = (source: unknown) => source;
  // A role sees the SDL of its own schema, as introspection shows it (SPEC §7).
  fields._service!.resolve = ((_s: unknown, _a: unknown, ctx: RequestContext) => {
    const { sdl, version } = served();
    if (ctx.access.unrestricted || !roleSchemas) return sdl;
    const own = roleSchemas.get(schema, version, accessOf(ctx.access, scope));
    let text = perRole.get(own);
    if (text === undefined) perRole.set(own, (text = subgraphSdl(own, entities)));
    return text;
  }) as GraphQLFieldResolver<unknown, unknown>;
  if (!fields._entities) return;
  const union = schema.getType('_Entity');
  if (isUnionType(union)) union.resolveType = (value) => (value as Record<symbol, string>)[ENTITY_TYPE];
  const paths = modulePaths(schema, index);
  fields._entities.resolve = (async (_s: unknown, args: { representations: Record<string, unknown>[] }, ctx: RequestContext, info: GraphQLResolveInfo) => {
    const reps = args.representations;
    const byType = new Map<string, Record<string, unknown>[]>();
    for (const [i, r] of reps.entries()) {
      const type = r?.__typename;
      if (typeof type !== 'string') throw badRepresentation(`representation ${i} has no __typename`);
      const entity = entities.get(type);
      if (!entity || !isObjectType(schema.getType(type))) throw badRepresentation(`representation ${i}: "${type}" is not an entity of this subgraph`);
      const missing = entity.keys.find((k) => r[k] === undefined || r[k] === null);
      if (missing) throw badRepresentation(`representation ${i} of "${type}" has no value for its key field "${missing}"`);
      byType.set(type, [...(byType.get(type) ?? []), r]);
    }
    const found = new Map<string, Map<string, unknown>>();
    await Promise.all([...byType].map(async ([type, list]) => {
      const entity = entities.get(type)!;
      const path = paths.get(entity.list.split('.')[0]!);
      if (!path) throw badRepresentation(`"${type}" cannot be read from Query`);
      found.set(type, await readEntities(entity, list, path, ctx, info));
    }));
    // In the order of the representations; a row that does not exist (or the role's filter hides) is null.
    return reps.map((r) => found.get(r.__typename as string)!.get(keyOf(entities.get(r.__typename as string)!, r, '')) ?? null);
  }) as GraphQLFieldResolver<unknown, unknown>;
}
