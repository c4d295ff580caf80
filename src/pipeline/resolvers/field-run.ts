// One root data field in one request: what its read and write paths share (the object, its source,
// the planner's context, tracing spans, and the objects it read, for cache tags).
import { getNamedType, type GraphQLObjectType, type GraphQLResolveInfo, isObjectType } from 'graphql';
import type { DataObject } from '../../catalog/model.js';
import { CrossSource } from '../../executor/cross-source.js';
import type { RequestContext } from '../../executor/request-context.js';
import type { AccessScope } from '../../permissions/access.js';
import type { PlanContext } from '../../planner/context.js';
import type { RemoteNode } from '../../planner/ir/remote.js';
import type { RootQuery } from '../../planner/ir/select.js';
import type { RootTarget } from '../../planner/root.js';
import { capRows } from '../../planner/row-cap.js';
import type { DataRootField, SchemaIndex } from '../../schema/surface.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { inSpanSync } from '../../shared/tracing.js';
import type { CompiledSql } from '../../sql/compiler.js';
import type { DataSourceRuntime } from '../../sources/types.js';
import { planContext } from '../plan-context.js';
import type { FieldPhases } from '../field-stage.js';
import type { ResolverDeps } from '../resolver-deps.js';

/** What a root field's resolver is built with, once per served schema. */
export interface RootFieldSetup {
  readonly root: DataRootField;
  readonly index: SchemaIndex;
  readonly scope: AccessScope;
  readonly deps: ResolverDeps;
  /** Relations into other sources are answered level by level, one statement each (SPEC §5). */
  readonly across: CrossSource;
}

export interface FieldRun {
  readonly obj: DataObject;
  readonly runtime: DataSourceRuntime;
  readonly ctx: RequestContext;
  readonly info: GraphQLResolveInfo;
  /** The planner's context; `statement.remotes` collects the levels into other sources. */
  readonly pctx: PlanContext & { readonly reads: Set<string>; readonly statement: { source: string; remotes: RemoteNode[] } };
  readonly target: RootTarget;
  /** Planning, as a span of its own (the statement it leads to is the next span). */
  planned<T>(fn: () => T): T;
  compile(plan: RootQuery): CompiledSql;
  /** Runs a root read statement, with the levels into other sources after it. */
  read(stmt: CompiledSql, remotes: readonly RemoteNode[] | undefined): Promise<unknown>;
  /** The objects this field read: the field stage's tags and the request's. */
  noteReads(objects: Iterable<string>): void;
}

function returnObject(info: GraphQLResolveInfo): GraphQLObjectType {
  const t = getNamedType(info.returnType);
  if (!isObjectType(t)) throw new PublicError(ErrorCode.Internal, `field "${info.fieldName}" does not return an object`);
  return t;
}

/**
 * One object per root field per request, its methods on the prototype: a read answered from the
 * plan cache uses `read` and `noteReads` alone, and the closures made per request before were each
 * request's fixed cost (issue 30).
 */
class RootFieldRun implements FieldRun {
  readonly obj: DataObject;
  readonly runtime: DataSourceRuntime;
  // Made when first asked: a read answered from the plan cache plans nothing.
  private planning: FieldRun['pctx'] | undefined;
  private returned: RootTarget | undefined;

  constructor(
    private readonly setup: RootFieldSetup,
    readonly ctx: RequestContext,
    readonly info: GraphQLResolveInfo,
    private readonly reads: Set<string> | undefined,
    private readonly phases: FieldPhases | undefined,
  ) {
    this.obj = setup.index.objects.get(setup.root.object)!;
    this.runtime = setup.deps.registry.runtime(this.obj.source);
  }

  get pctx(): FieldRun['pctx'] {
    const { index, scope, deps } = this.setup;
    return (this.planning ??= { ...planContext(this.info, index, scope, deps.registry, this.ctx), reads: new Set<string>(), statement: { source: this.obj.source, remotes: [] } });
  }

  get target(): RootTarget {
    const info = this.info;
    return (this.returned ??= { type: info.parentType.name, field: info.fieldName, returns: returnObject(info), nodes: info.fieldNodes });
  }

  planned<T>(fn: () => T): T {
    const phases = this.phases;
    return inSpanSync('svc.plan', { 'svc.field': this.info.fieldName, 'svc.source': this.obj.source }, phases ? () => phases.time('planning', fn) : fn);
  }

  compile(plan: RootQuery): CompiledSql {
    const { runtime, ctx, phases } = this;
    const compile = () => runtime.compiler.compileQuery(capRows(plan, this.setup.deps.executor.rowCap(ctx)), ctx.timezone);
    return inSpanSync('svc.compile', { 'svc.source': runtime.name }, phases ? () => phases.time('compile', compile) : compile);
  }

  read(stmt: CompiledSql, remotes: readonly RemoteNode[] | undefined): Promise<unknown> {
    return remotes?.length ? this.setup.across.read(this.ctx, this.runtime, stmt, remotes) : this.setup.deps.executor.readCompiled(this.ctx, this.runtime, stmt);
  }

  noteReads(objects: Iterable<string>): void {
    for (const r of objects) {
      this.reads?.add(r);
      this.ctx.reads.add(r);
    }
  }
}

export function fieldRun(setup: RootFieldSetup, ctx: RequestContext, info: GraphQLResolveInfo, reads: Set<string> | undefined, phases?: FieldPhases): FieldRun {
  return new RootFieldRun(setup, ctx, info, reads, phases);
}
