// One node's data side, without HTTP: the configuration and log, and the modules that own the
// parts (sources, executor, cache, permissions, authentication, pipeline, system). AppModule serves
// it over HTTP; tests and tools can start it alone (NestFactory.createApplicationContext).
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CacheModule } from '../cache/cache.module.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { ExecutorModule } from '../executor/executor.module.js';
import { PermissionsModule } from '../permissions/permissions.module.js';
import { PipelineModule } from '../pipeline/pipeline.module.js';
import { LOGGER, type Logger } from '../shared/logger.js';
import { SourcesModule } from '../sources/sources.module.js';
import { SystemModule } from './system.module.js';

@Global()
@Module({})
export class NodeModule {
  static forRoot(config: Config, log: Logger): DynamicModule {
    const parts = [SourcesModule, ExecutorModule, CacheModule, PermissionsModule, AuthModule, PipelineModule, SystemModule];
    return {
      module: NodeModule,
      imports: parts,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: log },
      ],
      exports: [CONFIG, LOGGER, ...parts],
    };
  }
}
