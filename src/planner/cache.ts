// Compiled statements of read root fields, cached per parsed operation (DESIGN.md §4). Apollo keeps
// one parsed document per query text, so the operation node is a stable key; within it the entry
// is chosen by field path, variable values, role, schema version and (when the role's rules read
// `[$auth.*]`) the user. A repeated request skips planning and SQL compilation entirely.
import type { OperationDefinitionNode } from 'graphql';
import type { CompiledSql } from '../sql/compiler.js';

/** A compiled read and the data objects it reads (its cache tags). */
export interface CachedPlan {
  readonly stmt: CompiledSql;
  readonly reads: readonly string[];
  /** Cross-source levels the statement's answer leads to (src/executor/cross-source.ts). */
  readonly remotes?: readonly import('./ir/remote.js').RemoteNode[];
}

const PER_OPERATION = 64;

export class PlanCache {
  private readonly byOperation = new WeakMap<OperationDefinitionNode, Map<string, CachedPlan>>();

  get(op: OperationDefinitionNode, key: string): CachedPlan | undefined {
    return this.byOperation.get(op)?.get(key);
  }

  set(op: OperationDefinitionNode, key: string, stmt: CachedPlan): void {
    let m = this.byOperation.get(op);
    if (!m) this.byOperation.set(op, (m = new Map()));
    // A simple bound: an operation run with ever-changing variables does not grow without limit.
    if (m.size >= PER_OPERATION) m.delete(m.keys().next().value as string);
    m.set(key, stmt);
  }
}
