import { Controller, Get, Inject } from '@nestjs/common';
import { SvcRuntime } from '../system/runtime.js';

@Controller('health')
export class HealthController {
  constructor(@Inject(SvcRuntime) private readonly runtime: SvcRuntime) {}

  @Get()
  health(): { status: string; schema_version: number; sources: Record<string, string> } {
    const sources: Record<string, string> = {};
    for (const s of this.runtime.registry.all()) sources[s.runtime.name] = 'loaded';
    return { status: 'ok', schema_version: this.runtime.schema.current.version, sources };
  }
}
