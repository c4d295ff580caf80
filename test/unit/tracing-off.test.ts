// With no tracer provider registered, svc makes no spans at all (issue 30: a request paid for
// no-op spans, their contexts and propagation); once one is registered, spans are recorded
// (test/ops/tracing.test.ts covers the whole request with the SDK).
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { inSpan, inSpanSync, startSpan, traceHeaders, tracingOn } from '../../src/shared/tracing.js';
import { startTracing } from '../../src/tracing/sdk.js';

describe('tracing while no provider is registered', () => {
  it('makes no spans, then records them once a provider is registered', async () => {
    expect(tracingOn()).toBe(false);
    const a = startSpan('x');
    expect(a.isRecording()).toBe(false);
    // The same shared span every time: nothing is made per call.
    expect(startSpan('y')).toBe(a);
    expect(await inSpan('z', {}, async (s) => s)).toBe(a);
    expect(inSpanSync('w', {}, () => trace.getActiveSpan())).toBeUndefined();
    expect(traceHeaders()).toEqual({});

    const exporter = new InMemorySpanExporter();
    const provider = startTracing({}, [new SimpleSpanProcessor(exporter)]);
    try {
      expect(tracingOn()).toBe(true);
      const headers = await inSpan('svc.statement', { 'db.namespace': 'shop' }, async (s) => {
        expect(s.isRecording()).toBe(true);
        return traceHeaders();
      });
      expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      inSpanSync('svc.plan', {}, () => undefined);
      startSpan('graphql.parse').end();
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['svc.statement', 'svc.plan', 'graphql.parse']);
    } finally {
      await provider.shutdown();
    }
  });
});
