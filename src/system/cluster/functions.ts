// `core.cluster` functions (seed 001): reads, the user-facing cluster mutations (run on management,
// forwarded there from a worker) and the internal broadcast mutations, which only a caller holding
// the cluster secret may run.
import type { RequestContext } from '../../executor/request-context.js';
import type { FunctionHandler } from '../../pipeline/resolver-deps.js';
import type { SystemFunction } from '../../schema/surface.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { argTypes, CLUSTER_SECRET_HEADER } from './client.js';
import type { ClusterService } from './service.js';

const M = 'core.cluster';
const op = (name: string, args: string, description: string): SystemFunction => ({ module: M, mutation: true, name, args, returns: 'OperationResult', handler: `cluster_${name}`, description });

const STORAGE_ARGS =
  '(type: String!, name: String!, scope: String!, key: String!, secret: String!, endpoint: String!, use_ssl: Boolean = true, url_style: String = "path", region: String = "")';

/** Forwarded from a worker to management. */
const USER_FACING = [
  op('load_source', '(name: String!)', 'Loads (compiles and serves) a data source on every node of the cluster'),
  op('unload_source', '(name: String!)', 'Stops serving a data source on every node; its registration is kept'),
  op('reload_source', '(name: String!)', 'Reloads a data source on every node (after its catalog or database changed)'),
  op('register_storage', STORAGE_ARGS, 'Registers (or updates) an object storage on every node'),
  op('unregister_storage', '(name: String!)', 'Removes an object storage from every node'),
  op('invalidate_cache', '(catalog: String)', 'Drops cached schema views and results of one catalog (all without one) on every node'),
];

/** Sent by management to every worker with the cluster secret. */
const INTERNAL = [
  op('handle_source_load', '(name: String!)', 'Internal (cluster secret): load a data source that management has loaded'),
  op('handle_source_unload', '(name: String!)', 'Internal (cluster secret): unload a data source that management has unloaded'),
  op('handle_cache_invalidate', '(catalog: String, tags: [String!])', 'Internal (cluster secret): drop cached schema views, results and the given cache tags'),
  op('handle_secret_sync', '', 'Internal (cluster secret): re-read object storage secrets from the core database'),
];

export const CLUSTER_FUNCTIONS: readonly SystemFunction[] = [
  { module: M, mutation: false, name: 'schema_version', args: '', returns: 'Int!', handler: 'cluster_schema_version', description: 'Counter of schema changes, for change detection (workers poll it)' },
  { module: M, mutation: false, name: 'my_role', args: '', returns: 'String!', handler: 'cluster_my_role', description: 'management or worker (standalone outside cluster mode)' },
  { module: M, mutation: false, name: 'management_url', args: '', returns: 'String', handler: 'cluster_management_url', description: 'Base URL of the management node; null when none is registered' },
  ...USER_FACING,
  ...INTERNAL,
];

/** Internal calls carry the cluster secret; anyone else is refused: 401 without credentials, else 403. */
function requireClusterSecret(ctx: RequestContext, field: string): void {
  if (ctx.identity.authType === 'cluster') return;
  const anonymous = ctx.identity.authType === 'anonymous';
  const status = anonymous ? 401 : 403;
  ctx.httpStatus = status;
  throw new PublicError(anonymous ? ErrorCode.Unauthenticated : ErrorCode.Forbidden, `${field} is an internal cluster call: it needs the cluster secret (header ${CLUSTER_SECRET_HEADER})`, status);
}

export function clusterHandlers(cluster: () => ClusterService): Record<string, FunctionHandler> {
  const name = (a: Record<string, unknown>) => String(a.name ?? '');
  const catalog = (a: Record<string, unknown>) => (typeof a.catalog === 'string' && a.catalog ? a.catalog : undefined);
  const types = new Map(USER_FACING.map((f) => [f.name, argTypes(f.args)]));
  /** On a worker, a user-facing mutation is management's to run. */
  type Run = (c: ClusterService, a: Record<string, unknown>, invoke: (h: FunctionHandler) => Promise<unknown>) => Promise<unknown>;
  const userFacing = (field: string, run: Run): FunctionHandler => async (args, ctx, access) => {
    const c = cluster();
    return c.role === 'worker' ? c.forward(field, args, types.get(field)!) : run(c, args, (h) => h(args, ctx, access));
  };
  const internal = (field: string, run: Run): FunctionHandler => async (args, ctx, access) => {
    requireClusterSecret(ctx, field);
    return run(cluster(), args, (h) => h(args, ctx, access));
  };
  return {
    cluster_schema_version: async () => cluster().store.schemaVersion(),
    cluster_my_role: async () => cluster().role,
    cluster_management_url: async () => cluster().managementUrl(),
    cluster_load_source: userFacing('load_source', (c, a) => c.changeSource('load', name(a))),
    cluster_unload_source: userFacing('unload_source', (c, a) => c.changeSource('unload', name(a))),
    cluster_reload_source: userFacing('reload_source', (c, a) => c.changeSource('reload', name(a))),
    cluster_register_storage: userFacing('register_storage', (c, _a, invoke) => c.storage('register_object_storage', invoke)),
    cluster_unregister_storage: userFacing('unregister_storage', (c, _a, invoke) => c.storage('unregister_storage', invoke)),
    cluster_invalidate_cache: userFacing('invalidate_cache', (c, a) => c.invalidateCache(catalog(a))),
    cluster_handle_source_load: internal('handle_source_load', (c, a) => c.handleSource(name(a))),
    cluster_handle_source_unload: internal('handle_source_unload', (c, a) => c.handleSource(name(a))),
    cluster_handle_cache_invalidate: internal('handle_cache_invalidate', (c, a) => c.handleCacheInvalidate(catalog(a), (a.tags as string[] | null | undefined) ?? undefined)),
    cluster_handle_secret_sync: internal('handle_secret_sync', (c, _a, invoke) => c.handleSecretSync(invoke)),
  };
}
