// Prometheus metrics of the query service (issue 21, listed in docs/operations.md). One registry;
// /metrics serves it merged with the result cache's (src/cache/metrics.ts). Names follow the
// Prometheus conventions: base units (seconds), `_total` for counters, low-cardinality labels.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TallyCounter, TallyHistogram } from './tally.js';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'svc_' });

const LATENCY = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface PoolStats {
  readonly inUse: number;
  readonly idle: number;
  readonly waiting: number;
}

/** Where the pool gauges read their values when scraped (set by the HTTP layer). */
let pools: () => Iterable<readonly [string, PoolStats]> = () => [];
/** Where the admission queue gauge reads its values when scraped. */
let queues: () => Iterable<readonly [string, number]> = () => [];

export const metrics = {
  // Observed on every request or statement: tallies (src/shared/tally.ts), the same on /metrics.
  httpDuration: new TallyHistogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP requests by method, route (the matched pattern, or "unmatched") and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: LATENCY,
    registers: [registry],
  }),
  statements: new TallyCounter({ name: 'svc_statements_total', help: 'SQL statements sent to sources', labelNames: ['source'] as const, registers: [registry] }),
  statementDuration: new TallyHistogram({
    name: 'svc_statement_duration_seconds',
    help: 'Round trip of one SQL statement to its source',
    labelNames: ['source'] as const,
    buckets: LATENCY,
    registers: [registry],
  }),
  poolConnections: new Gauge({
    name: 'svc_pool_connections',
    help: 'Connections of a pool (the embedded DuckDB engine, or a PostgreSQL source) by state',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, s] of pools()) {
        this.set({ pool, state: 'in_use' }, s.inUse);
        this.set({ pool, state: 'idle' }, s.idle);
      }
    },
  }),
  poolWaiting: new Gauge({
    name: 'svc_pool_waiting',
    help: 'Statements waiting for a connection of a pool',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, s] of pools()) this.set({ pool }, s.waiting);
    },
  }),
  admissionQueue: new Gauge({
    name: 'svc_admission_queue_length',
    help: 'Statements waiting to be admitted to a pool (the embedded DuckDB engine, or a PostgreSQL or MySQL source)',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, n] of queues()) this.set({ pool }, n);
    },
  }),
  admissionWait: new TallyHistogram({
    name: 'svc_admission_wait_seconds',
    help: 'Time a statement waited to be admitted to its pool (admitted statements; refused ones are counted apart)',
    labelNames: ['pool'] as const,
    buckets: LATENCY,
    registers: [registry],
  }),
  admissionRefused: new Counter({
    name: 'svc_admission_refused_total',
    help: 'Statements refused admission, by reason: queue_full (SOURCE_QUEUE_SIZE), wait_limit (SOURCE_QUEUE_TIMEOUT), cancelled (the client went away)',
    labelNames: ['pool', 'reason'] as const,
    registers: [registry],
  }),
  callerRefused: new Counter({
    name: 'svc_caller_refused_total',
    help: 'Requests refused at the HTTP entry (429), by reason: queue_full (CALLER_QUEUE_SIZE), wait_limit (CALLER_QUEUE_TIMEOUT)',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),
  schemaRebuilds: new Counter({ name: 'svc_schema_rebuilds_total', help: 'Times the served GraphQL schema was rebuilt (start, source loaded or unloaded)', registers: [registry] }),
  jqRuns: new Counter({
    name: 'svc_jq_runs_total',
    help: 'jq programs run, by outcome: ok, error (the program failed), timeout (JQ_TIMEOUT), memory (JQ_MAX_MEMORY)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  jqDuration: new Histogram({ name: 'svc_jq_duration_seconds', help: 'Run time of one jq program', buckets: LATENCY, registers: [registry] }),
  lineageEvents: new Counter({
    name: 'svc_lineage_events_total',
    help: 'OpenLineage run events by outcome: sent, failed (the receiver refused or did not answer), dropped (queue full or receiver resting)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  authFailures: new Counter({
    name: 'svc_auth_failures_total',
    help: 'Requests refused by authentication or authorisation, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),
};

const STATUS_CLASS = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  metrics.httpDuration.observe([method, route, STATUS_CLASS[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`], seconds);
}

export function readPoolsFrom(source: () => Iterable<readonly [string, PoolStats]>): void {
  pools = source;
}

export function readQueuesFrom(source: () => Iterable<readonly [string, number]>): void {
  queues = source;
}
