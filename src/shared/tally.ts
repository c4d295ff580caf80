// Counters and histograms for what happens on every request (issue 30). prom-client's own
// `observe({labels}, v)` validates the label object and hashes it on every call (several µs, and a
// request makes half a dozen); these take the label values in declared order, find the series by
// one string key and add to plain numbers. A scrape reads them in prom-client's metric shape, so
// they sit in the same Registry and /metrics writes them exactly as prom-client's own.
import type { Registry } from 'prom-client';

interface Series {
  readonly labels: Record<string, string>;
  /** Per bucket (the last one is +Inf), not yet cumulative. */
  readonly counts: number[];
  sum: number;
  count: number;
}

interface MetricValue {
  readonly labels: Record<string, string | number>;
  /** Written after `labels` (prom-client's own histograms put `le` first this way). */
  readonly sharedLabels?: Record<string, string>;
  readonly value: number;
  readonly metricName?: string;
}

/** What prom-client's Registry reads from a metric when it writes /metrics. */
interface MetricData {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly values: MetricValue[];
  readonly aggregator: 'sum';
}

const SEP = '\u0001';

abstract class Tally {
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
    protected readonly labelNames: readonly string[],
    registers: readonly Registry[],
  ) {
    for (const r of registers) r.registerMetric(this as never);
  }

  protected labelsOf(values: readonly string[]): Record<string, string> {
    if (values.length !== this.labelNames.length) throw new Error(`${this.name}: ${this.labelNames.length} label values expected, got ${values.length}`);
    return Object.fromEntries(this.labelNames.map((n, i) => [n, values[i]!]));
  }

  abstract get(): Promise<MetricData>;
  abstract reset(): void;
}

export class TallyCounter extends Tally {
  readonly type = 'counter';
  private readonly series = new Map<string, { readonly labels: Record<string, string>; value: number }>();

  constructor(options: { name: string; help: string; labelNames?: readonly string[]; registers: readonly Registry[] }) {
    super(options.name, options.help, options.labelNames ?? [], options.registers);
  }

  /** Adds 1 (or `by`) to the series of these label values, in the order of `labelNames`. */
  inc(values: readonly string[] = [], by = 1): void {
    const key = values.length === 1 ? values[0]! : values.join(SEP);
    const s = this.series.get(key);
    if (s) s.value += by;
    else this.series.set(key, { labels: this.labelsOf(values), value: by });
  }

  get(): Promise<MetricData> {
    const values = [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  reset(): void {
    this.series.clear();
  }
}

export class TallyHistogram extends Tally {
  readonly type = 'histogram';
  private readonly series = new Map<string, Series>();

  constructor(options: { name: string; help: string; labelNames?: readonly string[]; buckets: readonly number[]; registers: readonly Registry[] }) {
    super(options.name, options.help, options.labelNames ?? [], options.registers);
    this.buckets = [...options.buckets].sort((a, b) => a - b);
  }

  private readonly buckets: readonly number[];

  observe(values: readonly string[], value: number): void {
    if (!Number.isFinite(value)) return;
    const key = values.length === 1 ? values[0]! : values.join(SEP);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: this.labelsOf(values), counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 }));
    const b = this.buckets;
    let i = 0;
    while (i < b.length && value > b[i]!) i++;
    s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  /** prom-client's layout: cumulative `_bucket` series with `le`, then `_sum` and `_count`. */
  get(): Promise<MetricData> {
    const values: MetricValue[] = [];
    for (const s of this.series.values()) {
      let acc = 0;
      this.buckets.forEach((le, i) => {
        acc += s.counts[i]!;
        values.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  reset(): void {
    this.series.clear();
  }
}
