// GET /metrics: Prometheus text (SPEC §1, issue 21): the metrics of src/shared/metrics.ts and the
// result cache's, listed in docs/operations.md.
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';
import { cacheMetrics } from '../cache/index.js';
import { pipelineRegistry } from '../pipeline/metrics.js';
import { metrics, type PoolStats, readPoolsFrom, readQueuesFrom, registry } from '../shared/metrics.js';
import { Executor } from '../executor/executor.js';
import { DuckDbEngine } from '../sources/duckdb/engine.js';
import { SourceRegistry } from '../sources/registry.js';

@Controller('metrics')
export class MetricsController {
  constructor(@Inject(Executor) executor: Executor, @Inject(DuckDbEngine) engine: DuckDbEngine, @Inject(SourceRegistry) registry: SourceRegistry) {
    executor.observe((source) => metrics.statements.inc([source]));
    executor.observeDuration((source, ms) => metrics.statementDuration.observe([source], ms / 1000));
    // Pools: the embedded DuckDB engine's (shared by every DuckDB source) and each PostgreSQL source's.
    readPoolsFrom(function* (): Iterable<readonly [string, PoolStats]> {
      yield ['duckdb', engine.poolStats()];
      for (const s of registry.all()) if (s.runtime.poolStats) yield [s.runtime.name, s.runtime.poolStats()];
    });
    readQueuesFrom(function* (): Iterable<readonly [string, number]> {
      for (const gate of executor.admissions()) yield [gate.pool, gate.queued];
    });
  }

  @Get()
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    const merged = Registry.merge([registry, cacheMetrics.registry, pipelineRegistry]);
    void reply.header('content-type', merged.contentType).send(await merged.metrics());
  }
}
