// The end of an operation that wrote (SPEC §4.3), for every way an operation runs (Apollo's response
// plugin and the in-process client): commit each source in the order the request first used it, or
// roll all back when the operation failed; then tell the caches what changed.
import type { GraphQLFormattedError } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { CommitError } from '../executor/transactions.js';
import type { WriteEvents } from '../executor/write-events.js';
import { ErrorCode } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

/**
 * Commits (`ok`) or rolls back the request's transactions. Resolves to the error to add to the
 * answer when a commit failed, else undefined. Sources committed before a failing one did change,
 * so their cached reads are dropped as after a full commit.
 */
export async function finishWrites(ctx: RequestContext, ok: boolean, writes: WriteEvents, log: Logger): Promise<GraphQLFormattedError | undefined> {
  try {
    await ctx.transactions.end(ok);
  } catch (e) {
    log.error({ err: e instanceof CommitError ? e.cause : e, source: e instanceof CommitError ? e.source : undefined }, 'commit failed');
    if (e instanceof CommitError && e.committed.length) writes.committed(ctx.written);
    const message = e instanceof CommitError ? e.message : 'the transaction could not be committed; nothing was written';
    return { message, extensions: { code: ErrorCode.QueryFailed } };
  }
  if (ok) writes.committed(ctx.written);
  return undefined;
}
