// The default resolver of every nested field of the served schema: the statement built the answer
// keyed by response key. Here, below the pipeline and federation, because both read answers so.
import type { GraphQLFieldResolver } from 'graphql';

/** Nested values are read by response key, so aliases of one field with other arguments work. */
export const byResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) => {
  if (!source || typeof source !== 'object') return undefined;
  const row = source as Record<string, unknown>;
  const v = row[info.path.key as string];
  // A cross-source level that failed left its error here: the field fails at its path (src/executor/cross-source.ts).
  if (v instanceof Error) throw v;
  // Objects the database returns whole (function results, JSON) are keyed by field name.
  return v === undefined ? row[info.fieldName] : v;
};
