// The OpenTelemetry SDK (issue 21): off unless the standard variables ask for traces, loaded only
// then (src/start.ts imports this file dynamically). Everything else is read by the SDK itself from
// the standard OTEL_* variables: OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG),
// OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT / _HEADERS / _TIMEOUT, OTEL_BSP_*.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { exporterNames } from './requested.js';

function exporters(env: NodeJS.ProcessEnv): SpanExporter[] {
  const names = exporterNames(env);
  return (names.length ? names : ['otlp']).map((name) => {
    if (name === 'otlp') return new OTLPTraceExporter();
    if (name === 'console') return new ConsoleSpanExporter();
    throw new Error(`OTEL_TRACES_EXPORTER: "${name}" is not supported (otlp, console or none)`);
  });
}

/**
 * Registers the tracer provider globally, with the W3C trace-context propagator and an
 * AsyncLocalStorage context manager. `processors` replace the exporters of the environment (tests
 * pass an in-memory exporter).
 */
export function startTracing(env: NodeJS.ProcessEnv, processors?: SpanProcessor[]): NodeTracerProvider {
  const resource = resourceFromAttributes({ 'service.name': 'svc' }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: processors ?? exporters(env).map((e) => new BatchSpanProcessor(e)) });
  provider.register();
  return provider;
}
