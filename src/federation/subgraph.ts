// Apollo Federation 2 subgraph surface (issue 20 item 4, FEDERATION=true): every data object with a
// primary key and a list field is an entity keyed on its primary key fields. The served schema gets
// `_service` and `_entities` (the subgraph specification's names); `_service { sdl }` answers the
// schema with `@key` on the entities and the `@link` to the federation spec, which is also what
// codegen writes to schema.subgraph.graphql.
import { type DirectiveNode, type DocumentNode, type GraphQLSchema, Kind, parse, print, printSchema, type TypeNode, visit } from 'graphql';
import type { DataObject } from '../catalog/model.js';
import type { SchemaIndex } from '../schema/surface.js';

/** The version of the federation spec the SDL links to (composition 2.x understands it). */
export const FEDERATION_SPEC = 'https://specs.apollo.dev/federation/v2.3';

/** An entity: its type, the list root field that reads it, and its key fields. */
export interface Entity {
  readonly type: string;
  readonly object: DataObject;
  /** `ParentType.field` of the object's list field (possibly inside a module). */
  readonly list: string;
  readonly keys: readonly string[];
}

/**
 * Objects that can be entities: a primary key to resolve a representation by, and a list field to
 * read rows through (so every svc rule of that field applies). A view that needs arguments cannot
 * be read by key alone. The system module's objects (core tables, engine and catalog views) are
 * svc's own administration, not data to join other subgraphs' types to: `exclude` names their sources.
 */
export function entitiesOf(index: SchemaIndex, exclude: ReadonlySet<string>): Map<string, Entity> {
  const lists = new Map<string, string>();
  for (const [coord, root] of index.roots) if (root.kind === 'list' && !lists.has(root.object)) lists.set(root.object, coord);
  const out = new Map<string, Entity>();
  for (const o of [...index.objects.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const list = lists.get(o.name);
    if (!o.pk.length || !list || o.args?.required || exclude.has(o.source)) continue;
    out.set(o.name, { type: o.name, object: o, list, keys: o.pk });
  }
  return out;
}

/** What the served schema adds: the subgraph specification's scalar, union, type and root fields. */
export function federationSdl(entities: ReadonlyMap<string, Entity>): string {
  const service = 'scalar _Any\n\ntype _Service {\n  sdl: String!\n}\n';
  if (!entities.size) return `${service}\nextend type Query {\n  _service: _Service!\n}\n`;
  return `${service}\nunion _Entity = ${[...entities.keys()].join(' | ')}\n\nextend type Query {\n  _service: _Service!\n  _entities(representations: [_Any!]!): [_Entity]!\n}\n`;
}

const namedType = (t: TypeNode): string => (t.kind === Kind.NAMED_TYPE ? t.name.value : namedType(t.type));

const FEDERATION_TYPES = new Set(['_Any', '_Entity', '_Service']);
const FEDERATION_FIELDS = new Set(['_service', '_entities']);

const keyDirective = (keys: readonly string[]): DirectiveNode => ({
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: 'key' },
  arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'fields' }, value: { kind: Kind.STRING, value: keys.join(' ') } }],
});

/**
 * The subgraph SDL of a served schema (the whole one, or a role's): the schema as printed, without
 * the federation plumbing, with `@key` on each entity type it still contains.
 */
export function subgraphSdl(schema: GraphQLSchema, entities: ReadonlyMap<string, Entity>): string {
  const doc: DocumentNode = parse(printSchema(schema));
  const edited = visit(doc, {
    // The catalog-intro fields returning `__Type` / `__InputValue` (`_module_intro`, `_dataObject`)
    // are graphql-js introspection types, which a federated graph cannot name: they stay local.
    FieldDefinition: (n) => (namedType(n.type).startsWith('__') ? null : undefined),
    ScalarTypeDefinition: (n) => (FEDERATION_TYPES.has(n.name.value) ? null : undefined),
    UnionTypeDefinition: (n) => (FEDERATION_TYPES.has(n.name.value) ? null : undefined),
    ObjectTypeDefinition(n) {
      if (FEDERATION_TYPES.has(n.name.value)) return null;
      // Subscriptions are this server's own (/subscribe over graphql-ws): a router does not plan them
      // through a subgraph, and @apollo/gateway refuses a supergraph that has them.
      if (n.name.value === 'Subscription') return null;
      if (n.name.value === 'Query') return { ...n, fields: n.fields?.filter((f) => !FEDERATION_FIELDS.has(f.name.value)) };
      const entity = entities.get(n.name.value);
      const fields = new Set(n.fields?.map((f) => f.name.value));
      // A role that cannot see a key field cannot be sent a representation of the type either.
      if (!entity || !entity.keys.every((k) => fields.has(k))) return undefined;
      return { ...n, directives: [...(n.directives ?? []), keyDirective(entity.keys)] };
    },
  });
  return `extend schema @link(url: "${FEDERATION_SPEC}", import: ["@key"])\n\n${print(edited)}\n`;
}
