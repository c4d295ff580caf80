// Builds the HTTP application (used by main.ts and by the end-to-end tests).
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import type { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import type { Config } from './config/schema.js';
import { HttpErrorFilter } from './http/exception.filter.js';
import { exactJsonBodies } from './pipeline/exact-json.js';
import { registerRequestLog, requestId } from './http/request-log.js';
import { registerCallerGate } from './http/caller-gate.js';
import { authSettings } from './auth/settings.js';
import { type Logger, nestLogger } from './shared/logger.js';

export async function createApp(config: Config, log: Logger, imports: ModuleMetadata['imports'] = []): Promise<NestFastifyApplication> {
  // HTTPS when TLS_CERT_FILE and TLS_KEY_FILE are set (SPEC §2).
  const https = config.TLS_CERT_FILE && config.TLS_KEY_FILE ? { https: { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) } } : {};
  // trustProxy (TRUST_PROXY): request.ip, which the caller gate and admission key anonymous callers by,
  // is then the client named by a trusted proxy's X-Forwarded-For. A hop count as the function Fastify
  // makes of one (its types omit the number it accepts): hop 0 is the socket's address.
  const trust = config.TRUST_PROXY;
  const trustProxy = typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
  const adapter = new FastifyAdapter({ bodyLimit: config.MAX_BODY_SIZE, logger: false, genReqId: requestId, trustProxy, ...https });
  // Nest logs to the structured log; while the app is built it logs nothing itself, so a failed start
  // is the one line of src/start.ts rather than a coloured stack trace.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, log, imports), adapter, { logger: false, abortOnError: false });
  if (config.CORS_ALLOWED_ORIGINS.length) {
    app.enableCors({
      origin: config.CORS_ALLOWED_ORIGINS,
      methods: config.CORS_ALLOWED_METHODS.length ? config.CORS_ALLOWED_METHODS : ['GET', 'POST', 'OPTIONS'],
      ...(config.CORS_ALLOWED_HEADERS.length ? { allowedHeaders: config.CORS_ALLOWED_HEADERS } : {}),
    });
  }
  app.useGlobalFilters(new HttpErrorFilter(log));
  registerRequestLog(app.getHttpAdapter().getInstance(), log, config.LOG_REQUESTS_PER_SECOND);
  registerCallerGate(app.getHttpAdapter().getInstance(), { limit: config.MAX_REQUESTS_PER_CALLER, queue: config.CALLER_QUEUE_SIZE, waitMs: config.CALLER_QUEUE_TIMEOUT, anonymous: config.ANONYMOUS_MAX_REQUESTS, perAddress: config.ANONYMOUS_MAX_REQUESTS_PER_ADDRESS, refusalHoldMs: config.ANONYMOUS_REFUSAL_HOLD }, authSettings(config).cookieName);
  await app.init();
  // After init: Nest registers its own JSON parser there, which this one replaces.
  exactJsonBodies(app.getHttpAdapter().getInstance(), { maxBytes: config.MAX_BODY_SIZE, maxListValues: config.MAX_LIST_VALUES });
  app.useLogger(nestLogger(log));
  return app;
}
