// The configuration of the query service (SPEC §2): one typed object, validated at boot.
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseDurationMs, parseSizeMb } from '../shared/duration.js';
import { isTimeZone } from '../shared/timezone.js';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 'TRUE', 'FALSE', 'True', 'False'])])
  .transform((v) => (typeof v === 'boolean' ? v : ['true', '1', 'yes', 'on', 'TRUE', 'True'].includes(v)));
const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'expected an integer')]).transform(Number);
/** A duration written by people (`60s`, `500ms`, `2m`, bare seconds) -> milliseconds; 0 turns the limit off. */
const duration = z
  .union([z.number().nonnegative(), z.string()])
  .transform((v, ctx) => {
    const ms = typeof v === 'number' ? v * 1000 : parseDurationMs(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected a duration such as "60s", "500ms" or "2m"' });
      return z.NEVER;
    }
    return ms;
  });
/** A size in megabytes (`512`, `512MB`, `1GB`), at least 16. */
const sizeMb = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const mb = typeof v === 'number' ? v : parseSizeMb(v);
  if (mb === undefined || mb < 16) {
    ctx.addIssue({ code: 'custom', message: `invalid size ${JSON.stringify(v)} (use e.g. "512MB", at least 16MB)` });
    return z.NEVER;
  }
  return mb;
});
const list = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v : v.split(',').map((s) => s.trim()).filter(Boolean)));

/** Names proxy-addr (Fastify's trustProxy) knows for whole ranges of private addresses. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8` or one of PROXY_RANGES: what Fastify's trustProxy list takes. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [ip = '', prefix, ...rest] = entry.split('/');
  const family = isIP(ip);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}
/**
 * TRUST_PROXY as Fastify's own `trustProxy` option: `false` (the socket's address), `true` (every
 * hop), a hop count, or the proxies' addresses/CIDRs. Checked here so a typo stops the start with
 * one line rather than being taken for an address that never matches.
 */
const trustProxy = z.union([z.boolean(), z.number(), z.string(), z.array(z.string())]).transform((v, ctx): boolean | number | string[] => {
  if (typeof v === 'boolean') return v;
  const text = typeof v === 'number' ? String(v) : Array.isArray(v) ? v.join(',') : v.trim();
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = entries.find((e) => !isProxyAddress(e));
  if (bad !== undefined || !entries.length) {
    ctx.addIssue({ code: 'custom', message: `${bad === undefined ? 'empty' : JSON.stringify(bad)} is not an address or CIDR: expected false, true, a hop count or a comma-separated list of addresses/CIDRs (or loopback, linklocal, uniquelocal)` });
    return z.NEVER;
  }
  return entries;
});

const apiKey = z.strictObject({
  key: z.string().min(1),
  role: z.string().optional(),
  username: z.string().optional(),
  user_id: z.union([z.string(), z.number()]).transform(String).optional(),
  /**
   * Request headers that name the user behind this key (issue 14 item 3): read only when named here
   * (or by `header_username` / `header_user_id` for every key); by default they are ignored.
   */
  headers: z.strictObject({ user_id: z.string().min(1).optional(), user_name: z.string().min(1).optional() }).optional(),
});

export const authSchema = z.strictObject({
  api_keys: z
    .strictObject({
      enabled: bool.default(false),
      managed: bool.default(false),
      // Opt-in for every static key: empty (the default) means the headers are ignored.
      header_username: z.string().default(''),
      header_user_id: z.string().default(''),
      keys: z.array(apiKey).default([]),
    })
    .optional(),
  anonymous: z.strictObject({ enabled: bool.optional(), role: z.string().optional() }).optional(),
  jwt: z
    .strictObject({
      enabled: bool.default(true),
      secret: z.string().optional(),
      public_key: z.string().optional(),
      jwks_url: z.string().optional(),
      algorithm: z.enum(['HS256', 'RS256', 'ES256']).default('HS256'),
      issuer: z.string().optional(),
      audience: z.string().optional(),
      role_claim: z.string().default('role'),
      role_scope_prefix: z.string().optional(),
      role_priority: z.array(z.string()).default([]),
      custom_claims: z.record(z.string(), z.string()).default({}),
    })
    .optional(),
  oidc: z
    .strictObject({
      enabled: bool.default(true),
      issuer: z.string(),
      client_id: z.string().optional(),
      client_secret: z.string().optional(),
      redirect_uri: z.string().optional(),
      role_claim: z.string().optional(),
      role_scope_prefix: z.string().optional(),
      additional_scopes: z.array(z.string()).default([]),
    })
    .optional(),
});

export const cacheSchema = z.strictObject({
  ttl: z.union([z.number(), z.string()]).optional(),
  l1: z.strictObject({ enabled: bool.default(false), max_size: int.optional(), max_item_size: int.optional() }).optional(),
  l2: z
    .strictObject({
      enabled: bool.default(false),
      backend: z.literal('redis').default('redis'),
      addresses: list.default([]),
      database: int.optional(),
      username: z.string().optional(),
      password: z.string().optional(),
      /** Namespace of svc's keys in Redis, so several deployments can share one server. */
      prefix: z.string().optional(),
    })
    .optional(),
});

/** Flat settings: environment variable names (upper case) or the same names in lower case in YAML. */
export const settingsShape = {
  BIND: z.string().default(':15000'),
  SERVICE_BIND: z.string().default(''),
  ADMIN_UI: bool.default(true),
  DEBUG: bool.default(false),
  ALLOW_PARALLEL: bool.default(true),
  /** Statements executing at once; unset: sized to the pools (see parallelLimit), 0: unlimited. */
  MAX_PARALLEL_QUERIES: int.optional(),
  MAX_DEPTH: int.default(7),
  /** Longest a statement may run on any source, ms (PostgreSQL statement_timeout, DuckDB interrupt). */
  QUERY_TIMEOUT: duration.default(60_000),
  /** The estimated objects one request may ask for (src/pipeline/limits/cost-limit.ts); 0: no limit. */
  MAX_QUERY_COST: int.default(10_000_000),
  MAX_ROOT_FIELDS: int.default(100),
  MAX_ALIASES: int.default(500),
  /**
   * Tokens of a GraphQL document, counted before it is parsed (and graphql-js maxTokens as well).
   * Issue 31 asks that a document at the limit cost at most 50 ms of the event loop: at 4000 the
   * costliest shape measured (hundreds of fragments spread in one selection, which graphql-js
   * validates pairwise) took 65-90 ms, at 2000 31-44 ms (docs/configuration.md "Limits").
   */
  MAX_TOKENS: int.default(2_000),
  /**
   * The same count for anonymous callers (the smaller of the two applies; 0: MAX_TOKENS alone). A
   * document with a new text each time is parsed, validated and planned whole on the event loop: eight
   * anonymous clients sending such documents at 2000 tokens pushed a signed-in probe's p99 to 3.2-3.7x
   * its value alone (issue 31). The largest documents in the repository have about 320 tokens.
   */
  ANONYMOUS_MAX_TOKENS: int.refine((n) => n >= 0, 'must be 0 (no limit of its own) or more').default(500),
  /**
   * Values of one list in a JSON request body (an `in` list, a batch insert's rows), refused while the
   * body streams in (src/pipeline/limits/body-scan.ts), before the rest is read or parsed: 200,000 ids
   * cost seconds and most of a GB once, 25 ms of event loop to parse (issue 31). 0: no limit.
   */
  MAX_LIST_VALUES: int.default(10_000),
  /**
   * The most one request's answer may hold (issue 31, src/executor/response-budget.ts): objects (every
   * row of every list) and bytes of JSON, counted as each answer arrives from its source, before it
   * is parsed or written; /ipc streams stop at the same bounds. Root lists and table functions ask
   * the database for at most MAX_RESPONSE_ROWS + 1 rows (src/planner/row-cap.ts). 0: no limit.
   */
  MAX_RESPONSE_ROWS: int.refine((n) => n >= 0, 'must be 0 (no limit) or more').default(1_000_000),
  MAX_RESPONSE_BYTES: int.refine((n) => n >= 0, 'must be 0 (no limit) or more').default(256 * 1024 * 1024),
  /**
   * The same two limits for anonymous callers (the smaller of the pair applies; 0: MAX_RESPONSE_*
   * alone): anyone who can reach the server may ask, and eight of them asking for a 1,000,000-row
   * answer each held both cores of the fairness bench (issue 31). Signed-in callers keep the large ones.
   */
  ANONYMOUS_MAX_RESPONSE_ROWS: int.refine((n) => n >= 0, 'must be 0 (no limit of its own) or more').default(10_000),
  ANONYMOUS_MAX_RESPONSE_BYTES: int.refine((n) => n >= 0, 'must be 0 (no limit of its own) or more').default(8 * 1024 * 1024),
  /** Roles (and `secret_key`) not bound by the three limits above; nobody by default. */
  COST_LIMITS_EXEMPT: list.default([]),
  /**
   * Requests of one caller running at once at the HTTP entry (issue 31, src/http/caller-gate.ts): a
   * caller is its credential, an anonymous one its address. Further requests wait in the caller's
   * queue (CALLER_QUEUE_SIZE) up to CALLER_QUEUE_TIMEOUT, then 429 TOO_MANY_REQUESTS. 0: no limit.
   */
  MAX_REQUESTS_PER_CALLER: int.refine((n) => n >= 0, 'must be 0 (no limit) or more').default(4),
  /**
   * Requests of all anonymous callers together running at once (each address still at most
   * MAX_REQUESTS_PER_CALLER): eight anonymous addresses would otherwise run 32 against a signed-in
   * caller's 4 and take the event loop from it. 0: no limit of their own.
   */
  ANONYMOUS_MAX_REQUESTS: int.refine((n) => n >= 0, 'must be 0 (no limit of its own) or more').default(4),
  /**
   * Requests of one anonymous address running at once (within MAX_REQUESTS_PER_CALLER): a refused
   * request still costs ~2 ms of the event loop, and eight clients from one address looping an alias
   * flood ran 4 of them beside a signed-in caller's one (issue 31). The rest wait, at no cost, in the
   * address's queue. 0: MAX_REQUESTS_PER_CALLER alone.
   */
  ANONYMOUS_MAX_REQUESTS_PER_ADDRESS: int.refine((n) => n >= 0, 'must be 0 (no limit of its own) or more').default(1),
  ANONYMOUS_REFUSAL_HOLD: duration.default(250),
  /**
   * Which proxies in front of svc may name the client (`X-Forwarded-For`), as Fastify's `trustProxy`:
   * the address an anonymous caller is told apart by (above) and admission's anonymous user come from
   * `request.ip`. Off by default: a client that reaches svc directly could name any address and so
   * take a fresh anonymous turn with each request.
   */
  TRUST_PROXY: trustProxy.default(false),
  CALLER_QUEUE_SIZE: int.refine((n) => n >= 0, 'must be 0 or more').default(100),
  CALLER_QUEUE_TIMEOUT: duration.default(10_000),
  /** 2 MiB: parsing a JSON body blocks the event loop, about 10 ms per MB (issue 15 fairness). */
  MAX_BODY_SIZE: int.default(2 * 1024 * 1024),
  CATALOGS_DIR: z.string().default('./catalogs'),
  /** Directories a catalog source may read local files from (CATALOGS_DIR is always one of them). */
  CATALOG_ALLOWED_PATHS: list.default([]),
  /** Directories core.storage `ls` may list local files in; empty: local paths are refused. */
  STORAGE_LOCAL_PATHS: list.default([]),
  /** Where DuckDB sources keep their copies of object storage files (issue 17 item 8). */
  STORAGE_CACHE_DIR: z.string().default('data/storage-cache'),
  /** Files one ls (or one storage URL of a DuckDB source) may name at most. */
  STORAGE_MAX_FILES: int.default(1000),
  /**
   * Admission in front of each pool of connections (issue 31, src/executor/admission.ts): the share
   * of a pool's connections one role may hold (anonymous callers count as one role), how many
   * statements of one role may wait, and how long one may wait before SOURCE_UNAVAILABLE.
   */
  SOURCE_ROLE_SHARE: z.union([z.number(), z.string().regex(/^\d*\.?\d+$/, 'expected a number above 0, at most 1')]).transform(Number).pipe(z.number().gt(0).max(1)).default(0.5),
  /**
   * The share anonymous callers together may hold (at least one connection): smaller than a role's,
   * since anyone who can reach the server is one of them. Measured (issue 31, 2 cores, 4 DuckDB
   * connections, 8 anonymous attackers): at 0.5 a signed-in probe's statement shared DuckDB's CPU
   * with two attack statements (p50 18-36 ms), at 0.25 with one (9-11 ms).
   */
  ANONYMOUS_SOURCE_SHARE: z.union([z.number(), z.string().regex(/^\d*\.?\d+$/, 'expected a number above 0, at most 1')]).transform(Number).pipe(z.number().gt(0).max(1)).default(0.25),
  // Statements, not requests: one request with 20 root fields queues 20. The bound is on memory; the wait limit bounds time.
  SOURCE_QUEUE_SIZE: int.refine((n) => n >= 0, 'at least 0').default(1000),
  SOURCE_QUEUE_TIMEOUT: duration.default(5_000),
  /** DuckDB's memory_limit (MB): by default a quarter of the machine's memory, so the Node process keeps room. */
  DUCKDB_MEMORY_LIMIT: sizeMb.optional(),
  /** DuckDB's worker threads; unset: the number of CPUs (DuckDB's own default). */
  DUCKDB_THREADS: int.refine((n) => n >= 1, 'at least 1 thread').optional(),
  /**
   * An ordered DuckDB list streamed longer than this many rows is read in windows of its order keys
   * of this many rows, each sorted alone, instead of one sort of every row (issue 30); 0: one sort.
   */
  DUCKDB_WINDOW_ROWS: int.default(16_384).refine((n) => n >= 0, 'must be 0 (one sort) or more'),
  DB_PATH: z.string().default(''),
  DB_MAX_OPEN_CONNS: int.default(0),
  /** Idle connections each pool keeps (DuckDB reads, every PostgreSQL and MySQL source); 0: the engine's default. */
  DB_MAX_IDLE_CONNS: int.default(0).refine((n) => n >= 0, 'must be 0 or more'),
  /** How long a role's permissions are kept (SPEC §7 RolePermissions:<role>); 0 reads them on every request. */
  ROLE_PERMISSIONS_TTL: duration.default(3_600_000).refine((ms) => ms <= 86_400_000, 'at most 24h'),
  DB_PG_CONNECTION_LIMIT: int.default(0),
  /** PostgreSQL and MySQL reads return rows assembled in Node (docs/sql.md "Rows"); false: one JSON document per read, as before. */
  SQL_ROWS: bool.default(true),
  /**
   * /query: a root list asked for more rows than this (its `limit`; root lists default to 2000) is
   * written to the socket as its rows are read, never held whole (issue 30); 0: never.
   */
  STREAM_LIST_ROWS: int.default(10_000).refine((n) => n >= 0, 'must be 0 (never) or more'),
  DB_TIMEZONE: z.string().default('').refine((v) => v === '' || isTimeZone(v), 'not an IANA time zone name'),
  CORE_DB_PATH: z.string().default('data/core.duckdb'),
  CORE_DB_READONLY: bool.default(false),
  SECRET_KEY: z.string().default(''),
  CLUSTER_SECRET: z.string().default(''),
  /** Cluster mode (SPEC §12): one management node and workers sharing a PostgreSQL core database. */
  CLUSTER_ENABLED: bool.default(false),
  CLUSTER_ROLE: z.enum(['management', 'worker']).default('worker'),
  /** This node's name in `core.cluster.nodes`; empty: the host name. */
  CLUSTER_NODE_NAME: z.string().default(''),
  /** The base URL other nodes reach this one at (`http://w1:15000`); empty: derived from BIND. */
  CLUSTER_NODE_URL: z.string().default(''),
  CLUSTER_HEARTBEAT: duration.default(30_000),
  /** Management removes nodes whose last heartbeat is older than this. */
  CLUSTER_GHOST_TTL: duration.default(120_000),
  /** Workers compare `schema_version` this often and reconcile what they serve. */
  CLUSTER_POLL_INTERVAL: duration.default(30_000),
  /** Longest one internal call to another node may take (a broadcast, a forwarded mutation). */
  CLUSTER_TIMEOUT: duration.default(10_000),
  ALLOWED_ANONYMOUS: bool.default(true),
  ANONYMOUS_ROLE: z.string().default('admin'),
  ALLOW_MANAGED_API_KEYS: bool.default(false),
  CACHE_TTL: z.union([int, z.string()]).default(0),
  CORS_ALLOWED_ORIGINS: list.default([]),
  CORS_ALLOWED_METHODS: list.default([]),
  CORS_ALLOWED_HEADERS: list.default([]),
  /** How far past `exp` (or before `nbf`) a JWT or OIDC token is still accepted, for clocks that disagree; 0 by default. */
  JWT_CLOCK_LEEWAY: duration.default(0),
  OIDC_COOKIE_NAME: z.string().default('svc_session'),
  OIDC_TIMEOUT: z.string().default('10s'),
  OIDC_USERNAME_CLAIM: z.string().default(''),
  OIDC_USERID_CLAIM: z.string().default(''),
  EMBEDDER_URL: z.string().default(''),
  EMBEDDER_MODEL: z.string().default(''),
  EMBEDDER_API_KEY: z.string().default(''),
  TLS_CERT_FILE: z.string().default(''),
  TLS_KEY_FILE: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json`: one JSON object a line, for collectors; `pretty`: a readable line, for people. */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /**
   * A declared data source that fails to load at start stops the start (exit 2, one line naming
   * it). Unset: true when NODE_ENV is production (what `npm start` and the container run), false
   * otherwise (`npm run dev`, tests); src/config/load.ts decides.
   */
  STRICT_SOURCES: bool.optional(),
  /** /ready answers 200 `degraded` rather than 503 while a declared source is not loaded. */
  READY_WITH_FAILED_SOURCES: bool.default(false),
  /**
   * Request lines (`"msg":"request"`) written at most this many times a second; the rest of that second is
   * counted and the next line says how many it left out (`skipped`). Failed requests (warn, error) always. 0: every request.
   */
  LOG_REQUESTS_PER_SECOND: int.refine((n) => n >= 0, 'must be 0 (no limit) or more').default(100),
  /** After SIGTERM: how long requests in flight may take before the process exits anyway (ms). */
  SHUTDOWN_TIMEOUT: duration.default(30_000),
  /** After SIGTERM: how long to keep serving with /ready at 503 before refusing connections (ms). */
  SHUTDOWN_DELAY: duration.default(0),
  /** Time limit of one jq evaluation, all passes included (SPEC §8). */
  JQ_TIMEOUT: duration.refine((ms) => ms > 0, 'a jq time limit must be above 0').default(10_000),
  /** How long a jq program may wait for a worker before it is refused (JQ_BUSY, 503, retryable); not part of JQ_TIMEOUT. */
  JQ_WAIT_TIMEOUT: duration.refine((ms) => ms > 0, 'a jq wait limit must be above 0').default(10_000),
  /** Memory bound of one jq program, MB. */
  JQ_MAX_MEMORY: sizeMb.default(512),
  /** jq worker threads; unset: 2 to 4 by CPU count (src/jq/pool.ts). */
  JQ_WORKERS: int.refine((n) => n >= 1, 'at least 1 worker').optional(),
  /** OpenLineage (SPEC §14): the receiver's base URL; empty = no lineage events. */
  OPENLINEAGE_URL: z.string().default(''),
  /** Path of the receiver's endpoint, resolved against OPENLINEAGE_URL (the OpenLineage client's default). */
  OPENLINEAGE_ENDPOINT: z.string().default('api/v1/lineage'),
  /** Sent as `Authorization: Bearer <key>` when set. */
  OPENLINEAGE_API_KEY: z.string().default(''),
  /** The job namespace of svc's events. */
  OPENLINEAGE_NAMESPACE: z.string().default('svc'),
  OPENLINEAGE_TIMEOUT: duration.default(5_000),
  /** Events waiting to be sent at most; beyond it they are dropped (and counted). */
  OPENLINEAGE_QUEUE_SIZE: int.default(1000),
  /** `subject`: the svc_acl facet names the token's subject; `roles` (default): roles only. */
  ACL_LINEAGE_IDENTITY: z.enum(['roles', 'subject']).default('roles'),
  /** Datasets listed per event at most; beyond it the event says `truncated`. */
  ACL_LINEAGE_MAX_EDGES: int.default(4096),
  /** This node's resource group, named in the svc_acl facet (`node_group`). */
  NODE_GROUP: z.string().default(''),
  /** Serve /mcp, the Model Context Protocol endpoint for AI agents (docs/mcp.md). Off: a new way in, opted into. */
  MCP_ENABLED: bool.default(false),
  /** Offer the MCP `mutate` tool to roles that may write; off: agents only read. */
  MCP_ALLOW_MUTATIONS: bool.default(false),
  /** Rows per list in an MCP tool's answer; the answer says when it was cut. */
  MCP_MAX_ROWS: int.refine((n) => n >= 1, 'at least 1 row').default(100),
  /** Bytes of an MCP tool's answer at most (an agent's context window is small). */
  MCP_MAX_BYTES: int.refine((n) => n >= 256, 'at least 256 bytes').default(65_536),
  /** Serve as an Apollo Federation 2 subgraph: `_service`, `_entities`, `@key` on objects with a primary key (docs/extending.md). */
  FEDERATION: bool.default(false),
  /** Nest module files `npm start` imports into the application (a comma list, or a YAML list). */
  EXTENSIONS: list.default([]),
  /** Apollo Studio (both needed; off by default): usage and schema reporting through Apollo Server's plugins. */
  APOLLO_KEY: z.string().default(''),
  APOLLO_GRAPH_REF: z.string().default(''),
  /** Share of operations reported with field-level traces (0..1); sampled operations skip the fast path. */
  APOLLO_FIELD_LEVEL_SAMPLING: z.union([z.number(), z.string().regex(/^\d*\.?\d+$/, 'expected a number from 0 to 1')]).transform(Number).pipe(z.number().min(0).max(1)).default(0.01),
  /** Where usage reports go (Apollo's endpoint when empty): a collector of your own, or a test's receiver. */
  APOLLO_USAGE_REPORTING_URL: z.string().default(''),
  /** Where schema reports go (Apollo's endpoint when empty). */
  APOLLO_SCHEMA_REPORTING_URL: z.string().default(''),
  /** Serve only the operations of PERSISTED_QUERIES_MANIFEST (an operation safelist). */
  PERSISTED_QUERIES_ONLY: bool.default(false),
  /** A persisted query manifest (`{format: "apollo-persisted-query-manifest", version: 1, operations: [{id, body}]}`). */
  PERSISTED_QUERIES_MANIFEST: z.string().default(''),
} as const;

export const settingsSchema = z.strictObject(settingsShape);

/**
 * MAX_PARALLEL_QUERIES when unset (issue 15): the DuckDB read pool plus one PostgreSQL pool, so
 * statements beyond what the connections can run wait in one fair queue instead of piling up.
 */
export function parallelLimit(c: Pick<Settings, 'MAX_PARALLEL_QUERIES' | 'DB_MAX_OPEN_CONNS' | 'DB_PG_CONNECTION_LIMIT'>): number {
  return c.MAX_PARALLEL_QUERIES ?? (c.DB_MAX_OPEN_CONNS > 0 ? c.DB_MAX_OPEN_CONNS : 4) + (c.DB_PG_CONNECTION_LIMIT > 0 ? c.DB_PG_CONNECTION_LIMIT : 10);
}
export type Settings = z.infer<typeof settingsSchema>;

export interface Config extends Settings {
  auth: z.infer<typeof authSchema>;
  cache: z.infer<typeof cacheSchema>;
  /** Where the YAML file came from, for messages. */
  configFile?: string;
}
