// Work the request pipeline did or skipped, for GET /metrics (SPEC §1). A repeated request should
// parse, validate and plan nothing (DESIGN.md §4); these counters show whether it did.
import { Counter, Registry } from 'prom-client';
import { TallyCounter } from '../shared/tally.js';

export const pipelineRegistry = new Registry();

/** Parses, validations and plans actually made (cache misses); a cached request adds none. */
export const planningWork = new Counter({
  name: 'svc_planning_total', help: 'GraphQL parses, validations and root field plans actually made (not served from a cache)',
  labelNames: ['step'] as const, registers: [pipelineRegistry],
});

/**
 * Query operations the fast path answered: `spliced` (the database's JSON written as it is),
 * `written` (the answer text written straight from rows, src/pipeline/fast-path/write.ts),
 * `completed` (completed without graphql-js), `general` (fetched, then left to graphql-js).
 */
export const fastPathAnswers = new TallyCounter({
  name: 'svc_fast_path_total', help: 'Query operations answered by the fast path, by outcome', labelNames: ['outcome'] as const, registers: [pipelineRegistry],
});

/**
 * POST /query requests of an operation the fast path answered before: `answered` without Apollo,
 * `apollo` when they went on to Apollo after all (an error, a value only graphql-js completes).
 */
export const preparedAnswers = new TallyCounter({
  name: 'svc_prepared_total', help: 'Requests of prepared operations, by whether they were answered without Apollo', labelNames: ['outcome'] as const, registers: [pipelineRegistry],
});
