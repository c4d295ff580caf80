// Compiled statements of read root fields, cached per parsed operation (DESIGN.md §4). Apollo keeps
// one parsed document per query text and schema, so the operation node is a stable key (document
// text, operation name, schema version); within it the entry is chosen by field path, role and its
// rules' generation, time zone, (when the role's rules read `[$auth.*]`) the user, and the
// variable values that decide the plan (src/statements/bind.ts). A repeated request skips planning
// and SQL compilation entirely, whatever values its other variables hold.
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { CompiledSql } from '../sql/compiler.js';
import type { RemoteNode } from '../planner/ir/remote.js';
import { type ParamSource, type VariableShape, bindParams, paramSources, unboundPaths, valuesKey, variableShape } from './bind.js';

/** A compiled read and the data objects it reads (its cache tags). */
interface Plan {
  readonly kind: 'plan';
  readonly stmt: CompiledSql;
  readonly reads: readonly string[];
  /** Set when the parameters are bound per request from the variables. */
  readonly params?: readonly ParamSource[];
  /** Cross-source levels the statement's answer leads to (src/executor/cross-source.ts). */
  readonly remotes?: readonly RemoteNode[];
}

/** A plan just made: its statement, the objects it reads, the cross-source levels it leads to. */
export type NewPlan = Pick<Plan, 'stmt' | 'reads' | 'remotes'>;

/** Where the plans of a field are kept when some of its values decide the plan. */
type Pointer =
  /** Under a key that also holds the values at these paths (JSON text). */
  | { readonly kind: 'keyed'; readonly paths: ReadonlySet<string> }
  /** Under a key holding every value the field mentions. */
  | { readonly kind: 'per_values' };

type Entry = Plan | Pointer;

/** What a read is planned for: the operation, the field's place and the request's rules (planKey). */
export interface ReadSite {
  readonly schema: GraphQLSchema;
  readonly operation: OperationDefinitionNode;
  /** Field path, time zone, role and its rules' generation, `[$auth.*]` values. */
  readonly base: string;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The variables the field's selection mentions. */
  readonly used: ReadonlySet<string>;
}

const PER_OPERATION = 64;

export class PlanCache {
  private readonly byOperation = new WeakMap<OperationDefinitionNode, Map<string, Entry>>();

  private get(op: OperationDefinitionNode, key: string): Entry | undefined {
    return this.byOperation.get(op)?.get(key);
  }

  private set(op: OperationDefinitionNode, key: string, entry: Entry): void {
    let m = this.byOperation.get(op);
    if (!m) this.byOperation.set(op, (m = new Map()));
    // A simple bound: an operation run with ever-changing deciding values does not grow without limit.
    if (m.size >= PER_OPERATION && !m.has(key)) m.delete(m.keys().next().value as string);
    m.set(key, entry);
  }

  private shape(site: ReadSite, keyed?: ReadonlySet<string>): VariableShape {
    return variableShape(site.schema, site.operation, site.variables, site.used, keyed);
  }

  /** The statement of an earlier plan with this request's values bound, or undefined (plan it). */
  find(site: ReadSite): NewPlan | undefined {
    const key = `${site.base}${this.shape(site).key}`;
    let entry = this.get(site.operation, key);
    if (entry?.kind === 'keyed') entry = this.get(site.operation, `${site.base}${this.shape(site, entry.paths).key}`);
    else if (entry?.kind === 'per_values') entry = this.get(site.operation, `${key}|${valuesKey(site.variables, site.used)}`);
    if (entry?.kind !== 'plan') return undefined;
    return { ...entry, stmt: entry.params ? { ...entry.stmt, params: bindParams(entry.params, site.variables) } : entry.stmt };
  }

  /**
   * Keeps a plan just made. `compileWith` plans the same field again with other variables: once
   * with markers for every candidate value, and once more without those the first attempt showed
   * to decide the plan; whatever still cannot be bound keeps its value in the key. A plan leading to
   * other sources keeps every value in the key: its later levels hold values of their own.
   */
  remember(site: ReadSite, plan: NewPlan, compileWith: (variables: Record<string, unknown>) => CompiledSql): void {
    const { stmt } = plan;
    const full = this.shape(site);
    const key = `${site.base}${full.key}`;
    let shape = full;
    let keyed = new Set<string>();
    let params: ParamSource[] | undefined;
    for (let attempt = 0; attempt < 2 && shape.marked && !params && !plan.remotes?.length; attempt++) {
      let marked: CompiledSql;
      try {
        marked = compileWith(shape.marked);
      } catch {
        break; // a marker the planner refused: the values decide the plan
      }
      params = paramSources(stmt, marked, shape, site.variables);
      if (!params) shape = this.shape(site, (keyed = unboundPaths(shape, marked)));
    }
    if (!full.marked || (params && shape === full)) return this.set(site.operation, key, { kind: 'plan', ...plan, ...(params ? { params } : {}) });
    if (params) {
      this.set(site.operation, key, { kind: 'keyed', paths: keyed });
      return this.set(site.operation, `${site.base}${shape.key}`, { kind: 'plan', ...plan, params });
    }
    this.set(site.operation, key, { kind: 'per_values' });
    this.set(site.operation, `${key}|${valuesKey(site.variables, site.used)}`, { kind: 'plan', ...plan });
  }
}
