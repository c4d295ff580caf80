// What the planner needs to know about the request and the schema.
import type { FragmentDefinitionNode, GraphQLSchema } from 'graphql';
import type { DataObject } from '../catalog/model.js';
import type { Access } from '../permissions/access.js';
import type { SchemaIndex } from '../schema/surface.js';

export interface PlanContext {
  readonly schema: GraphQLSchema;
  readonly index: SchemaIndex;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
  /** Qualified name of an object's table in its source (the source decides: attach alias, schema). */
  readonly tableName: (obj: DataObject) => readonly string[];
  /** Name parts of a source's function called without `sql` (the source decides, see DataSourceRuntime). */
  readonly functionName: (source: string, name: string) => readonly string[];
  /** The body a source calls in place of such a function, parameters `[$1]`, ... (see DataSourceRuntime). */
  readonly functionBody?: (source: string, name: string) => string | undefined;
  /** Fresh alias per table occurrence in the statement. */
  readonly nextAlias: () => string;
  /**
   * The access service (src/permissions/access.ts): every object and field the planner plans is
   * asked of it, for reading, filtering, ordering, aggregating or writing (DESIGN.md §3.5).
   */
  readonly access: Access;
  /** `[$auth.*]` values for permission filters and stamps. */
  readonly authVars: Readonly<Record<string, unknown>>;
  /** Set while planning a permission filter itself: its own relations are not guarded again. */
  readonly inGuard?: boolean;
  /** `@with_deleted` on the root field: soft-deleted rows are read too. */
  readonly withDeleted?: boolean;
  /** Collects the data objects a plan reads (cache tags, SPEC §9). */
  readonly reads?: Set<string>;
  /**
   * The source the statement being planned runs on, and the cross-source levels it leads to
   * (src/planner/remote.ts); absent where a plan is never across sources (writes).
   */
  readonly statement?: { readonly source: string; readonly remotes: import('./ir/remote.js').RemoteNode[] };
}

export function aliasCounter(): () => string {
  let n = 0;
  return () => `t${n++}`;
}
