// Per-request state shared by resolvers, field stages and the executor.
import type { Identity } from '../auth/identity.js';
import { authVariablesOf } from '../auth/variables.js';
import { type RoleAccess, UNRESTRICTED } from '../permissions/access.js';
import { Serial } from '../shared/mutex.js';
import { RequestTransactions } from './transactions.js';
import type { ResponseBudget } from './response-budget.js';
import type { CancelSignal, RequestScope } from '../shared/request-scope.js';

/** The rows of one root list, read when /ipc writes them (a batch at a time). */
export interface RowStream {
  readonly source: string;
  rows(): AsyncGenerator<readonly unknown[]>;
  /** Errors known before the rows are read (fields the role may not use: `forbidden`, once per field). */
  readonly errors?: readonly Record<string, unknown>[];
}

/** One `@stats` field of a request, as the stats stage measured it (src/pipeline/stages/) (nanoseconds). */
export interface FieldStats {
  readonly path: readonly (string | number)[];
  readonly name: string;
  readonly node: number;
  readonly planning: number;
  readonly compile: number;
  readonly cached: boolean;
}

export class RequestContext {
  readonly transactions = new RequestTransactions();
  /** Mutations run in document order, even when nested under module fields. */
  readonly serial = new Serial();
  /** Statements sent to sources by this request (observable in tests and @stats). */
  statements = 0;
  /**
   * Cross-source levels whose source failed: their fields answer an error at their paths and the
   * rest of the answer stands (src/executor/cross-source.ts). Such a partial answer is not cached.
   */
  nestedFailures = 0;
  /** `@stats` timings of the root fields that asked for them (src/pipeline/stages/stats-tree.ts). */
  readonly stats: FieldStats[] = [];
  /** performance.now() when the request began: an operation's `@stats` total_time. */
  readonly started = performance.now();
  /** Response paths answered from the result cache (@stats, X-Svc-Cache). */
  readonly cacheHits = new Set<string>();
  /** Data objects this request wrote; announced once the writes are committed. */
  readonly written = new Set<string>();
  /** Data objects this request read (the tags of a cached /jq-query answer, SPEC §9). */
  readonly reads = new Set<string>();
  /**
   * Set by /ipc (SPEC §13): root lists are not read whole; each registers its rows here, by response
   * path (`shop.products`), and /ipc streams them from a cursor once the operation has run.
   */
  streams?: Map<string, RowStream>;
  /**
   * Set by /query (STREAM_LIST_ROWS): a root list asked for more rows than this, answered by the fast
   * path, is not read whole; its rows are written to the socket as they are read (StreamedList).
   */
  streamAbove?: number;
  /** The lists this request writes row by row, by their id in the answer text (src/pipeline/streamed.ts). */
  readonly streamed: import('../shared/json.js').StreamedList[] = [];
  /**
   * A refusal that concerns the whole request rather than one field (an internal cluster call
   * without the cluster secret, SPEC §12): the HTTP status the response goes out with.
   */
  httpStatus?: number;
  /** jq programs sent outside the document (the `_jq` variable): the variables they read count as used. */
  readonly jqPrograms: string[] = [];

  /**
   * Set by the fast path (src/pipeline/fast-path/) while it runs the root fields: reads return the
   * database's JSON text (RawJson) instead of a parsed value.
   */
  rawJson = false;
  /**
   * Root field answers the fast path already fetched but could not complete itself, by response
   * key: graphql-js completes them instead, without asking the database again.
   */
  readonly prefetched = new Map<string, { readonly value: unknown } | { readonly error: unknown }>();

  /** What this request's answer holds so far, against MAX_RESPONSE_ROWS / MAX_RESPONSE_BYTES (src/executor/executor.ts). */
  responseBudget: ResponseBudget | undefined;
  /** The request this operation runs inside (querySvc of a jq program): they share its budget. */
  budgetOf?: RequestContext;

  /** Aborted when the client went away (src/shared/request-scope.ts); none outside HTTP requests. */
  signal?: CancelSignal;

  /**
   * The HTTP request this operation serves (its log line, metrics, lineage), when the context
   * factory was given it; readers fall back to the AsyncLocalStorage (`scopeOf`).
   */
  scope?: RequestScope;

  /** `[$auth.*]` values of this identity (permission filters, stamps, SQL templates). */
  readonly authVars: Readonly<Record<string, unknown>>;

  /**
   * Made by src/pipeline/context.factory.ts only (identity, role gate, access, endpoint, zone,
   * limits are decided there, once for every entry point).
   */
  constructor(
    readonly identity: Identity,
    /** The role's permissions; unrestricted for internal callers. */
    readonly access: RoleAccess = UNRESTRICTED,
    /** IANA time zone timestamps are rendered in (SPEC §10). */
    readonly timezone = 'UTC',
    /** The request limits of /query (MAX_DEPTH, MAX_QUERY_COST, ...) apply: false only for the system identity. */
    readonly limited = false,
  ) {
    this.authVars = authVariablesOf(identity);
  }
}
