// Admission in front of a pool of connections (issue 31 item 1). A statement enters before it asks
// the pool for a connection; the gate holds at most as many statements as the pool has connections,
// so the pool itself never queues. Waiting is bounded three ways: a role may hold only its share of
// the connections (anonymous callers count as one role of their own), each role's queue is bounded,
// and nobody waits longer than the wait limit. A refusal is SOURCE_UNAVAILABLE (retryable), never a
// request left hanging; a caller that goes away (its signal aborts) leaves the queue at once.
import { ErrorCode, PublicError } from '../shared/errors.js';

export interface AdmissionSettings {
  /** Connections of the pool: statements admitted at once. */
  readonly size: number;
  /** Share of `size` one role may hold (0..1]; at least one connection. */
  readonly share: number;
  /** Statements one role may have waiting; beyond it the next is refused at once. */
  readonly queue: number;
  /** Longest a statement waits to be admitted, ms (0: no limit). */
  readonly waitMs: number;
}

interface Waiter {
  readonly caller: string;
  readonly enqueued: number;
  admit(): void;
}

/** What the gate reports to metrics when a statement is admitted or refused. */
export interface AdmissionObserver {
  waited(pool: string, seconds: number): void;
  refused(pool: string, reason: 'queue_full' | 'wait_limit' | 'cancelled'): void;
}

export class Admission {
  private readonly running = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private active = 0;
  /** Connections one role may hold at once. */
  readonly perCaller: number;

  constructor(
    readonly pool: string,
    private readonly settings: AdmissionSettings,
    private readonly observer?: AdmissionObserver,
  ) {
    this.perCaller = Math.max(1, Math.min(settings.size, Math.floor(settings.size * settings.share)));
  }

  /** Statements waiting to be admitted (svc_admission_queue_length). */
  get queued(): number {
    return this.waiting.length;
  }

  /** Statements admitted and not yet released. */
  get admitted(): number {
    return this.active;
  }

  /** Runs `task` once admitted for `caller`; the slot is released when it settles. */
  async run<T>(caller: string, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(caller, signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Waits to be admitted for `caller`; the function returned releases the slot (once). */
  async acquire(caller: string, signal: AbortSignal | undefined): Promise<() => void> {
    await this.enter(caller, signal);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.leave(caller);
    };
  }

  private canRun(caller: string): boolean {
    return this.active < this.settings.size && (this.running.get(caller) ?? 0) < this.perCaller;
  }

  private take(caller: string): void {
    this.active++;
    this.running.set(caller, (this.running.get(caller) ?? 0) + 1);
  }

  private enter(caller: string, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(this.cancelled());
    // Nobody of this role waits ahead (order within a role is kept): in at once when there is room.
    if (this.canRun(caller) && !this.waiting.some((w) => w.caller === caller)) {
      this.take(caller);
      return Promise.resolve();
    }
    if (this.waiting.filter((w) => w.caller === caller).length >= this.settings.queue) {
      this.observer?.refused(this.pool, 'queue_full');
      return Promise.reject(this.busy(`${this.settings.queue} statements of the same role are already waiting`));
    }
    return new Promise<void>((resolve, reject) => {
      const leaveQueue = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        caller,
        enqueued: performance.now(),
        admit: () => {
          leaveQueue();
          this.take(caller);
          this.observer?.waited(this.pool, (performance.now() - waiter.enqueued) / 1000);
          resolve();
        },
      };
      const onAbort = () => {
        leaveQueue();
        this.observer?.refused(this.pool, 'cancelled');
        reject(this.cancelled());
      };
      const timer = this.settings.waitMs > 0
        ? setTimeout(() => {
            leaveQueue();
            this.observer?.refused(this.pool, 'wait_limit');
            reject(this.busy(`no connection was free within ${this.settings.waitMs} ms`));
          }, this.settings.waitMs)
        : undefined;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private leave(caller: string): void {
    this.active--;
    const n = (this.running.get(caller) ?? 1) - 1;
    if (n > 0) this.running.set(caller, n);
    else this.running.delete(caller);
    this.admitNext();
  }

  /** The first waiter whose role is under its share goes in (a role at its share does not block others). */
  private admitNext(): void {
    while (this.active < this.settings.size) {
      const next = this.waiting.find((w) => (this.running.get(w.caller) ?? 0) < this.perCaller);
      if (!next) return;
      next.admit();
    }
  }

  private busy(why: string): PublicError {
    return new PublicError(ErrorCode.SourceUnavailable, `data source "${this.pool}" is busy: ${why}; try again`);
  }

  private cancelled(): PublicError {
    return new PublicError(ErrorCode.QueryFailed, `the request was cancelled before data source "${this.pool}" ran its statement`);
  }
}

/**
 * The admission key of a caller: its role, except that anonymous callers form a role of their own
 * (ANONYMOUS_ROLE is often a role that signed-in users share, and anonymous load must not take
 * their connections).
 */
export function admissionKey(identity: { readonly role: string; readonly authType: string }): string {
  if (identity.authType === 'anonymous' || identity.authType === 'internal') return identity.authType;
  return `role:${identity.role}`;
}
