// OpenTelemetry (issue 21): a request continues the caller's W3C trace; parse, validate, plan,
// statement, cache and jq spans are its children; the statement span holds the SQL, never the
// values; outgoing calls (here: the lineage receiver on loopback) carry traceparent. The official
// SDK runs with its in-memory exporter.
import { createServer, type Server } from 'node:http';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing } from '../../src/tracing/sdk.js';
import { tracingRequested } from '../../src/tracing/requested.js';
import { startApp, type TestApp } from '../support/app.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

const exporter = new InMemorySpanExporter();
const provider = startTracing({ OTEL_SERVICE_NAME: 'svc-test' }, [new SimpleSpanProcessor(exporter)]);
let t: TestApp;
let receiver: Server;
const received: { traceparent?: string; body: any }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ traceparent: req.headers.traceparent as string | undefined, body: JSON.parse(body) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  t = await startApp({ OPENLINEAGE_URL: `http://127.0.0.1:${(receiver.address() as { port: number }).port}`, CACHE_L1_ENABLED: 'true' });
});
afterAll(async () => {
  await t?.close();
  await provider.shutdown();
  await new Promise((done) => receiver.close(done));
});

const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);

describe('tracing', () => {
  it('is off unless the OTEL_* variables ask for it', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toBe(false);
    expect(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
  });

  it('continues the caller\'s trace with parse, plan and statement spans, the SQL without its values', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/query',
      payload: JSON.stringify({ query: 'query Named($n: String) { shop_customers(filter: {name: {eq: $n}}) { id } }', variables: { n: 'Secret Name Value' } }),
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE}-${PARENT}-01` },
    });
    expect(r.status).toBe(200);
    await expect.poll(() => spansOf(TRACE).some((s) => s.name.startsWith('POST '))).toBe(true);
    const spans = spansOf(TRACE);
    const server = spans.find((s) => s.name === 'POST /query')!;
    expect(server.parentSpanContext?.spanId).toBe(PARENT);
    expect(server.attributes['http.response.status_code']).toBe(200);
    expect(server.attributes['svc.request_id']).toBe(r.headers['x-request-id']);
    const names = spans.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['graphql.parse', 'graphql.validate', 'svc.plan', 'svc.compile', 'svc.statement']));
    const statement = spans.find((s) => s.name === 'svc.statement')!;
    expect(statement.attributes).toMatchObject({ 'db.system.name': 'duckdb', 'db.namespace': 'shop' });
    expect(String(statement.attributes['db.query.text'])).toMatch(/^SELECT .*\$1/);
    for (const s of spans) {
      expect(s.spanContext().traceId).toBe(TRACE);
      expect(JSON.stringify(s.attributes)).not.toContain('Secret Name Value');
    }
    // The lineage event of that statement went out with the same trace.
    await expect.poll(() => received.some((e) => e.body.run.facets.svc_request?.trace_id === TRACE)).toBe(true);
    const event = received.find((e) => e.body.run.facets.svc_request?.trace_id === TRACE)!;
    expect(event.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
  });

  it('has cache and jq spans', async () => {
    const trace = 'aaaabbbbccccddddeeeeffff00001111';
    const headers = { 'content-type': 'application/json', traceparent: `00-${trace}-${PARENT}-01` };
    await t.request({ method: 'POST', url: '/query', payload: JSON.stringify({ query: '{ shop_tags @cache(ttl: 60) { id } }' }), headers });
    await t.request({ method: 'POST', url: '/query', payload: JSON.stringify({ query: '{ shop_tags @cache(ttl: 60) { id } }' }), headers });
    const jq = await t.request({ method: 'POST', url: '/jq-query', payload: JSON.stringify({ jq: '.data.shop_tags | length', query: { query: '{ shop_tags { id } }' } }), headers });
    expect(jq.status).toBe(200);
    await expect.poll(() => spansOf(trace).some((s) => s.name === 'svc.jq')).toBe(true);
    const caches = spansOf(trace).filter((s) => s.name === 'svc.cache');
    expect(caches.map((s) => s.attributes['svc.cache.hit'])).toEqual([false, true]);
  });

  it('starts a new trace without traceparent', async () => {
    exporter.reset();
    const r = await t.gql('{ __typename }');
    await expect.poll(() => exporter.getFinishedSpans().some((s) => s.name === 'POST /query')).toBe(true);
    const server = exporter.getFinishedSpans().find((s) => s.name === 'POST /query')!;
    expect(server.parentSpanContext).toBeUndefined();
    expect(server.attributes['svc.request_id']).toBe(r.headers['x-request-id']);
  });
});
