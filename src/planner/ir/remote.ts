// Cross-source levels of a plan (SPEC §5): a relation, `_join` or `_spatial` whose target lives in
// another source is not a subquery of the parent's statement. The parent statement writes the key
// values at the field's place (a marker); the executor gathers the keys of every parent row, runs
// the target's statement once for all of them, and puts each answer in its place
// (src/executor/cross-source.ts).
import type { ScalarName } from '../../catalog/model.js';
import type { Expr } from './expr.js';
import type { RootQuery } from './select.js';

/** The key under which a marker carries its level's id (the other keys are `k0`, `k1`, ...). */
export const REMOTE_MARKER = '__svc_remote';

/** A column of the keys table a cross-source statement starts from. */
export interface KeyColumn {
  readonly name: string;
  readonly scalar: ScalarName;
}

/**
 * The key rows of one cross-source level as a table (one list parameter per column); `rows` is
 * empty in the plan and filled by the executor with the parents' distinct keys. The first column
 * is the row's position (`__i`), by which answers are matched back.
 */
export interface KeysTable {
  readonly columns: readonly KeyColumn[];
  readonly rows: readonly (readonly unknown[])[];
}

/** One cross-source level: its statement on the target source, over the keys table. */
export interface RemoteNode {
  readonly kind: 'remote';
  /** Unique within the parent statement; markers name it. */
  readonly id: number;
  readonly source: string;
  /** Key columns after `__i`, named as the parent's physical columns. */
  readonly keys: readonly KeyColumn[];
  /** A list of `{ i, v }`: `v` is the relation's value for the parents of key row `i`. */
  readonly query: RootQuery;
  /** Cross-source levels inside `query`. */
  readonly remotes: readonly RemoteNode[];
  /** `inner: true`: parents without related rows are dropped (after the parent's own limit). */
  readonly inner: boolean;
  /**
   * Set for a `@function_call` level: the function and, per argument, the key column it takes
   * (index into `keys`) or its value. Sources without SQL (http) answer such a level from it
   * through `DataSourceRuntime.fetchLevel`, one call per distinct key row. `join`
   * (`@table_function_call_join`): the rows of the answer kept for a key row are those whose
   * `field` equals its key column `key`.
   */
  readonly call?: {
    readonly fn: import('../../catalog/model.js').CatalogFunction;
    readonly args: Readonly<Record<string, { readonly key: number } | { readonly value: unknown }>>;
    readonly join?: readonly { readonly key: number; readonly field: string }[];
  };
}

/** The output field of the parent: the marker with the parent row's key values. */
export interface RemoteOutField {
  readonly kind: 'remote';
  readonly key: string;
  readonly id: number;
  readonly keys: readonly { readonly expr: Expr; readonly scalar: ScalarName }[];
}
