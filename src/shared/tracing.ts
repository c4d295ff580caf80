// Spans of svc (issue 21), through the OpenTelemetry API only. Until a tracer provider is registered
// (src/tracing/sdk.ts from the OTEL_* settings, or a team's own), nothing is made at all: even the
// API's no-op span costs an object, a context and an async-context switch per span, and a request
// makes several (issue 30: ~8 µs of Q0's CPU with no exporter configured).
import {
  type Attributes, context, INVALID_SPAN_CONTEXT, propagation, ProxyTracerProvider, type Span, SpanKind, type SpanOptions, SpanStatusCode, trace,
  type TracerProvider,
} from '@opentelemetry/api';

export const tracer = trace.getTracer('svc');

export { SpanKind };

/** The API's own no-op provider: what the global provider delegates to while none is registered. */
const NOOP_PROVIDER: TracerProvider = new ProxyTracerProvider().getDelegate();
/** A span that records nothing, handed to code that takes a span while tracing is off. */
const NOT_RECORDED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let registered = false;

/**
 * Whether a tracer provider is registered. Once one is, it stays so (the API refuses to replace a
 * global provider), so the answer is remembered; before that it is a couple of property reads.
 */
export function tracingOn(): boolean {
  if (registered) return true;
  const global = trace.getTracerProvider();
  const delegate = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  return (registered = delegate !== NOOP_PROVIDER);
}

/** A span started with the tracer of svc, or the shared non-recording span while tracing is off. */
export function startSpan(name: string, options?: SpanOptions): Span {
  return tracingOn() ? tracer.startSpan(name, options) : NOT_RECORDED;
}

function failed(span: Span, e: unknown): void {
  span.recordException(e as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error)?.message });
}

/** Runs `fn` inside a span that is active for everything `fn` starts (child spans, outgoing calls). */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, kind = SpanKind.INTERNAL): Promise<T> {
  if (!tracingOn()) return fn(NOT_RECORDED);
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      failed(span, e);
      throw e;
    } finally {
      span.end();
    }
  });
}

/** The same for synchronous work (planning). */
export function inSpanSync<T>(name: string, attributes: Attributes, fn: () => T): T {
  if (!tracingOn()) return fn();
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    try {
      return fn();
    } catch (e) {
      failed(span, e);
      throw e;
    } finally {
      span.end();
    }
  });
}

/** `traceparent` (and `tracestate`) of the active span, for an outgoing HTTP call. */
export function traceHeaders(headers: Record<string, string> = {}): Record<string, string> {
  if (tracingOn()) propagation.inject(context.active(), headers);
  return headers;
}
