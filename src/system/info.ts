// `core.info` (seed 001): what a load balancer or a client may learn about this node. The
// configuration shown is a copy made field by field, so nothing secret can slip in: no keys,
// passwords, tokens or client secrets, and connection strings lose their credentials.
import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Config, parallelLimit } from '../config/schema.js';
import type { FunctionHandler } from '../pipeline/resolver-deps.js';
import type { SystemFunction } from '../schema/surface.js';
import { redactUrl } from '../sources/postgres/source.js';

export const INFO_TYPES_SDL = [
  `"The embedded engine's configuration."
type EngineConfig {
  "DB_PATH (empty: in memory)"
  path: String!
  max_open_conns: Int!
  max_idle_conns: Int!
}`,
  `"The core database; a connection string is shown without its credentials."
type CoreDBConfig {
  path: String!
  "duckdb or postgres"
  type: String!
  read_only: Boolean!
}`,
  `"An authentication method that is switched on, with its public settings."
type AuthProviderConfig {
  "api_key, managed_api_key, jwt, oidc, anonymous or secret_key"
  type: String!
  issuer: String
  algorithm: String
  role: String
}`,
  `type CacheConfig {
  "Default lifetime of cached results (seconds or a duration)"
  ttl: String
  l1_enabled: Boolean!
  l2_enabled: Boolean!
  l2_backend: String
}`,
  `"The node's configuration, without secrets."
type NodeConfig {
  admin_ui: Boolean!
  debug: Boolean!
  allow_parallel: Boolean!
  max_parallel_queries: Int!
  max_depth: Int!
  engine: EngineConfig!
  coredb: CoreDBConfig!
  auth: [AuthProviderConfig!]!
  cache: CacheConfig!
}`,
  `type NodeInfo {
  cluster_mode: Boolean!
  "management, worker or standalone"
  node_role: String!
  node_name: String!
  version: String!
  build_date: String!
  config: NodeConfig!
}`,
  `type NodeVersion {
  version: String!
  build_date: String!
}`,
];

export const INFO_FUNCTIONS: readonly SystemFunction[] = [
  { module: 'core', mutation: false, name: 'info', args: '', returns: 'NodeInfo!', handler: 'core_info', description: 'This node: its role, version and configuration (never a secret)' },
  { module: 'core', mutation: false, name: 'version', args: '', returns: 'NodeVersion!', handler: 'core_version', description: 'Version and build date of the server' },
];

const here = fileURLToPath(import.meta.url);
let version: { version: string; build_date: string } | undefined;

/** The server's version (package.json) and build date (when this module was compiled). */
export function nodeVersion(): { version: string; build_date: string } {
  version ??= { version: readPackageVersion(), build_date: statSync(here).mtime.toISOString() };
  return version;
}

/** package.json sits two levels above src/system (TypeScript) or three above dist/src/system. */
function readPackageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(fileURLToPath(new URL(up, import.meta.url)), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc' && pkg.version) return pkg.version;
    } catch {
      // not at this level; try the next one
    }
  }
  return 'unknown';
}

/** A connection string without credentials: password masked, query parameters (sslkey, password, ...) dropped. */
function safeDsn(url: string): string {
  const masked = redactUrl(url);
  return masked.split('?')[0]!;
}

function authProviders(config: Config): Record<string, unknown>[] {
  const a = config.auth;
  const out: Record<string, unknown>[] = [];
  if (config.SECRET_KEY) out.push({ type: 'secret_key' });
  if (a.api_keys?.enabled) out.push({ type: 'api_key' });
  if (a.api_keys?.managed || config.ALLOW_MANAGED_API_KEYS) out.push({ type: 'managed_api_key' });
  if (a.jwt?.enabled) out.push({ type: 'jwt', issuer: a.jwt.issuer ?? null, algorithm: a.jwt.algorithm });
  if (a.oidc?.enabled) out.push({ type: 'oidc', issuer: a.oidc.issuer });
  const anonymous = a.anonymous?.enabled ?? config.ALLOWED_ANONYMOUS;
  if (anonymous) out.push({ type: 'anonymous', role: a.anonymous?.role ?? config.ANONYMOUS_ROLE });
  return out;
}

/** NodeConfig of seed 001, built only from settings that are safe to show. */
export function nodeConfig(config: Config): Record<string, unknown> {
  const core = config.CORE_DB_PATH;
  const pg = /^postgres(ql)?:\/\//.test(core);
  const ttl = config.cache.ttl ?? config.CACHE_TTL;
  return {
    admin_ui: config.ADMIN_UI,
    debug: config.DEBUG,
    allow_parallel: config.ALLOW_PARALLEL,
    max_parallel_queries: parallelLimit(config),
    max_depth: config.MAX_DEPTH,
    engine: { path: config.DB_PATH, max_open_conns: config.DB_MAX_OPEN_CONNS, max_idle_conns: config.DB_MAX_IDLE_CONNS },
    coredb: { path: pg ? safeDsn(core) : core, type: pg ? 'postgres' : 'duckdb', read_only: config.CORE_DB_READONLY },
    auth: authProviders(config),
    cache: {
      ttl: ttl === undefined || ttl === 0 || ttl === '' ? null : String(ttl),
      l1_enabled: !!config.cache.l1?.enabled,
      l2_enabled: !!config.cache.l2?.enabled,
      l2_backend: config.cache.l2?.enabled ? config.cache.l2.backend : null,
    },
  };
}

export function infoHandlers(config: Config): Record<string, FunctionHandler> {
  return {
    core_info: async () => ({
      cluster_mode: config.CLUSTER_ENABLED,
      node_role: config.CLUSTER_ENABLED ? config.CLUSTER_ROLE : 'standalone',
      node_name: config.CLUSTER_NODE_NAME || hostname(),
      ...nodeVersion(),
      config: nodeConfig(config),
    }),
    core_version: async () => nodeVersion(),
  };
}
