// A read root field (list, by key, aggregation, buckets): its plan from the plan cache or the
// planner, compiled for its source and run; /ipc streams a root list instead.
import { getArgumentValues } from 'graphql';
import { aliasCounter } from '../../planner/context.js';
import { planRead } from '../../planner/root.js';
import { capRows } from '../../planner/row-cap.js';
import { type Args, deniedPaths } from '../../planner/select.js';
import type { PlanCache, ReadSite } from '../../statements/cache.js';
import { planningWork } from '../metrics.js';
import type { FieldRun, RootFieldSetup } from './field-run.js';
import { streamable, streamRows } from './ipc-stream.js';
import { readSite } from './plan-cache.js';

/** `streamed`: /query writes this root list row by row if it can (src/pipeline/streamed.ts). */
export function readField(setup: RootFieldSetup, plans: PlanCache, run: FieldRun, args: Args, streamed?: boolean): Promise<unknown> {
  // Not an async function: a read whose plan is cached (every repeated request) goes straight to the
  // executor, without an async function's promises around the executor's (issue 30).
  try {
    const { ctx, info } = run;
    // /ipc (and /query's streamed lists) read lists row by row: those plans are not kept (the rows are compiled apart).
    const streaming = (ctx.streams !== undefined || streamed === true) && !ctx.transactions.active;
    const site = streaming ? undefined : readSite(info, ctx);
    const cached = site && plans.find(site);
    if (cached) {
      run.noteReads(cached.reads);
      return run.read(cached.stmt, cached.remotes);
    }
    return planned(setup, plans, run, args, streaming, site);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** A read planned (and its plan kept) in this request. */
async function planned(setup: RootFieldSetup, plans: PlanCache, run: FieldRun, args: Args, streaming: boolean, site: ReadSite | undefined): Promise<unknown> {
  const { ctx, info, obj, runtime } = run;
  planningWork.inc({ step: 'plan' });
  const pctx = run.pctx;
  const plan = run.planned(() => planRead(pctx, setup.root.kind, obj, run.target, args));
  // Relations into other sources are merged in memory: such a list is read whole (SPEC §5).
  // /query's streamed lists carry no errors of their own: one with fields the role may not read is read whole.
  if (streaming && plan.kind === 'list' && streamable(runtime, pctx.statement.remotes.length) && (ctx.streams || !deniedPaths(plan.select).length)) {
    run.noteReads(pctx.reads);
    // Capped like a list read whole (src/planner/row-cap.ts): an /ipc list without a limit stops at the caller's row limit + 1.
    const capped = capRows(plan, setup.deps.executor.rowCap(ctx));
    return streamRows(setup.deps.executor, ctx, info, runtime, capped.kind === 'list' ? capped.select : plan.select);
  }
  const stmt = run.compile(plan);
  const reads = [...pctx.reads];
  const remotes = [...pctx.statement.remotes];
  if (site) {
    const field = info.parentType.getFields()[info.fieldName]!;
    // Another request's variables: planned again from them, the rest of the context as it is.
    const replan = (variables: Record<string, unknown>) => run.compile(planRead(
      { ...pctx, variables, nextAlias: aliasCounter(), reads: new Set(), statement: { source: obj.source, remotes: [] } },
      setup.root.kind, obj, run.target, getArgumentValues(field, info.fieldNodes[0]!, variables) as Args,
    ));
    plans.remember(site, { stmt, reads, ...(remotes.length ? { remotes } : {}) }, replan);
  }
  run.noteReads(reads);
  return run.read(stmt, remotes);
}
