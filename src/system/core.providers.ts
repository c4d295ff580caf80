// The core database (SPEC §11): opened and migrated before anything reads it, then served as the
// `core` source with the views over it (core.meta, core.catalog, core.cluster). Its store answers
// the permissions' and authentication's tokens: they read roles, rules and keys from it.
import type { FactoryProvider, Provider } from '@nestjs/common';
import { API_KEY_STORE } from '../auth/providers/managed-keys.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { ROLE_STORE } from '../permissions/roles.js';
import { PERMISSION_STORE } from '../permissions/service.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { DuckDbEngine } from '../sources/duckdb/engine.js';
import { DuckDbSource } from '../sources/duckdb/source.js';
import { openSource } from '../sources/kinds.js';
import { SourceRegistry } from '../sources/registry.js';
import { compileCoreCatalog, CORE_SOURCE } from './core-catalog.js';
import { CoreStore } from './core-store.js';
import { compileMetaCatalog, META_SOURCE } from './meta/catalog.js';
import { registerRowScope } from '../planner/filter.js';
import { Embedder } from './catalog/embedder.js';
import { SimilarityRuntime } from './catalog/similarity.js';
import { CATALOG_VIEWS_SOURCE, compileCatalogViews } from './catalog/views.js';
import { catalogRowScope } from './catalog/visibility.js';
import { compileStorageViews, STORAGE_SOURCE } from './storage/views.js';
import { CLUSTER_SOURCE, compileClusterViews } from './cluster/nodes.js';
import { logSecurityWarnings } from './security-warnings.js';

function coreType(config: Pick<Config, 'CORE_DB_PATH'>): 'postgres' | 'duckdb' {
  return /^postgres(ql)?:\/\//.test(config.CORE_DB_PATH) ? 'postgres' : 'duckdb';
}

/** The embedder of core.catalog (EMBEDDER_URL), or null. */
export const EMBEDDER = Symbol('svc.embedder');

const embedder: FactoryProvider<Embedder | null> = {
  provide: EMBEDDER,
  inject: [CONFIG],
  useFactory: (c: Config) => (c.EMBEDDER_URL ? new Embedder({ url: c.EMBEDDER_URL, model: c.EMBEDDER_MODEL, apiKey: c.EMBEDDER_API_KEY }) : null),
};

const coreStore: FactoryProvider<Promise<CoreStore>> = {
  provide: CoreStore,
  inject: [CONFIG, LOGGER, DuckDbEngine, SourceRegistry, EMBEDDER],
  useFactory: async (config: Config, log: Logger, engine: DuckDbEngine, registry: SourceRegistry, embedder: Embedder | null) => {
    const type = coreType(config);
    const runtime = await openSource({ name: CORE_SOURCE, type, path: config.CORE_DB_PATH, read_only: config.CORE_DB_READONLY, create: true }, { config, engine });
    const core = new CoreStore(runtime);
    await core.migrate();
    await logSecurityWarnings(config, core, log);
    registry.set(CORE_SOURCE, { runtime, catalog: compileCoreCatalog(type, config.CORE_DB_READONLY) }, []);
    registry.set(META_SOURCE, { runtime: DuckDbSource.over(engine, META_SOURCE), catalog: compileMetaCatalog() }, []);
    // The catalog views read the core database through the core source's own runtime, with their
    // similarity order's query texts embedded first (catalog/similarity.ts), and only the rows a
    // role's introspection shows (catalog/visibility.ts).
    registry.set(CATALOG_VIEWS_SOURCE, { runtime: new SimilarityRuntime(runtime, embedder ?? undefined).wrap(), catalog: compileCatalogViews(type) }, []);
    registerRowScope(CATALOG_VIEWS_SOURCE, catalogRowScope);
    registry.set(CLUSTER_SOURCE, { runtime, catalog: compileClusterViews(type) }, []);
    registry.set(STORAGE_SOURCE, { runtime, catalog: compileStorageViews(type) }, []);
    return core;
  },
};

export const CORE_PROVIDERS: readonly Provider[] = [
  embedder,
  coreStore,
  { provide: PERMISSION_STORE, useExisting: CoreStore },
  { provide: ROLE_STORE, useExisting: CoreStore },
  { provide: API_KEY_STORE, useExisting: CoreStore },
];

/** What the other modules may inject: the store and its tokens. */
export const CORE_EXPORTS = [CoreStore, PERMISSION_STORE, ROLE_STORE, API_KEY_STORE, EMBEDDER] as const;
