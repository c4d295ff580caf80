// Sends lineage RunEvents to OPENLINEAGE_URL without ever holding up a query (SPEC §14): `record`
// only builds the event and queues it; a few senders post the queue in the background. The queue is
// bounded (OPENLINEAGE_QUEUE_SIZE), each post has a deadline (OPENLINEAGE_TIMEOUT), and after a
// failure the emitter rests (1 s, doubling to 1 min) and drops what comes meanwhile: a dead receiver
// costs a counter, not a connection attempt per statement. Counted in svc_lineage_events_total.
import type { Config } from '../config/schema.js';
import type { FinishedStatement } from '../executor/executor.js';
import type { Logger } from '../shared/logger.js';
import { metrics } from '../shared/metrics.js';
import { currentRequest } from '../shared/request-scope.js';
import { traceHeaders } from '../shared/tracing.js';
import { type LineageOptions, runEvent } from './events.js';

const SENDERS = 4;
const FIRST_REST_MS = 1000;
const LONGEST_REST_MS = 60_000;
/** How long stop() waits for queued events. */
const DRAIN_MS = 2000;

export class LineageEmitter {
  /** Event bodies with the trace headers of the statement that made them. */
  private readonly queue: { body: string; trace: Record<string, string> }[] = [];
  private sending = 0;
  private restUntil = 0;
  private rest = 0;
  private readonly idle = new Set<() => void>();
  private readonly options: LineageOptions;
  private readonly url: string;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    this.url = config.OPENLINEAGE_ENDPOINT ? new URL(config.OPENLINEAGE_ENDPOINT, config.OPENLINEAGE_URL.replace(/\/?$/, '/')).toString() : config.OPENLINEAGE_URL;
    this.headers = { 'content-type': 'application/json', ...(config.OPENLINEAGE_API_KEY ? { authorization: `Bearer ${config.OPENLINEAGE_API_KEY}` } : {}) };
    this.options = { namespace: config.OPENLINEAGE_NAMESPACE, identity: config.ACL_LINEAGE_IDENTITY, maxEdges: config.ACL_LINEAGE_MAX_EDGES, nodeGroup: config.NODE_GROUP };
  }

  /** Called as each statement finishes, inside its request. Never throws, never waits. */
  record(s: FinishedStatement): void {
    if (Date.now() < this.restUntil || this.queue.length >= this.config.OPENLINEAGE_QUEUE_SIZE) {
      metrics.lineageEvents.inc({ outcome: 'dropped' });
      return;
    }
    this.queue.push({ body: JSON.stringify(runEvent(s, s.scope ?? currentRequest(), this.options)), trace: traceHeaders() });
    this.pump();
  }

  private pump(): void {
    while (this.sending < SENDERS && this.queue.length) {
      const event = this.queue.shift()!;
      this.sending++;
      void this.send(event).finally(() => {
        this.sending--;
        this.pump();
        if (!this.sending && !this.queue.length) for (const done of this.idle) done();
      });
    }
  }

  private async send(event: { body: string; trace: Record<string, string> }): Promise<void> {
    try {
      const r = await fetch(this.url, { method: 'POST', headers: { ...this.headers, ...event.trace }, body: event.body, signal: AbortSignal.timeout(this.config.OPENLINEAGE_TIMEOUT) });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      metrics.lineageEvents.inc({ outcome: 'sent' });
      this.rest = 0;
    } catch (e) {
      metrics.lineageEvents.inc({ outcome: 'failed' });
      if (Date.now() >= this.restUntil) {
        this.rest = Math.min(this.rest ? this.rest * 2 : FIRST_REST_MS, LONGEST_REST_MS);
        this.restUntil = Date.now() + this.rest;
        this.log.warn({ err: (e as Error).message, url: this.config.OPENLINEAGE_URL, pause_ms: this.rest }, 'lineage: the receiver did not take an event; dropping events for a while');
      }
      metrics.lineageEvents.inc({ outcome: 'dropped' }, this.queue.length);
      this.queue.length = 0;
    }
  }

  /** Lets queued events go out, waiting at most DRAIN_MS. */
  async stop(): Promise<void> {
    if (!this.sending && !this.queue.length) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, DRAIN_MS);
      this.idle.add(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
