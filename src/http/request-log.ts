// One log line and one metrics observation per HTTP request (issue 21), from Fastify hooks: the
// controllers and the execution pipeline only fill the request's scope (src/shared/request-scope.ts).
// The line holds method, path (never the query string: GET /query carries variables there),
// status, duration, role, operation, statement count, cache hit and request id, and for a request
// that failed (a 4xx, or a GraphQL answer with errors) its outcome and error codes, at warn; never
// headers, variables, tokens or keys.
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { SpanKind, tracer } from '../shared/tracing.js';
import type { Logger } from '../shared/logger.js';
import { RequestScope, runInRequest } from '../shared/request-scope.js';
import { observeHttpRequest } from '../shared/metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    svcScope?: RequestScope;
    svcResume?: AsyncResource;
    svcSpan?: Span;
  }
}

/** An `X-Request-Id` a proxy set is kept when it is a plain token; otherwise svc makes one. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && INCOMING_ID.test(given) ? given : randomUUID();
}

/** Probes are logged at debug level: a load balancer asks every few seconds. */
const PROBES = new Set(['/health', '/ready', '/metrics']);

export function registerRequestLog(fastify: FastifyInstance, log: Logger): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    const scope = new RequestScope(req.id);
    req.svcScope = scope;
    // The connection closed before the answer was written: what the request still runs is wasted.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) scope.abort.abort();
    });
    void reply.header('x-request-id', req.id);
    // The server span continues the caller's trace (W3C traceparent) when tracing is on.
    const route = req.routeOptions.url ?? 'unmatched';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(`${req.method} ${route}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'http.route': route, 'url.path': req.url.split('?')[0]!, 'svc.request_id': req.id },
    }, parent);
    req.svcSpan = span;
    if (isSpanContextValid(span.spanContext())) scope.traceId = span.spanContext().traceId;
    context.with(trace.setSpan(parent, span), () =>
      runInRequest(scope, () => {
        // Captures the scope and the span for preHandler below.
        req.svcResume = new AsyncResource('svc-request');
        done();
      }),
    );
  });
  // Fastify reads the body on the socket's events, outside the scope: the handler gets it back here.
  fastify.addHook('preHandler', (req, _reply, done) => {
    if (req.svcResume) req.svcResume.runInAsyncScope(done);
    else done();
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const scope = req.svcScope;
    const path = req.url.split('?')[0]!;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    observeHttpRequest(req.method, req.routeOptions.url ?? 'unmatched', status, ms / 1000);
    req.svcSpan?.setAttribute('http.response.status_code', status);
    if (status >= 500) req.svcSpan?.setStatus({ code: SpanStatusCode.ERROR });
    req.svcSpan?.end();
    const line = {
      request_id: req.id,
      method: req.method,
      path,
      status,
      duration_ms: Math.round(ms * 100) / 100,
      role: scope?.role,
      operation: scope?.operation,
      statements: scope?.statements ?? 0,
      cache_hit: scope?.cacheHit ?? false,
      ...(scope?.traceId ? { trace_id: scope.traceId } : {}),
      // A GraphQL answer with errors is 200 too (SPEC §1): its codes and outcome say it failed.
      ...(scope?.errorCodes.length ? { outcome: scope.outcome, error_codes: [...new Set(scope.errorCodes)] } : status >= 400 ? { outcome: 'failed' } : {}),
    };
    if (status >= 500) log.error(line, 'request');
    else if (PROBES.has(path)) log.debug(line, 'request');
    else if (status >= 400 || scope?.errorCodes.length) log.warn(line, 'request');
    else log.info(line, 'request');
    done();
  });
}
