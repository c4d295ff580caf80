// The parts of an /ipc answer (SPEC §13): one per result path, that is per data field reached
// through module fields (`data.shop.products`, `data.function.core.info`), in the document's order.
import {
  type DocumentNode, type FragmentDefinitionNode, type GraphQLObjectType, type GraphQLOutputType, type GraphQLSchema, Kind,
  type OperationDefinitionNode, type SelectionSetNode, getNamedType, isObjectType,
} from 'graphql';
import type { Fragments } from './arrow.js';

export interface ResultPart {
  /** Response keys from the root: ['shop', 'products']. */
  readonly path: readonly string[];
  readonly type: GraphQLOutputType;
  readonly selection: SelectionSetNode | undefined;
}

export function operationOf(document: DocumentNode, name: string | undefined): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
}

export function fragmentsOf(document: DocumentNode): Fragments {
  const out: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out[d.name.value] = d;
  return out;
}

/** `modules`: `Parent.field` coordinates of module fields (SchemaIndex.modules), which are descended into. */
export function resultParts(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Fragments, modules: ReadonlySet<string>): ResultPart[] {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const out: ResultPart[] = [];
  const seen = new Set<string>();
  const walk = (parent: GraphQLObjectType, set: SelectionSetNode, path: readonly string[]) => {
    for (const s of set.selections) {
      if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(parent, s.selectionSet, path);
        continue;
      }
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments[s.name.value];
        if (f) walk(parent, f.selectionSet, path);
        continue;
      }
      const key = s.alias?.value ?? s.name.value;
      const at = [...path, key];
      if (seen.has(at.join('.'))) continue;
      seen.add(at.join('.'));
      const def = parent.getFields()[s.name.value];
      if (!def) continue;
      const named = getNamedType(def.type);
      if (modules.has(`${parent.name}.${s.name.value}`) && isObjectType(named) && s.selectionSet) walk(named, s.selectionSet, at);
      else out.push({ path: at, type: def.type, selection: s.selectionSet });
    }
  };
  if (root) walk(root, operation.selectionSet, []);
  return out;
}
