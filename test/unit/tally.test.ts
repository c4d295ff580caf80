// The per-request metrics (src/shared/tally.ts) are written on /metrics exactly as prom-client
// writes its own counters and histograms of the same observations, so a scraper sees no change.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TallyCounter, TallyHistogram } from '../../src/shared/tally.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];

describe('tally metrics', () => {
  it('write the same text as prom-client for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const h1 = new TallyHistogram({ name: 'x_seconds', help: 'h', labelNames: ['method', 'route'], buckets: BUCKETS, registers: [ours] });
    const h2 = new Histogram({ name: 'x_seconds', help: 'h', labelNames: ['method', 'route'], buckets: BUCKETS, registers: [theirs] });
    const c1 = new TallyCounter({ name: 'y_total', help: 'c', labelNames: ['outcome'], registers: [ours] });
    const c2 = new Counter({ name: 'y_total', help: 'c', labelNames: ['outcome'], registers: [theirs] });
    const seen: [string, string, number][] = [['POST', '/query', 0.0004], ['POST', '/query', 0.05], ['GET', '/health', 2], ['POST', '/query', 0.001], ['GET', '/q"x\\', 0.3]];
    for (const [method, route, v] of seen) {
      h1.observe([method, route], v);
      h2.observe({ method, route }, v);
    }
    for (const o of ['a', 'b', 'a']) {
      c1.inc([o]);
      c2.inc({ outcome: o });
    }
    c1.inc(['b'], 3);
    c2.inc({ outcome: 'b' }, 3);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('x_seconds_bucket{le="0.001",method="POST",route="/query"} 2');
    expect(text).toContain('y_total{outcome="b"} 4');
    // Merged with other registries, as GET /metrics does.
    expect(await Registry.merge([ours, new Registry()]).metrics()).toBe(text);
    h1.reset();
    c1.reset();
    expect(await ours.metrics()).not.toContain('x_seconds_count');
  });

  it('refuses label values that do not match the declared names', () => {
    const c = new TallyCounter({ name: 'z_total', help: 'c', labelNames: ['a', 'b'], registers: [new Registry()] });
    expect(() => c.inc(['only one'])).toThrow(/2 label values expected/);
  });
});
