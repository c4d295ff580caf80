// What the resolvers of a served schema are given: the parts they call and the system functions.
// A file of its own so that features attached beside the generated resolvers (h3, system modules)
// name these types without importing resolvers/, which imports them.
import type { Executor } from '../executor/executor.js';
import type { RequestContext } from '../executor/request-context.js';
import type { Access } from '../permissions/access.js';
import type { RoleSchemas } from '../permissions/schema-filter.js';
import type { Args } from '../planner/select.js';
import type { SourceRegistry } from '../sources/registry.js';
import type { FieldStages } from './field-stage.js';

/** A system function; `access` is the caller's (the auth functions describe it). */
export type FunctionHandler = (args: Args, ctx: RequestContext, access: Access) => Promise<unknown>;

export interface ResolverDeps {
  readonly registry: SourceRegistry;
  readonly executor: Executor;
  readonly functions: Readonly<Record<string, FunctionHandler>>;
  /** Around every root field: the result cache, @stats, a team's own (src/pipeline/field-stage.ts). */
  readonly stages: FieldStages;
  /** Per-role schemas: `_module` / `_dataObject` answer from the caller's (catalog-intro.ts). */
  readonly roleSchemas?: RoleSchemas;
}
