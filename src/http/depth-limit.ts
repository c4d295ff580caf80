// MAX_DEPTH (SPEC §2): the deepest selection of an operation, fragments followed, introspection
// included. A deeper query is refused before anything runs.
import { type ASTVisitor, type FragmentDefinitionNode, GraphQLError, Kind, type SelectionSetNode, type ValidationContext } from 'graphql';

function depthOf(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  if (!set) return 0;
  let max = 0;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      // Introspection counts too, but the linear `ofType` chain of a type reference does not add
      // depth: otherwise the standard introspection query of every GraphQL tool (GraphiQL, Apollo)
      // would exceed the default of 7.
      const own = s.name.value === 'ofType' ? 0 : 1;
      max = Math.max(max, s.selectionSet ? own + depthOf(s.selectionSet, fragments, seen) : own);
    }
    else if (s.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(s.selectionSet, fragments, seen));
    else if (!seen.has(s.name.value)) {
      const f = fragments.get(s.name.value);
      if (f) max = Math.max(max, depthOf(f.selectionSet, fragments, new Set([...seen, s.name.value])));
    }
  }
  return max;
}

export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      const fragments = new Map(context.getDocument().definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
      const depth = depthOf(node.selectionSet, fragments, new Set());
      if (maxDepth > 0 && depth > maxDepth) {
        context.reportError(new GraphQLError(`query depth ${depth} exceeds the maximum depth ${maxDepth} (MAX_DEPTH)`, { nodes: [node], extensions: { code: 'MAX_DEPTH_EXCEEDED' } }));
      }
    },
  });
}
