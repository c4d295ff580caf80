// Function fields: catalog functions (`@function`, SPEC §4.4: one call statement) and the server's
// own system functions (handlers). Mutation functions run in document order and join the request's
// transaction.
import type { GraphQLFieldResolver } from 'graphql';
import type { CatalogFunction } from '../../catalog/model.js';
import type { RequestContext } from '../../executor/request-context.js';
import { type AccessScope, accessOf } from '../../permissions/access.js';
import { planCall } from '../../planner/function.js';
import { checkFunctionRows } from '../../planner/root.js';
import { capRows } from '../../planner/row-cap.js';
import type { Args } from '../../planner/select.js';
import type { SchemaIndex } from '../../schema/surface.js';
import { inSpanSync } from '../../shared/tracing.js';
import { FieldPhases, type RootFieldTarget } from '../field-stage.js';
import { hasStats } from '../stages/stats-tree.js';
import { planContext } from '../plan-context.js';
import type { FunctionHandler, ResolverDeps } from '../resolver-deps.js';
import { writeStep } from './write-field.js';

/** A catalog function field: one call statement, through the field stages like a data field. */
export function functionResolver(fn: CatalogFunction, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, version: number): GraphQLFieldResolver<unknown, RequestContext> {
  // Query functions cache like data fields; their answers carry the source's name as a tag.
  const target: RootFieldTarget = { kind: fn.mutation ? 'write' : 'function', cacheDefault: fn.cache, tags: [fn.source], schemaVersion: version };
  return async (source, args: Args, ctx, info) => {
    const runtime = deps.registry.runtime(fn.source);
    const pctx = planContext(info, index, scope, deps.registry, ctx);
    checkFunctionRows(pctx, fn);
    // Timed for @stats (planned before the stages, so that a refused call never reaches the cache).
    const phases = info.fieldNodes.some(hasStats) ? new FieldPhases() : undefined;
    const stmt = inSpanSync('svc.plan', { 'svc.field': info.fieldName, 'svc.source': fn.source }, () => {
      const plan = () => capRows(planCall(pctx, fn, args), deps.executor.rowCap(ctx));
      if (!phases) return runtime.compiler.compileQuery(plan(), ctx.timezone);
      const planned = phases.time('planning', plan);
      return phases.time('compile', () => runtime.compiler.compileQuery(planned, ctx.timezone));
    });
    if (phases) phases.ahead = phases.planning + phases.compile;
    return deps.stages.run({ source, args, ctx, info, target, reads: new Set(), ...(phases ? { phases } : {}) }, async () => {
      if (!fn.mutation) return deps.executor.readCompiled(ctx, runtime, stmt);
      ctx.written.add(fn.source);
      return writeStep(ctx, info, async () => {
        await ctx.transactions.connection(runtime);
        return deps.executor.readCompiled(ctx, runtime, stmt);
      });
    });
  };
}

/** A system function field: its handler, with the caller's access; mutations in document order. */
export function handlerResolver(handler: FunctionHandler, mutation: boolean, scope: AccessScope): GraphQLFieldResolver<unknown, RequestContext> {
  return (_s, args: Args, ctx) => {
    const access = accessOf(ctx.access, scope);
    return mutation ? ctx.serial.run(() => handler(args, ctx, access)) : handler(args, ctx, access);
  };
}
