// Composition root of the query service's data side: engine, core database, sources, schema.
// Nest providers wrap this one object (src/app.module.ts); tests can start it without HTTP.
import { authHandlers } from './auth-functions.js';
import { ResultCache, subscribeWrites } from '../cache/index.js';
import { type Config, parallelLimit } from '../config/schema.js';
import { Executor } from '../executor/executor.js';
import { WriteEvents } from '../executor/write-events.js';
import { RoleSchemas } from '../permissions/schema-filter.js';
import { API_KEYS_TAG, PermissionService, ROLE_PERMISSIONS_TAG } from '../permissions/service.js';
import { FieldStages } from '../pipeline/field-stage.js';
import type { FunctionHandler } from '../pipeline/resolvers.js';
import { SchemaService } from '../pipeline/schema.service.js';
import { CacheStage } from '../pipeline/stages/cache.stage.js';
import { StatsStage } from '../pipeline/stages/stats.stage.js';
import type { Logger } from '../shared/logger.js';
import { DuckDbEngine } from '../sources/duckdb/engine.js';
import { DuckDbSource } from '../sources/duckdb/source.js';
import { openSource } from '../sources/open.js';
import { SourceRegistry } from '../sources/registry.js';
import { compileCoreCatalog, CORE_SOURCE, coreObject } from './core-catalog.js';
import { CoreStore } from './core-store.js';
import { readDeclaredSources } from './declared-sources.js';
import { systemHandlers } from './functions.js';
import { infoHandlers } from './info.js';
import { compileMetaCatalog, META_SOURCE } from './meta/catalog.js';
import { ALL_SYSTEM_FUNCTIONS, SYSTEM_SURFACE, SYSTEM_TYPES_SDL } from './modules.js';
import { Descriptions } from './catalog/descriptions.js';
import { schemaHandlers } from './catalog/functions.js';
import { gisHandlers } from './gis/functions.js';
import { Embedder } from './catalog/embedder.js';
import { CatalogStore } from './catalog/store.js';
import { CATALOG_VIEWS_SOURCE, compileCatalogViews } from './catalog/views.js';
import { catalogRowScope } from './catalog/visibility.js';
import { SimilarityRuntime } from './catalog/similarity.js';
import { registerRowScope } from '../planner/filter.js';
import { Serial } from '../shared/mutex.js';
import { LineageEmitter } from '../lineage/emitter.js';
import { Lifecycle } from './lifecycle.js';
import { clusterHandlers } from './cluster/functions.js';
import { CLUSTER_SOURCE, compileClusterViews } from './cluster/nodes.js';
import { ClusterService } from './cluster/service.js';
import { ClusterStore } from './cluster/store.js';
import { StorageCache } from './storage/cache.js';
import { StorageFiles } from './storage/files.js';
import { storageHandlers } from './storage/functions.js';
import { StorageStore } from './storage/store.js';
import { compileStorageViews, STORAGE_SOURCE } from './storage/views.js';
import { ReadinessProbe } from './readiness.js';
import { logSecurityWarnings } from './security-warnings.js';

export class SvcRuntime {
  /** GET /ready (issue 21). */
  readonly readiness: ReadinessProbe;
  /** Around every root field, outermost first: @stats, the result cache, then teams' own (src/pipeline/field-stage.ts). */
  readonly stages: FieldStages;

  private constructor(
    readonly config: Config,
    readonly log: Logger,
    readonly engine: DuckDbEngine,
    readonly registry: SourceRegistry,
    readonly schema: SchemaService,
    readonly executor: Executor,
    readonly lifecycle: Lifecycle,
    readonly core: CoreStore,
    readonly writes: WriteEvents,
    readonly permissions: PermissionService,
    readonly roleSchemas: RoleSchemas,
    /** The result cache (SPEC §9); a pass-through when no store is configured. */
    readonly cache: ResultCache,
    /** Cluster mode (SPEC §12); a standalone node has one too, answering `my_role: standalone`. */
    readonly cluster: ClusterService,
    private readonly lineage?: LineageEmitter,
  ) {
    this.readiness = new ReadinessProbe(registry, core);
    this.stages = new FieldStages([new StatsStage(), new CacheStage(cache)]);
    // Committed writes drop the cached results tagged with the objects written (SPEC §9).
    subscribeWrites(cache, writes, log);
    this.onInvalidate((tags) => {
      if (!tags || tags.includes('$role_permissions')) {
        permissions.invalidate();
        roleSchemas.clear();
      }
    });
    // Another node's invalidation, heard through the shared Redis: the same caches drop (SPEC §12).
    cache.onRemoteInvalidation((tags) => this.notify(tags));
    // A committed change to roles or permissions applies at once (SPEC §7 `$role_permissions`),
    // cached results included: they were computed under the old rules. Managed keys likewise
    // (`$AuthAPIKeys`). Both reach the other nodes of a cluster.
    writes.on((objects) => {
      const tags: string[] = [];
      if (objects.has(coreObject('role_permissions')) || objects.has(coreObject('roles'))) {
        permissions.invalidate();
        roleSchemas.clear();
        tags.push(ROLE_PERMISSIONS_TAG);
      }
      if (objects.has(coreObject('api_keys'))) tags.push(API_KEYS_TAG);
      if (!tags.length) return;
      cache.invalidate(tags).catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e), tags }, 'cache: invalidation failed'));
      cluster.shareTags(tags);
    });
  }

  static async start(config: Config, log: Logger): Promise<SvcRuntime> {
    const engine = await DuckDbEngine.create(config.DB_PATH, config.DB_MAX_OPEN_CONNS, config.QUERY_TIMEOUT);
    const registry = new SourceRegistry();
    const executor = new Executor(log, config.DEBUG, parallelLimit(config), config.ALLOW_PARALLEL);
    const descriptions = new Descriptions();
    const schema = new SchemaService(ALL_SYSTEM_FUNCTIONS, SYSTEM_TYPES_SDL, (s) => descriptions.apply(s), SYSTEM_SURFACE, config.FEDERATION);
    let runtime: SvcRuntime | undefined;
    const rebuild = () => {
      if (!runtime) return;
      const served = schema.rebuild(registry.catalogs(), { registry, executor, functions: handlers, stages: runtime.stages, roleSchemas: runtime.roleSchemas });
      // An extension waiting for a dependency is loaded, with the reason as its warning (data_source_status).
      for (const c of registry.catalogs()) {
        if (!c.extension) continue;
        const reason = served.dormant.get(c.source.name);
        const s = registry.status(c.source.name);
        if (s) registry.setStatus(c.source.name, { ...s, warnings: reason ? [`not applied: ${reason}`] : [] });
      }
    };
    const coreType = /^postgres(ql)?:\/\//.test(config.CORE_DB_PATH) ? 'postgres' : 'duckdb';
    const coreRuntime = await openSource(config, engine, { name: CORE_SOURCE, type: coreType, path: config.CORE_DB_PATH, read_only: config.CORE_DB_READONLY, create: true });
    const core = new CoreStore(coreRuntime);
    await core.migrate();
    await logSecurityWarnings(config, core, log);
    const coreCatalog = compileCoreCatalog(coreType, config.CORE_DB_READONLY);
    registry.set(CORE_SOURCE, { runtime: coreRuntime, catalog: coreCatalog }, []);
    registry.set(META_SOURCE, { runtime: DuckDbSource.over(engine, META_SOURCE), catalog: compileMetaCatalog() }, []);
    const embedder = config.EMBEDDER_URL ? new Embedder({ url: config.EMBEDDER_URL, model: config.EMBEDDER_MODEL, apiKey: config.EMBEDDER_API_KEY }) : undefined;
    // The catalog views read the core database through the core source's own runtime, with their
    // similarity order's query texts embedded first (catalog/similarity.ts).
    registry.set(CATALOG_VIEWS_SOURCE, { runtime: new SimilarityRuntime(coreRuntime, embedder).wrap(), catalog: compileCatalogViews(coreType) }, []);
    registry.set(CLUSTER_SOURCE, { runtime: coreRuntime, catalog: compileClusterViews(coreType) }, []);
    registerRowScope(CATALOG_VIEWS_SOURCE, catalogRowScope);
    registry.set(STORAGE_SOURCE, { runtime: coreRuntime, catalog: compileStorageViews(coreType) }, []);
    const storages = new StorageStore(core);
    const files = new StorageFiles({ storages, localRoots: config.STORAGE_LOCAL_PATHS, maxFiles: config.STORAGE_MAX_FILES, timeoutMs: config.QUERY_TIMEOUT || 60_000 });
    const catalogs = new CatalogStore(core, descriptions);
    await catalogs.loadDescriptions();
    const writes = new Serial();
    const persist = (force = false) =>
      config.CORE_DB_READONLY ? Promise.resolve() : writes.run(async () => {
        const described = new Map((await core.dataSources()).map((r) => [r.name, { description: r.description }]));
        await catalogs.sync(schema.current.schema, schema.current.index, registry.catalogs(), (n) => described.get(n), force);
        if (embedder) await catalogs.embedMissing(embedder, 50);
      });
    // A worker serves what management compiled and stored; it never writes the `_schema_*` tables.
    const worker = config.CLUSTER_ENABLED && config.CLUSTER_ROLE === 'worker';
    const lifecycle = new Lifecycle(config, engine, registry, core, rebuild, log, worker ? async () => undefined : persist, new StorageCache(files, config.STORAGE_CACHE_DIR, log));
    const refresh = async (force?: boolean) => {
      rebuild();
      await persist(force);
    };
    const handlers = {
      ...systemHandlers({ lifecycle, registry, runtime: () => runtime! }), ...authHandlers(), ...infoHandlers(config),
      ...schemaHandlers({ store: catalogs, registry, refresh, ...(embedder ? { embedder } : {}) }), ...gisHandlers(),
      ...clusterHandlers(() => runtime!.cluster),
      ...storageHandlers({ storages, files, readOnly: config.CORE_DB_READONLY }),
    };
    // In a cluster, loading or unloading a source is a change of the whole cluster (SPEC §12): the
    // core lifecycle mutations do what `core.cluster`'s do, on whichever node they are sent to.
    if (config.CLUSTER_ENABLED) {
      handlers.load_data_source = handlers.cluster_load_source!;
      handlers.unload_data_source = handlers.cluster_unload_source!;
    }
    const cache = await ResultCache.create(config, log);
    // Lineage events for every statement (SPEC §14), only when a receiver is configured.
    const lineage = config.OPENLINEAGE_URL ? new LineageEmitter(config, log) : undefined;
    if (lineage) executor.onFinished((s) => lineage.record(s));
    const cluster = new ClusterService(config, log, new ClusterStore(core), lifecycle, registry, {
      invalidate: (catalog, tags) => runtime!.invalidateHere(catalog, tags),
      handler: (id) => (handlers as Record<string, FunctionHandler | undefined>)[id],
      sharedInvalidation: () => cache.l2Ready,
    });
    runtime = new SvcRuntime(config, log, engine, registry, schema, executor, lifecycle, core, new WriteEvents(), new PermissionService(core), new RoleSchemas(), cache, cluster, lineage);
    rebuild();
    for (const d of readDeclaredSources(config.CATALOGS_DIR)) {
      if (d.seedFile) lifecycle.seeds.set(d.row.name, d.seedFile);
      if (d.create) lifecycle.creatable.add(d.row.name);
      await core.upsertDeclared(d.row, d.catalog);
    }
    await lifecycle.loadAll();
    await cluster.start();
    return runtime;
  }

  private readonly invalidationListeners = new Set<(tags: readonly string[] | undefined) => void>();

  /**
   * Caches kept outside the result cache (role permissions `$role_permissions`, managed API keys
   * `$AuthAPIKeys`) hear tag invalidations here (SPEC §7, §9); no tags means everything.
   */
  onInvalidate(listener: (tags: readonly string[] | undefined) => void): void {
    this.invalidationListeners.add(listener);
  }

  async invalidate(tags: readonly string[] | undefined): Promise<number> {
    const n = await this.cache.invalidate(tags?.length ? tags : undefined);
    this.notify(tags);
    this.cluster.shareTags(tags?.length ? tags : []);
    return n;
  }

  private notify(tags: readonly string[] | undefined): void {
    for (const l of this.invalidationListeners) l(tags?.length ? tags : undefined);
  }

  /**
   * On this node only (a cluster broadcast asked for it): cached per-role schemas and the results
   * of one catalog's objects (all without a catalog), and the given cache tags.
   */
  async invalidateHere(catalog: string | undefined, tags: readonly string[] | undefined): Promise<number> {
    if (tags?.length) {
      const n = await this.cache.invalidate(tags);
      this.notify(tags);
      return n;
    }
    this.roleSchemas.clear();
    this.permissions.invalidate();
    const objects = catalog ? this.registry.get(catalog)?.catalog.objects.map((o) => o.name) : undefined;
    if (catalog && !objects) return 0;
    return this.cache.invalidate(objects?.length ? objects : undefined);
  }

  async stop(): Promise<void> {
    await this.cluster.stop();
    await this.lineage?.stop();
    await this.cache.stop();
    for (const s of this.registry.all()) await s.runtime.close().catch(() => undefined);
    this.engine.close();
  }
}
