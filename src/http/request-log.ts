// One log line and one metrics observation per HTTP request (issue 21), from Fastify hooks: the
// controllers and the execution pipeline only fill the request's scope (src/shared/request-scope.ts).
// The line holds method, path (never the query string: GET /query carries variables there),
// status, duration, role, operation, statement count, cache hit and request id, and for a request
// that failed (a 4xx, or a GraphQL answer with errors) its outcome and error codes, at warn; never
// headers, variables, tokens or keys.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Context, context, isSpanContextValid, propagation, ROOT_CONTEXT, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { SpanKind, tracer, tracingOn } from '../shared/tracing.js';
import type { Logger } from '../shared/logger.js';
import { leaveRequest, RequestScope, runInRequest } from '../shared/request-scope.js';
import { routeConfig, routeUrl } from '../shared/route-url.js';
import { observeHttpRequest } from '../shared/metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    svcScope?: RequestScope;
    svcSpan?: Span;
    /** The OpenTelemetry context of the server span (only while tracing is on). */
    svcTrace?: Context;
  }
}

/**
 * A route registered with this `config` takes its request's scope from the request context and enters
 * the AsyncLocalStorage itself when it needs it (the /query route: only off the prepared fast path,
 * src/pipeline/run-operation.ts); see src/shared/request-scope.ts for why.
 */
export const SCOPE_IN_CONTEXT = Object.freeze({ svcScopeInContext: true });

/** An `X-Request-Id` a proxy set is kept when it is a plain token; otherwise svc makes one. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && INCOMING_ID.test(given) ? given : randomUUID();
}

/** Probes are logged at debug level: a load balancer asks every few seconds. */
const PROBES = new Set(['/health', '/ready', '/metrics']);

/**
 * At most `perSecond` request lines in one wall-clock second (0: no limit). Under load the line is
 * a measurable share of a small request's cost (issue 30: 12-35% of Q0's throughput at INFO), and
 * thousands of identical lines a second tell an operator no more than the metrics do; the skipped
 * requests are counted and the next line written says how many (`skipped`).
 */
export class RequestLineBudget {
  private second = -1;
  private used = 0;
  private skipped = 0;

  constructor(private readonly perSecond: number) {}

  /** Whether this line is written; when it is, how many were skipped before it. */
  take(now: number): { write: boolean; skipped: number } {
    if (this.perSecond <= 0) return { write: true, skipped: 0 };
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.used = 0;
    }
    if (this.used >= this.perSecond) {
      this.skipped++;
      return { write: false, skipped: 0 };
    }
    this.used++;
    const skipped = this.skipped;
    this.skipped = 0;
    return { write: true, skipped };
  }
}

/** `clock`: wall-clock milliseconds (a test's own, to put requests into one second). */
export function registerRequestLog(fastify: FastifyInstance, log: Logger, linesPerSecond = 0, clock: () => number = Date.now): void {
  // The request line's fields are svc's own, fixed above (never headers, variables or tokens), so the
  // redaction of credential-named keys has nothing to find in it; without it a line costs 7 µs of CPU
  // instead of 18.5 (issue 30). Every other log call keeps the redaction.
  const lines = log.child({}, { redact: { paths: [] } });
  const budget = new RequestLineBudget(linesPerSecond);
  // Refusals by a limit have a budget of their own, so their `skipped` counts only them.
  const refusals = new RequestLineBudget(linesPerSecond);
  fastify.addHook('onRequest', (req, reply, done) => {
    const scope = new RequestScope(req.id);
    scope.address = req.ip;
    req.svcScope = scope;
    // The connection closed before the answer was written: what the request still runs is wasted.
    // Its scope leaves the AsyncLocalStorage then too (onResponse may not come for such a request).
    // `on`, not `once`: a response closes once, and `once` wraps the listener per request.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) scope.cancellation.abort();
      leaveRequest(scope);
    });
    void reply.header('x-request-id', req.id);
    // The server span continues the caller's trace (W3C traceparent) when tracing is on; while it is
    // off, no span, context or propagation work is done per request (issue 30).
    if (tracingOn()) {
      const route = routeUrl(req) ?? 'unmatched';
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const span = tracer.startSpan(`${req.method} ${route}`, {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'http.route': route, 'url.path': req.url.split('?')[0]!, 'svc.request_id': req.id },
      }, parent);
      req.svcSpan = span;
      req.svcTrace = trace.setSpan(parent, span);
      if (isSpanContextValid(span.spanContext())) scope.traceId = span.spanContext().traceId;
    }
    done();
  });
  // The handler runs inside the request's scope (and span). Entered here rather than in onRequest:
  // Fastify reads a body on the socket's events, outside any scope entered before, and nothing
  // between the two hooks reads the scope. A route whose context carries the scope enters it only
  // when it must (SCOPE_IN_CONTEXT); with tracing on, every route enters it (the span's context
  // rides on an AsyncLocalStorage of OpenTelemetry's anyway).
  fastify.addHook('preHandler', (req, _reply, done) => {
    const scope = req.svcScope;
    if (!scope) return done();
    const traced = req.svcTrace;
    if (traced) context.with(traced, () => runInRequest(scope, done));
    else if (routeConfig(req)?.svcScopeInContext === true) done();
    else runInRequest(scope, done);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const scope = req.svcScope;
    const path = req.url.split('?')[0]!;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    if (scope) leaveRequest(scope);
    observeHttpRequest(req.method, routeUrl(req) ?? 'unmatched', status, ms / 1000);
    req.svcSpan?.setAttribute('http.response.status_code', status);
    if (status >= 500) req.svcSpan?.setStatus({ code: SpanStatusCode.ERROR });
    req.svcSpan?.end();
    // Nothing is built for a line the level drops; only info lines (requests that went well) are
    // sampled: a failed one (warn, error) is always written.
    // A 429 of MAX_REQUESTS_PER_CALLER is load shed on purpose (counted in svc_caller_refused_total):
    // sampled like a success, or a flood of refusals would become a flood of log lines. So is a
    // request a limit refused before it ran (still a warn line when written, with its own count of
    // lines skipped); authentication and access refusals (401, 403) are always written.
    const level = status >= 500 ? 'error' : PROBES.has(path) ? 'debug' : status === 429 ? 'info' : status >= 400 || scope?.errorCodes.length ? 'warn' : 'info';
    if (!log.isLevelEnabled(level)) return done();
    const taken = level === 'info' ? budget.take(clock()) : level === 'warn' && scope?.refusedByLimit ? refusals.take(clock()) : { write: true, skipped: 0 };
    if (!taken.write) return done();
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
      ...(taken.skipped ? { skipped: taken.skipped } : {}),
    };
    lines[level](line, 'request');
    done();
  });
}
