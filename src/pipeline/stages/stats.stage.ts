// `@stats` (hugr's GraphQL extensions page, docs/stats.md): a root field's time, split into planning,
// compiling and the rest (running the statement, reading its rows), and whether the cache answered.
// The resolvers add planning and compiling to the call's FieldPhases; stats-tree.ts writes the tree.
import { responsePathAsArray } from 'graphql';
import { type FieldCall, FieldPhases, type FieldStage } from '../field-stage.js';
import { hasStats, nanosSince } from './stats-tree.js';

export class StatsStage implements FieldStage {
  // Not async: a field without @stats costs no promise of its own (issue 30).
  intercept(call: FieldCall, next: () => Promise<unknown>): Promise<unknown> {
    return call.info.fieldNodes.some(hasStats) ? this.timed(call, next) : next();
  }

  private async timed(call: FieldCall, next: () => Promise<unknown>): Promise<unknown> {
    const { ctx, info } = call;
    const phases = (call.phases ??= new FieldPhases());
    const path = responsePathAsArray(info.path);
    const started = performance.now();
    try {
      return await next();
    } finally {
      ctx.stats.push({
        path, name: String(info.path.key), node: nanosSince(started) + phases.ahead, planning: phases.planning, compile: phases.compile,
        cached: ctx.cacheHits.has(path.join('.')),
      });
    }
  }
}
