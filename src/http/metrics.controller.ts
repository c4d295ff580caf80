// GET /metrics: Prometheus text (SPEC §1): process metrics, statements, and the result cache.
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { cacheMetrics } from '../cache/index.js';
import { pipelineRegistry } from '../pipeline/metrics.js';
import { SvcRuntime } from '../system/runtime.js';

const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'svc_' });
const statements = new Counter({ name: 'svc_statements_total', help: 'SQL statements sent to sources', labelNames: ['source'] as const, registers: [registry] });
const seconds = new Histogram({ name: 'svc_statement_seconds', help: 'Statement round trips', labelNames: ['source'] as const, registers: [registry], buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10] });

@Controller('metrics')
export class MetricsController {
  constructor(@Inject(SvcRuntime) runtime: SvcRuntime) {
    runtime.executor.observe((source) => statements.inc({ source }));
    runtime.executor.observeDuration((source, ms) => seconds.observe({ source }, ms / 1000));
  }

  @Get()
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    const merged = Registry.merge([registry, cacheMetrics.registry, pipelineRegistry]);
    void reply.header('content-type', merged.contentType).send(await merged.metrics());
  }
}
