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

export function fieldRun(setup: RootFieldSetup, ctx: RequestContext, info: GraphQLResolveInfo, reads: Set<string> | undefined, phases?: FieldPhases): FieldRun {
  const { root, index, scope, deps, across } = setup;
  const obj = index.objects.get(root.object)!;
  const runtime = deps.registry.runtime(obj.source);
  // Made when first asked: a read answered from the plan cache plans nothing.
  let pctx: FieldRun['pctx'] | undefined;
  let target: RootTarget | undefined;
  return {
    obj, runtime, ctx, info,
    get pctx() {
      return (pctx ??= { ...planContext(info, index, scope, deps.registry, ctx), reads: new Set<string>(), statement: { source: obj.source, remotes: [] } });
    },
    get target() {
      return (target ??= { type: info.parentType.name, field: info.fieldName, returns: returnObject(info), nodes: info.fieldNodes });
    },
    planned: (fn) => inSpanSync('svc.plan', { 'svc.field': info.fieldName, 'svc.source': obj.source }, phases ? () => phases.time('planning', fn) : fn),
    compile: (plan) => {
      const compile = () => runtime.compiler.compileQuery(capRows(plan, deps.executor.rowCap(ctx)), ctx.timezone);
      return inSpanSync('svc.compile', { 'svc.source': runtime.name }, phases ? () => phases.time('compile', compile) : compile);
    },
    read: (stmt, remotes) => (remotes?.length ? across.read(ctx, runtime, stmt, remotes) : deps.executor.readCompiled(ctx, runtime, stmt)),
    noteReads(objects) {
      for (const r of objects) {
        reads?.add(r);
        ctx.reads.add(r);
      }
    },
  };
}
