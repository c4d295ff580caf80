// A root data field: the field stages (src/pipeline/field-stage.ts) around plan -> SQL -> executor.
import type { GraphQLFieldResolver } from 'graphql';
import { CrossSource } from '../../executor/cross-source.js';
import type { RequestContext } from '../../executor/request-context.js';
import type { AccessScope } from '../../permissions/access.js';
import type { Args } from '../../planner/select.js';
import type { DataRootField, SchemaIndex } from '../../schema/surface.js';
import type { PlanCache } from '../../statements/cache.js';
import type { FieldPhases, RootFieldTarget } from '../field-stage.js';
import type { ResolverDeps } from '../resolver-deps.js';
import { streamsRootList } from '../streamed.js';
import { fieldRun, type RootFieldSetup } from './field-run.js';
import { readField } from './read-field.js';
import { writeField } from './write-field.js';

export const READS: ReadonlySet<DataRootField['kind']> = new Set<DataRootField['kind']>(['list', 'by_pk', 'unique', 'aggregation', 'bucket_aggregation']);

export function dataResolver(root: DataRootField, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, plans: PlanCache, version: number): GraphQLFieldResolver<unknown, RequestContext> {
  const setup: RootFieldSetup = { root, index, scope, deps, across: new CrossSource(deps.executor, deps.registry) };
  const reads = READS.has(root.kind);
  const inner = (args: Args, ctx: RequestContext, info: Parameters<GraphQLFieldResolver<unknown, RequestContext>>[3], noted?: Set<string>, streamed?: boolean, phases?: FieldPhases) => {
    const run = fieldRun(setup, ctx, info, noted, phases);
    return reads ? readField(setup, plans, run, args, streamed) : writeField(setup, run, args);
  };
  const target: RootFieldTarget = { kind: reads ? 'read' : 'write', cacheDefault: index.objects.get(root.object)!.cache, tags: [], schemaVersion: version };
  const resolve = (source: unknown, args: Args, ctx: RequestContext, info: Parameters<GraphQLFieldResolver<unknown, RequestContext>>[3]): Promise<unknown> => {
    // /ipc streams root lists itself (SPEC §13): nothing to cache, and no whole result to time.
    if (ctx.streams) return inner(args, ctx, info);
    // A large root list the fast path writes row by row (src/pipeline/streamed.ts): no stage needs its value.
    // One asked for more rows than MAX_RESPONSE_ROWS is read whole, capped at one row over it
    // (src/planner/row-cap.ts): refused with its code before a byte is written, not cut half-way.
    if (root.kind === 'list' && !overRowCap(deps, ctx, args.limit) && streamsRootList(ctx, info, args.limit, target.cacheDefault !== undefined)) return inner(args, ctx, info, undefined, true);
    // An answer the fast path fetched but left to graphql-js to complete (src/pipeline/fast-path/).
    const early = info.path.prev === undefined ? ctx.prefetched.get(String(info.path.key)) : undefined;
    if (early) {
      ctx.prefetched.delete(String(info.path.key));
      if ('error' in early) throw early.error;
      return Promise.resolve(early.value);
    }
    return deps.stages.run({ source, args, ctx, info, target, reads: new Set() }, (c) => inner(c.args, c.ctx, c.info, c.reads, undefined, c.phases));
  };
  // Not an async function: it returned the stages' promise, and an async function's own promise
  // around it cost every root field two more (issue 30). A throw is still a rejection.
  return (source, args: Args, ctx, info) => {
    try {
      return resolve(source, args, ctx, info);
    } catch (e) {
      return Promise.reject(e);
    }
  };
}

function overRowCap(deps: ResolverDeps, ctx: RequestContext, limit: unknown): boolean {
  const cap = deps.executor.rowCap(ctx);
  return cap !== undefined && typeof limit === 'number' && limit >= cap;
}
