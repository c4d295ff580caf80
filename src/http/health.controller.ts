// GET /health (liveness: the process answers; no database is asked) and GET /ready (readiness:
// 200 or 503, src/system/readiness.ts). Both are also served on SERVICE_BIND (src/start.ts).
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SchemaService } from '../pipeline/schema.service.js';
import { SourceRegistry } from '../sources/registry.js';
import { ReadinessProbe } from '../system/readiness.js';

@Controller()
export class HealthController {
  constructor(
    @Inject(SourceRegistry) private readonly registry: SourceRegistry,
    @Inject(SchemaService) private readonly schemas: SchemaService,
    @Inject(ReadinessProbe) private readonly readiness: ReadinessProbe,
  ) {}

  @Get('health')
  health(): { status: string; schema_version: number; sources: Record<string, string> } {
    const sources: Record<string, string> = {};
    for (const s of this.registry.all()) sources[s.runtime.name] = 'loaded';
    return { status: 'ok', schema_version: this.schemas.current.version, sources };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const r = await this.readiness.check();
    const ok = r.status === 'ready' || r.status === 'degraded';
    void reply.status(ok ? 200 : 503).header('cache-control', 'no-store').send(r);
  }
}
