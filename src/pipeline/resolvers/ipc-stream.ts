// /ipc (SPEC §13): a root list is streamed row by row from a cursor once the operation has run;
// the answer holds [] meanwhile, and the rows are compiled apart from the plan cache.
import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { Executor } from '../../executor/executor.js';
import type { RequestContext } from '../../executor/request-context.js';
import type { SelectNode } from '../../planner/ir/select.js';
import { deniedPaths } from '../../planner/select.js';
import { ErrorCode } from '../../shared/errors.js';
import type { DataSourceRuntime } from '../../sources/types.js';
import { streamedList } from '../streamed.js';

/** Whether this list can be streamed: the source streams rows and no relation leads into another source. */
export const streamable = (runtime: DataSourceRuntime, remotes: number): boolean => !!runtime.streamRows && !!runtime.compiler.compileRows && !remotes;

/**
 * Registers the list's row stream with the request and answers [] in its place (/ipc), or a
 * StreamedList that /query's response writer reads while it writes (src/pipeline/streamed.ts).
 */
export function streamRows(executor: Executor, ctx: RequestContext, info: GraphQLResolveInfo, runtime: DataSourceRuntime, select: SelectNode): unknown {
  const stmt = runtime.compiler.compileRows!(select, ctx.timezone);
  ctx.statements++;
  const path = responsePathAsArray(info.path);
  if (!ctx.streams) return streamedList(ctx, () => executor.stream(ctx, runtime, stmt, true), path);
  // A field the role may not read is null in every row: one error per denied path, as graphql-js gives.
  const errors = deniedPaths(select).map((p) => ({ message: 'forbidden', path: [...path, ...p], extensions: { code: ErrorCode.Forbidden } }));
  ctx.streams!.set(path.join('.'), { source: runtime.name, rows: () => executor.stream(ctx, runtime, stmt), ...(errors.length ? { errors } : {}) });
  return [];
}
