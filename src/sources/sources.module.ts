// The sources' module: the embedded DuckDB engine (shared by every DuckDB source, the core database
// and core.meta) and the registry of loaded sources. Both are closed by the system module's
// shutdown, after everything that runs statements has stopped.
import { Global, Module } from '@nestjs/common';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { DuckDbEngine } from './duckdb/engine.js';
import { SourceRegistry } from './registry.js';

@Global()
@Module({
  providers: [
    { provide: DuckDbEngine, useFactory: (c: Config) => DuckDbEngine.create(c.DB_PATH, c.DB_MAX_OPEN_CONNS, c.QUERY_TIMEOUT, {
      ...(c.DUCKDB_MEMORY_LIMIT ? { memoryLimitMb: c.DUCKDB_MEMORY_LIMIT } : {}),
      ...(c.DUCKDB_THREADS ? { threads: c.DUCKDB_THREADS } : {}),
      maxIdle: c.DB_MAX_IDLE_CONNS,
      windowRows: c.DUCKDB_WINDOW_ROWS,
    }), inject: [CONFIG] },
    { provide: SourceRegistry, useFactory: () => new SourceRegistry() },
  ],
  exports: [DuckDbEngine, SourceRegistry],
})
export class SourcesModule {}
