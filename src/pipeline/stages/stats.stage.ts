// `@stats` (SPEC §9): the root field's time and whether the cache answered, in extensions.stats.
import { responsePathAsArray } from 'graphql';
import type { FieldCall, FieldStage } from '../field-stage.js';

export class StatsStage implements FieldStage {
  async intercept({ ctx, info }: FieldCall, next: () => Promise<unknown>): Promise<unknown> {
    if (!info.fieldNodes.some((n) => n.directives?.some((d) => d.name.value === 'stats'))) return next();
    const path = responsePathAsArray(info.path).join('.');
    const started = performance.now();
    try {
      return await next();
    } finally {
      ctx.stats[path] = { ms: +(performance.now() - started).toFixed(3), cached: ctx.cacheHits.has(path) };
    }
  }
}
