// The parts of a started node, read from its Nest container, for tests that look inside
// (statements run, the core store, the registry of loaded sources).
import type { INestApplicationContext } from '@nestjs/common';
import { Invalidation } from '../../src/cache/invalidation.js';
import { ResultCache } from '../../src/cache/result-cache.js';
import type { Config } from '../../src/config/schema.js';
import { CONFIG } from '../../src/config/tokens.js';
import { Executor } from '../../src/executor/executor.js';
import { WriteEvents } from '../../src/executor/write-events.js';
import { RoleSchemas } from '../../src/permissions/schema-filter.js';
import { PermissionService } from '../../src/permissions/service.js';
import { FieldStages } from '../../src/pipeline/field-stage.js';
import { SchemaService } from '../../src/pipeline/schema.service.js';
import { LOGGER, type Logger } from '../../src/shared/logger.js';
import { DuckDbEngine } from '../../src/sources/duckdb/engine.js';
import { SourceRegistry } from '../../src/sources/registry.js';
import { ClusterService } from '../../src/system/cluster/service.js';
import { CoreStore } from '../../src/system/core-store.js';
import { Lifecycle } from '../../src/system/lifecycle.js';
import { ReadinessProbe } from '../../src/system/readiness.js';

export interface NodeParts {
  readonly config: Config;
  readonly log: Logger;
  readonly engine: DuckDbEngine;
  readonly registry: SourceRegistry;
  readonly schema: SchemaService;
  readonly executor: Executor;
  readonly lifecycle: Lifecycle;
  readonly core: CoreStore;
  readonly writes: WriteEvents;
  readonly permissions: PermissionService;
  readonly roleSchemas: RoleSchemas;
  readonly cache: ResultCache;
  readonly cluster: ClusterService;
  readonly invalidation: Invalidation;
  readonly readiness: ReadinessProbe;
  readonly stages: FieldStages;
}

export function partsOf(app: INestApplicationContext): NodeParts {
  return {
    config: app.get(CONFIG),
    log: app.get(LOGGER),
    engine: app.get(DuckDbEngine),
    registry: app.get(SourceRegistry),
    schema: app.get(SchemaService),
    executor: app.get(Executor),
    lifecycle: app.get(Lifecycle),
    core: app.get(CoreStore),
    writes: app.get(WriteEvents),
    permissions: app.get(PermissionService),
    roleSchemas: app.get(RoleSchemas),
    cache: app.get(ResultCache),
    cluster: app.get(ClusterService),
    invalidation: app.get(Invalidation),
    readiness: app.get(ReadinessProbe),
    stages: app.get(FieldStages),
  };
}
