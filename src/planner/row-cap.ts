// The most rows a root list's or a table function's statement asks its database for (issue 31):
// one more than MAX_RESPONSE_ROWS where the caller gave no smaller limit. An answer with more root
// rows than the limit is refused (RESPONSE_TOO_LARGE) whatever follows, so the database stops at
// the first row over it instead of building, and sending, every row before the count refuses it.
import type { RootQuery } from './ir/select.js';

/** `plan` asking for at most `cap` root rows; as it is without a cap or for one row / an aggregation. */
export function capRows(plan: RootQuery, cap: number | undefined): RootQuery {
  if (cap === undefined) return plan;
  if (plan.kind === 'list') {
    const limit = plan.select.limit;
    return limit !== undefined && limit <= cap ? plan : { kind: 'list', select: { ...plan.select, limit: cap } };
  }
  if (plan.kind === 'call' && plan.result === 'table' && (plan.limit === undefined || plan.limit > cap)) return { ...plan, limit: cap };
  return plan;
}
