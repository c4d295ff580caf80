// MAX_DEPTH (SPEC §2): the deepest selection of an operation, fragments followed, introspection
// included. A deeper query is refused before anything runs. Each fragment is measured once
// (issue 15): a document whose fragments each spread the next twice must not cost 2^n visits.
import { type ASTVisitor, type FragmentDefinitionNode, GraphQLError, Kind, type SelectionSetNode, type ValidationContext } from 'graphql';
import { noteLimitRefusal } from '../../shared/limit-refusal.js';

class Depths {
  private readonly known = new Map<string, number>();
  private readonly open = new Set<string>();

  constructor(private readonly fragments: Map<string, FragmentDefinitionNode>) {}

  of(set: SelectionSetNode | undefined): number {
    if (!set) return 0;
    let max = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        // Introspection counts too, but the linear `ofType` chain of a type reference does not add
        // depth: otherwise the standard introspection query of every GraphQL tool (GraphiQL, Apollo)
        // would exceed the default of 7.
        const own = s.name.value === 'ofType' ? 0 : 1;
        max = Math.max(max, s.selectionSet ? own + this.of(s.selectionSet) : own);
      } else if (s.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, this.of(s.selectionSet));
      else max = Math.max(max, this.fragment(s.name.value));
    }
    return max;
  }

  /** Depth of a named fragment, computed once; a cycle (reported by NoFragmentCycles) adds nothing. */
  private fragment(name: string): number {
    const known = this.known.get(name);
    if (known !== undefined) return known;
    const f = this.fragments.get(name);
    if (!f || this.open.has(name)) return 0;
    this.open.add(name);
    const depth = this.of(f.selectionSet);
    this.open.delete(name);
    this.known.set(name, depth);
    return depth;
  }
}

export function fragmentsOf(context: ValidationContext): Map<string, FragmentDefinitionNode> {
  return new Map(context.getDocument().definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
}

export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    let depths: Depths | undefined;
    return {
      OperationDefinition(node) {
        depths ??= new Depths(fragmentsOf(context));
        const depth = depths.of(node.selectionSet);
        if (maxDepth > 0 && depth > maxDepth) {
          noteLimitRefusal();
          context.reportError(new GraphQLError(`query depth ${depth} exceeds the maximum depth ${maxDepth} (MAX_DEPTH)`, { nodes: [node], extensions: { code: 'MAX_DEPTH_EXCEEDED' } }));
        }
      },
    };
  };
}
