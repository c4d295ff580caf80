// The system module (seed 001): the core database, the served schema and its lifecycle (sources
// loading and unloading), the system functions, cluster mode, lineage and readiness. `NodeBoot`
// starts the node in Nest's `onApplicationBootstrap`, once every part exists (the app's `init()`,
// which `createApp` awaits before the HTTP listener opens); `NodeStop` closes the parts in order at
// shutdown.
import { Global, Inject, Injectable, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { IdentityService } from '../auth/identity.service.js';
import { HttpJq } from './http-jq.js';
import { Invalidation } from '../cache/invalidation.js';
import { ResultCache } from '../cache/result-cache.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { Executor } from '../executor/executor.js';
import { WriteEvents } from '../executor/write-events.js';
import { LineageEmitter } from '../lineage/emitter.js';
import { RoleGate } from '../permissions/roles.js';
import { RoleSchemas } from '../permissions/schema-filter.js';
import { API_KEYS_TAG, PermissionService, ROLE_PERMISSIONS_TAG } from '../permissions/service.js';
import { SCHEMA_FEATURES } from '../features/index.js';
import { FieldStages } from '../pipeline/field-stage.js';
import type { FunctionHandler } from '../pipeline/resolver-deps.js';
import { SchemaService } from '../pipeline/schema.service.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { DuckDbEngine } from '../sources/duckdb/engine.js';
import { SourceRegistry } from '../sources/registry.js';
import { authHandlers } from './auth-functions.js';
import { Descriptions } from './catalog/descriptions.js';
import type { Embedder } from './catalog/embedder.js';
import { schemaHandlers } from './catalog/functions.js';
import { CatalogStore } from './catalog/store.js';
import { clusterHandlers } from './cluster/functions.js';
import { ClusterService } from './cluster/service.js';
import { ClusterStore } from './cluster/store.js';
import { coreObject } from './core-catalog.js';
import { CORE_EXPORTS, CORE_PROVIDERS, EMBEDDER } from './core.providers.js';
import { StorageCache } from './storage/cache.js';
import { StorageFiles } from './storage/files.js';
import { storageHandlers } from './storage/functions.js';
import { StorageStore } from './storage/store.js';
import { CoreStore } from './core-store.js';
import { readDeclaredSources } from './declared-sources.js';
import { systemHandlers } from './functions.js';
import { gisHandlers } from './gis/functions.js';
import { infoHandlers } from './info.js';
import { Lifecycle } from './lifecycle.js';
import { ALL_SYSTEM_FUNCTIONS, SYSTEM_SURFACE, SYSTEM_TYPES_SDL } from './modules.js';
import { ReadinessProbe } from './readiness.js';
import { SchemaRefresh } from './schema-refresh.js';

/** The lineage emitter (OPENLINEAGE_URL), or null. */
const LINEAGE = Symbol('svc.lineage');
/** The handlers of every system function, by handler id. */
const SYSTEM_FUNCTIONS = Symbol('svc.system-functions');

/**
 * Who drops which cache when (SPEC §7, §9, §12): a committed write to roles, rules or keys, or an
 * invalidation heard here or from another node, reaches every cache that holds what changed.
 */
function wireInvalidation(p: { invalidation: Invalidation; writes: WriteEvents; cache: ResultCache; cluster: ClusterService; registry: SourceRegistry; permissions: PermissionService; roleSchemas: RoleSchemas; identities: IdentityService; gate: RoleGate; log: Logger }): void {
  const { invalidation, writes, cache, cluster, permissions, roleSchemas, identities, gate, log } = p;
  invalidation.within({ objectsOf: (catalog) => p.registry.get(catalog)?.catalog.objects.map((o) => o.name), share: (tags) => cluster.shareTags(tags) });
  invalidation.onInvalidate((tags) => {
    if (!tags || tags.includes(ROLE_PERMISSIONS_TAG)) {
      permissions.invalidate();
      roleSchemas.clear();
      gate.forget();
    }
    if (!tags || tags.includes(API_KEYS_TAG)) identities.forgetApiKeys();
  });
  // A committed change to roles or permissions applies at once, cached results included: they were
  // computed under the old rules. Managed keys likewise. Both reach the other nodes of a cluster.
  writes.on((objects) => {
    const tags: string[] = [];
    if (objects.has(coreObject('roles'))) gate.forget();
    if (objects.has(coreObject('role_permissions')) || objects.has(coreObject('roles'))) {
      permissions.invalidate();
      roleSchemas.clear();
      tags.push(ROLE_PERMISSIONS_TAG);
    }
    if (objects.has(coreObject('api_keys'))) {
      identities.forgetApiKeys();
      tags.push(API_KEYS_TAG);
    }
    if (!tags.length) return;
    cache.invalidate(tags).catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e), tags }, 'cache: invalidation failed'));
    cluster.shareTags(tags);
  });
}

/**
 * Starts the node once every part exists (Nest's application bootstrap, which `app.init()` awaits
 * before the listener opens), top to bottom: wire who drops which cache, load the declared sources
 * (catalogs/), join the cluster, then the steps that must follow the sources (`afterStart`: Apollo
 * on the served schema, extension modules' fields), in the order they were registered.
 */
@Injectable()
export class NodeBoot implements OnApplicationBootstrap {
  private readonly steps: (() => Promise<void> | void)[] = [];

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CoreStore) private readonly core: CoreStore,
    @Inject(Lifecycle) private readonly lifecycle: Lifecycle,
    @Inject(ClusterService) private readonly cluster: ClusterService,
    @Inject(SchemaRefresh) private readonly served: SchemaRefresh,
    @Inject(LOGGER) private readonly log: Logger,
    @Inject(Invalidation) private readonly invalidation: Invalidation,
    @Inject(WriteEvents) private readonly writes: WriteEvents,
    @Inject(ResultCache) private readonly cache: ResultCache,
    @Inject(SourceRegistry) private readonly registry: SourceRegistry,
    @Inject(PermissionService) private readonly permissions: PermissionService,
    @Inject(RoleSchemas) private readonly roleSchemas: RoleSchemas,
    @Inject(IdentityService) private readonly identities: IdentityService,
    @Inject(RoleGate) private readonly gate: RoleGate,
    @Inject(DuckDbEngine) private readonly engine: DuckDbEngine,
  ) {}

  /** Registers a step run once the sources are loaded (call it while the providers are made). */
  afterStart(step: () => Promise<void> | void): void {
    this.steps.push(step);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { invalidation, writes, cache, cluster, registry, permissions, roleSchemas, identities, gate, log } = this;
    wireInvalidation({ invalidation, writes, cache, cluster, registry, permissions, roleSchemas, identities, gate, log });
    await this.boot();
    for (const step of this.steps) await step();
    // The start's schema write left the core database's rows and seed 001's indexes in DuckDB's memory
    // (issue 30: IN_MEMORY_TABLE 6.1 MB, ART_INDEX 23.6 MB with the bench's catalogs, ~15 MB of RSS);
    // written to the file, they are read back only when used.
    if (this.core.runtime.type === 'duckdb') await this.core.runtime.exec('CHECKPOINT');
    // The checkpoint's blocks, and what the sources' checks read, stay in DuckDB's buffer pool otherwise.
    await this.engine.dropCachedBlocks();
  }

  private async boot(): Promise<void> {
    // The first schema (the system modules): the sources join it as they load.
    this.served.rebuild();
    for (const d of readDeclaredSources(this.config.CATALOGS_DIR)) {
      if (d.seedFile) this.lifecycle.seeds.set(d.row.name, d.seedFile);
      if (d.create) this.lifecycle.creatable.add(d.row.name);
      await this.core.upsertDeclared(d.row, d.catalog);
    }
    const failed = await this.lifecycle.loadAll();
    if (failed.length) {
      const names = failed.map((f) => `"${f.name}"`).join(', ');
      // STRICT_SOURCES (default in production): the start stops with one line naming the source.
      if (this.config.STRICT_SOURCES) {
        const first = failed[0]!;
        throw new PublicError(ErrorCode.SourceUnavailable, `data source "${first.name}" failed to load (STRICT_SOURCES): ${first.message}${failed.length > 1 ? ` (and ${failed.length - 1} more: ${names})` : ''}`);
      }
      const ready = this.config.READY_WITH_FAILED_SOURCES ? '/ready answers 200 "degraded" (READY_WITH_FAILED_SOURCES)' : '/ready answers 503 until they load';
      this.log.error({ failed: failed.map((f) => f.name) }, `${failed.length} data source${failed.length === 1 ? '' : 's'} did not load: ${names}; the server starts without ${failed.length === 1 ? 'it' : 'them'}, ${ready}`);
    }
    await this.cluster.start();
  }
}

/** Closes the node's parts, the users of a part before the part. */
@Injectable()
export class NodeStop {
  constructor(
    @Inject(ClusterService) private readonly cluster: ClusterService,
    @Inject(LINEAGE) private readonly lineage: LineageEmitter | null,
    @Inject(ResultCache) private readonly cache: ResultCache,
    @Inject(SourceRegistry) private readonly registry: SourceRegistry,
    @Inject(DuckDbEngine) private readonly engine: DuckDbEngine,
  ) {}

  async stop(): Promise<void> {
    await this.cluster.stop();
    await this.lineage?.stop();
    await this.cache.stop();
    for (const s of this.registry.all()) await s.runtime.close().catch(() => undefined);
    this.engine.close();
  }
}

@Global()
@Module({
  providers: [
    ...CORE_PROVIDERS,
    { provide: Descriptions, useFactory: () => new Descriptions() },
    {
      // The first schema (system modules only) is built by SchemaRefresh; sources join it as they load.
      provide: SchemaService,
      useFactory: (c: Config, d: Descriptions) => new SchemaService(ALL_SYSTEM_FUNCTIONS, SYSTEM_TYPES_SDL, (s) => d.apply(s), SYSTEM_SURFACE, c.FEDERATION, SCHEMA_FEATURES),
      inject: [CONFIG, Descriptions],
    },
    {
      provide: CatalogStore,
      useFactory: async (core: CoreStore, d: Descriptions) => {
        const store = new CatalogStore(core, d);
        await store.loadDescriptions();
        return store;
      },
      inject: [CoreStore, Descriptions],
    },
    // core.storage (seed 001): registered object storages, and the files DuckDB sources read from them.
    { provide: StorageStore, useFactory: (core: CoreStore) => new StorageStore(core), inject: [CoreStore] },
    {
      provide: StorageFiles,
      useFactory: (c: Config, storages: StorageStore) => new StorageFiles({ storages, localRoots: c.STORAGE_LOCAL_PATHS, maxFiles: c.STORAGE_MAX_FILES, timeoutMs: c.QUERY_TIMEOUT || 60_000 }),
      inject: [CONFIG, StorageStore],
    },
    {
      provide: SchemaRefresh,
      useFactory: (config: Config, schema: SchemaService, registry: SourceRegistry, executor: Executor, stages: FieldStages, roleSchemas: RoleSchemas, core: CoreStore, catalogs: CatalogStore, embedder: Embedder | null) =>
        new SchemaRefresh({ config, schema, registry, executor, stages, roleSchemas, core, catalogs, embedder: embedder ?? undefined }),
      inject: [CONFIG, SchemaService, SourceRegistry, Executor, FieldStages, RoleSchemas, CoreStore, CatalogStore, EMBEDDER],
    },
    { provide: HttpJq, useFactory: (config: Config) => new HttpJq(config), inject: [CONFIG] },
    {
      provide: Lifecycle,
      useFactory: (config: Config, engine: DuckDbEngine, registry: SourceRegistry, core: CoreStore, served: SchemaRefresh, log: Logger, files: StorageFiles, jq: HttpJq) => {
        // A worker serves what management compiled and stored; it never writes the `_schema_*` tables.
        const worker = config.CLUSTER_ENABLED && config.CLUSTER_ROLE === 'worker';
        return new Lifecycle(config, engine, registry, core, served.rebuild, log, worker ? async () => undefined : served.persist, new StorageCache(files, config.STORAGE_CACHE_DIR, log), jq.run);
      },
      inject: [CONFIG, DuckDbEngine, SourceRegistry, CoreStore, SchemaRefresh, LOGGER, StorageFiles, HttpJq],
    },
    {
      provide: ClusterService,
      useFactory: (config: Config, log: Logger, core: CoreStore, lifecycle: Lifecycle, registry: SourceRegistry, invalidation: Invalidation, cache: ResultCache, served: SchemaRefresh) =>
        new ClusterService(config, log, new ClusterStore(core), lifecycle, registry, {
          invalidate: (catalog, tags) => invalidation.invalidateHere(catalog, tags),
          handler: (id) => served.handler(id),
          sharedInvalidation: () => cache.l2Ready,
          systemSources: SYSTEM_SURFACE.sources,
        }),
      inject: [CONFIG, LOGGER, CoreStore, Lifecycle, SourceRegistry, Invalidation, ResultCache, SchemaRefresh],
    },
    {
      provide: SYSTEM_FUNCTIONS,
      useFactory: (config: Config, lifecycle: Lifecycle, registry: SourceRegistry, invalidation: Invalidation, catalogs: CatalogStore, embedder: Embedder | null, cluster: ClusterService, served: SchemaRefresh, storages: StorageStore, files: StorageFiles) => {
        const handlers: Record<string, FunctionHandler> = {
          ...systemHandlers({ lifecycle, registry, invalidation }), ...authHandlers(), ...infoHandlers(config),
          ...schemaHandlers({ store: catalogs, registry, refresh: served.refresh, ...(embedder ? { embedder } : {}) }), ...gisHandlers(),
          ...clusterHandlers(() => cluster),
          ...storageHandlers({ storages, files, readOnly: config.CORE_DB_READONLY }),
        };
        // In a cluster, loading or unloading a source is a change of the whole cluster (SPEC §12):
        // the core lifecycle mutations do what `core.cluster`'s do, on whichever node they are sent to.
        if (config.CLUSTER_ENABLED) {
          handlers.load_data_source = handlers.cluster_load_source!;
          handlers.unload_data_source = handlers.cluster_unload_source!;
        }
        served.serve(handlers);
        return handlers;
      },
      inject: [CONFIG, Lifecycle, SourceRegistry, Invalidation, CatalogStore, EMBEDDER, ClusterService, SchemaRefresh, StorageStore, StorageFiles],
    },
    {
      // Lineage events for every statement (SPEC §14), only when a receiver is configured.
      provide: LINEAGE,
      useFactory: (config: Config, log: Logger, executor: Executor) => {
        if (!config.OPENLINEAGE_URL) return null;
        const lineage = new LineageEmitter(config, log);
        executor.onFinished((s) => lineage.record(s));
        return lineage;
      },
      inject: [CONFIG, LOGGER, Executor],
    },
    {
      provide: ReadinessProbe,
      useFactory: (registry: SourceRegistry, core: CoreStore, config: Config) => new ReadinessProbe(registry, core, { readyWithFailedSources: config.READY_WITH_FAILED_SOURCES }),
      inject: [SourceRegistry, CoreStore, CONFIG],
    },
    NodeStop,
    NodeBoot,
  ],
  exports: [...CORE_EXPORTS, SchemaService, CatalogStore, Lifecycle, ClusterService, ReadinessProbe, NodeStop, NodeBoot, SchemaRefresh],
})
export class SystemModule {}
