// The jq feature as a Nest module: the engine (one worker pool per process), the /jq-query route and
// the cache hook. It relies on the node's global providers (ResultCache, CONFIG, LOGGER, and
// IdentityService, RoleGate, APOLLO by token).
import { type DynamicModule, Inject, Module, type OnModuleInit, type Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { JQ_QUERY_PATH, JqController } from './jq.controller.js';
import { JQ_CACHE, type JqCache, NoJqCache } from './cache.js';
import type { Config } from '../config/schema.js';
import { CONFIG } from '../config/tokens.js';
import { JqEngine, jqOptions } from './engine.js';

/**
 * Errors raised before the route runs (a body that is not JSON, one over MAX_BODY_SIZE) are answered
 * by the app-wide filter in the GraphQL error shape; /jq-query promises `{error: "..."}` (seed 000
 * "Errors" rule 3), so its error bodies are reshaped on the way out.
 */
export function reshapeJqErrors(fastify: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every response of every route, and an async hook
  // costs each of them a promise (issue 30).
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || request.url.split('?')[0] !== JQ_QUERY_PATH) return done(null, payload);
    try {
      const body = JSON.parse(payload) as { error?: unknown; errors?: { message?: unknown }[] };
      if (body && typeof body === 'object' && !('error' in body) && Array.isArray(body.errors)) {
        return done(null, JSON.stringify({ error: String(body.errors[0]?.message ?? 'request failed') }));
      }
    } catch {
      // not JSON: leave it
    }
    done(null, payload);
  });
}

class JqErrorShape implements OnModuleInit {
  constructor(@Inject(HttpAdapterHost) private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (fastify && typeof fastify.addHook === 'function') reshapeJqErrors(fastify);
  }
}

const ENGINE: Provider = { provide: JqEngine, useFactory: (config: Config) => new JqEngine(jqOptions(config)), inject: [CONFIG] };

/** Without a cache (NoJqCache); `JqModule.withCache(...)` plugs one in. */
@Module({
  controllers: [JqController],
  providers: [ENGINE, { provide: JQ_CACHE, useClass: NoJqCache }, JqErrorShape],
  exports: [JqEngine, JQ_CACHE],
})
export class JqModule {
  /** The same module with the /jq-query cache given as a value or a provider definition of JQ_CACHE. */
  static withCache(cache: JqCache | Omit<Extract<Provider, { provide: unknown }>, 'provide'>): DynamicModule {
    const provider = 'get' in cache && 'set' in cache ? { provide: JQ_CACHE, useValue: cache } : ({ ...cache, provide: JQ_CACHE } as Provider);
    // Nest adds these after the decorator's providers, so this JQ_CACHE replaces NoJqCache.
    return { module: JqModule, providers: [provider] };
  }
}
