// The shape of a query operation's answer, when the fast path may write it: every root field a
// catalog read, every field below it read from the statement's JSON by response key, none denied
// to the caller's role. Anything else (functions, modules, abstract types, introspection, a denied
// field) answers undefined and the request takes the general path.
import {
  type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLLeafType, type GraphQLObjectType,
  type GraphQLOutputType, type GraphQLSchema, GraphQLString, type OperationDefinitionNode, getNamedType, isLeafType, isListType,
  isNonNullType, isObjectType,
} from 'graphql';
// Not re-exported by the package root (the planner imports the same module, src/planner/select.ts).
import { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';
import type { Access } from '../../permissions/access.js';
import { isPlain, isReadRoot } from './marks.js';

/** How a value completes, mirroring graphql-js `completeValue` for the types a catalog read returns. */
export type Out =
  | { readonly kind: 'non_null'; readonly of: Out }
  | { readonly kind: 'list'; readonly of: Out }
  | { readonly kind: 'leaf'; readonly type: GraphQLLeafType }
  | { readonly kind: 'object'; readonly fields: readonly Sub[]; readonly keys: readonly string[] };

/** One response key of an object: a field read by response key (then by name), or `__typename`. */
export interface Sub {
  readonly key: string;
  readonly name: string;
  /** Set for `__typename`: the value graphql-js answers. */
  readonly typename?: string;
  readonly out: Out;
  /** The field's nodes and the object type it is on (a streamed row's errors name them, src/pipeline/streamed-rows.ts). */
  readonly nodes?: readonly FieldNode[];
  readonly parent?: string;
}

/** A root field of the operation and how its answer completes. */
export interface RootShape {
  readonly key: string;
  readonly field: GraphQLField<unknown, unknown>;
  readonly nodes: readonly FieldNode[];
  readonly out: Out;
}

/** The operation's root keys in response order; `__typename` roots carry a constant. */
export type OperationShape = readonly (RootShape | { readonly key: string; readonly typename: string })[];

interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly access: Access;
}

class NotFast extends Error {}

function outOf(w: Walk, type: GraphQLOutputType, nodes: readonly FieldNode[]): Out {
  if (isNonNullType(type)) return { kind: 'non_null', of: outOf(w, type.ofType, nodes) };
  if (isListType(type)) return { kind: 'list', of: outOf(w, type.ofType, nodes) };
  if (isLeafType(type)) return { kind: 'leaf', type };
  if (!isObjectType(type) || type.isTypeOf) throw new NotFast();
  const fields = [...collectSubfields(w.schema, w.fragments as never, w.variables as never, type, nodes as FieldNode[])].map(([key, fieldNodes]) => subOf(w, type, key, fieldNodes));
  return { kind: 'object', fields, keys: fields.map((f) => f.key) };
}

function subOf(w: Walk, type: GraphQLObjectType, key: string, nodes: readonly FieldNode[]): Sub {
  const name = nodes[0]!.name.value;
  if (name === '__typename') return { key, name, typename: type.name, out: { kind: 'leaf', type: GraphQLString } };
  const def = type.getFields()[name];
  // Resolvers of their own (extensions), and fields the role may not read (their "forbidden" error
  // is the general path's to write, SPEC §1), keep the general path.
  if (!def || !isPlain(def as GraphQLField<unknown, unknown>) || w.access.fieldDenied(type.name, name, getNamedType(def.type).name)) throw new NotFast();
  return { key, name, out: outOf(w, def.type, nodes), nodes, parent: type.name };
}

/** The operation's shape for these variables and this role, or undefined when it is not fast. */
export function operationShape(
  schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Readonly<Record<string, unknown>>, access: Access,
): OperationShape | undefined {
  const query = schema.getQueryType();
  if (operation.operation !== 'query' || !query) return undefined;
  const w: Walk = { schema, fragments, variables, access };
  try {
    return [...collectFields(schema, fragments as never, variables as never, query, operation.selectionSet)].map(([key, nodes]) => {
      const name = nodes[0]!.name.value;
      if (name === '__typename') return { key, typename: query.name };
      const field = query.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
      if (!field || !isReadRoot(field) || access.fieldDenied(query.name, name, getNamedType(field.type).name)) throw new NotFast();
      return { key, field, nodes, out: outOf(w, field.type, nodes) };
    });
  } catch (e) {
    if (e instanceof NotFast) return undefined;
    throw e;
  }
}
