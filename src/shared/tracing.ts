// Spans of svc (issue 21), through the OpenTelemetry API only. Until src/tracing/sdk.ts registers
// the SDK (OTEL_* settings), the tracer is the API's no-op one: a span costs an object, nothing more.
import { type Attributes, context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

export const tracer = trace.getTracer('svc');

export { SpanKind };

function failed(span: Span, e: unknown): void {
  span.recordException(e as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error)?.message });
}

/** Runs `fn` inside a span that is active for everything `fn` starts (child spans, outgoing calls). */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, kind = SpanKind.INTERNAL): Promise<T> {
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
  propagation.inject(context.active(), headers);
  return headers;
}
