// The served schema kept in step with the loaded sources: rebuilt when a source loads or unloads
// (Lifecycle calls `rebuild`) and written to the core database's `_schema_*` tables (seed 001).
// The system functions are given once they exist: they themselves need the lifecycle.
import type { Config } from '../config/schema.js';
import type { Executor } from '../executor/executor.js';
import type { RoleSchemas } from '../permissions/schema-filter.js';
import type { FieldStages } from '../pipeline/field-stage.js';
import type { FunctionHandler } from '../pipeline/resolver-deps.js';
import type { SchemaService } from '../pipeline/schema.service.js';
import { Serial } from '../shared/mutex.js';
import type { SourceRegistry } from '../sources/registry.js';
import type { Embedder } from './catalog/embedder.js';
import type { CatalogStore } from './catalog/store.js';
import type { CoreStore } from './core-store.js';

export interface SchemaRefreshParts {
  readonly config: Config;
  readonly schema: SchemaService;
  readonly registry: SourceRegistry;
  readonly executor: Executor;
  readonly stages: FieldStages;
  readonly roleSchemas: RoleSchemas;
  readonly core: CoreStore;
  readonly catalogs: CatalogStore;
  readonly embedder: Embedder | undefined;
}

export class SchemaRefresh {
  private functions: Record<string, FunctionHandler> | undefined;
  private readonly writes = new Serial();

  constructor(private readonly parts: SchemaRefreshParts) {}

  /** The handlers of the system functions (src/system/functions.ts and the modules'); rebuilds from then on. */
  serve(functions: Record<string, FunctionHandler>): void {
    this.functions = functions;
  }

  handler(id: string): FunctionHandler | undefined {
    return this.functions?.[id];
  }

  readonly rebuild = (): void => {
    if (!this.functions) return;
    const { schema, registry, executor, stages, roleSchemas } = this.parts;
    const served = schema.rebuild(registry.catalogs(), { registry, executor, functions: this.functions, stages, roleSchemas });
    // An extension waiting for a dependency is loaded, with the reason as its warning (data_source_status).
    for (const c of registry.catalogs()) {
      if (!c.extension) continue;
      const reason = served.dormant.get(c.source.name);
      const s = registry.status(c.source.name);
      if (s) registry.setStatus(c.source.name, { ...s, warnings: reason ? [`not applied: ${reason}`] : [] });
    }
  };

  /** Stores the compiled catalogs; a read-only core database keeps what it has. */
  readonly persist = (force = false): Promise<void> => {
    const { config, core, catalogs, schema, registry, embedder } = this.parts;
    if (config.CORE_DB_READONLY) return Promise.resolve();
    return this.writes.run(async () => {
      const described = new Map((await core.dataSources()).map((r) => [r.name, { description: r.description }]));
      await catalogs.sync(schema.current.schema, schema.current.index, registry.catalogs(), (n) => described.get(n), force, new Set(schema.current.dormant.keys()));
      if (embedder) await catalogs.embedMissing(embedder, 50);
    });
  };

  readonly refresh = async (force?: boolean): Promise<void> => {
    this.rebuild();
    await this.persist(force);
  };
}
