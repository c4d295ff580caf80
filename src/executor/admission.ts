// Admission in front of a pool of connections (issue 31 item 1). A statement enters before it asks
// the pool for a connection; the gate holds at most as many statements as the pool has connections,
// so the pool itself never queues. Waiting is bounded three ways: a role may hold only its share of
// the connections (anonymous callers count as one role of their own), each role's queue is bounded,
// and nobody waits longer than the wait limit. Within a role, the next connection goes to the user
// with the fewest statements running (anonymous callers are told apart by address), so one user's
// burst does not hold a role's share against its other users. A refusal is SOURCE_UNAVAILABLE (retryable), never a
// request left hanging; a caller that goes away (its signal aborts) leaves the queue at once.
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { CancelSignal } from '../shared/request-scope.js';

export interface AdmissionSettings {
  /** Connections of the pool: statements admitted at once. */
  readonly size: number;
  /** Share of `size` one role may hold (0..1]; at least one connection. */
  readonly share: number;
  /** Share of `size` anonymous callers together may hold (ANONYMOUS_SOURCE_SHARE); default `share`. */
  readonly anonymousShare?: number;
  /** Statements one role may have waiting; beyond it the next is refused at once. */
  readonly queue: number;
  /** Longest a statement waits to be admitted, ms (0: no limit). */
  readonly waitMs: number;
}

interface Waiter {
  readonly caller: string;
  readonly user: string;
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
  /** Statements running per user (the `user` given on entry). */
  private readonly users = new Map<string, number>();
  /** When each user with statements running or waiting was last admitted (a sequence number). */
  private readonly served = new Map<string, number>();
  private admissions = 0;
  private readonly waiting: Waiter[] = [];
  private active = 0;
  /** Connections one role may hold at once. */
  readonly perCaller: number;
  /** Connections anonymous callers (admission key `anonymous`) may hold at once. */
  readonly perAnonymous: number;

  constructor(
    readonly pool: string,
    private readonly settings: AdmissionSettings,
    private readonly observer?: AdmissionObserver,
  ) {
    const connections = (share: number) => Math.max(1, Math.min(settings.size, Math.floor(settings.size * share)));
    this.perCaller = connections(settings.share);
    this.perAnonymous = connections(settings.anonymousShare ?? settings.share);
  }

  /** The connections `caller` (an admission key) may hold at once. */
  private shareOf(caller: string): number {
    return caller === 'anonymous' ? this.perAnonymous : this.perCaller;
  }

  /** Statements waiting to be admitted (svc_admission_queue_length). */
  get queued(): number {
    return this.waiting.length;
  }

  /** Statements admitted and not yet released. */
  get admitted(): number {
    return this.active;
  }

  /** Runs `task` once admitted for `caller` (a role) on behalf of `user`; the slot is released when it settles. */
  run<T>(caller: string, signal: CancelSignal | undefined, task: () => Promise<T>, user = caller): Promise<T> {
    // In at once (the common case): the slot is taken now and given back when the task settles, with
    // one promise rather than the five of acquire's and an async function's (issue 30: every
    // statement passes here).
    if (!signal?.aborted && this.inAtOnce(caller)) {
      this.take(caller, user);
      return this.held(caller, user, task);
    }
    return this.acquire(caller, signal, user).then((release) => this.held(caller, user, task, release));
  }

  /** Runs `task` in a slot already taken; the slot is released (once) when it settles. */
  private held<T>(caller: string, user: string, task: () => Promise<T>, release = () => this.leave(caller, user)): Promise<T> {
    let running: Promise<T>;
    try {
      running = task();
    } catch (e) {
      release();
      return Promise.reject(e);
    }
    return running.then(
      (v) => {
        release();
        return v;
      },
      (e: unknown) => {
        release();
        throw e;
      },
    );
  }

  /** Waits to be admitted for `caller`; the function returned releases the slot (once). */
  async acquire(caller: string, signal: CancelSignal | undefined, user = caller): Promise<() => void> {
    await this.enter(caller, user, signal);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.leave(caller, user);
    };
  }

  private canRun(caller: string): boolean {
    return this.active < this.settings.size && (this.running.get(caller) ?? 0) < this.shareOf(caller);
  }

  /** Nobody of this role waits ahead (order within a role is kept): in at once when there is room. */
  private inAtOnce(caller: string): boolean {
    return this.canRun(caller) && (this.waiting.length === 0 || !this.waiting.some((w) => w.caller === caller));
  }

  private take(caller: string, user: string): void {
    this.active++;
    this.running.set(caller, (this.running.get(caller) ?? 0) + 1);
    this.users.set(user, (this.users.get(user) ?? 0) + 1);
    this.served.set(user, ++this.admissions);
  }

  private enter(caller: string, user: string, signal: CancelSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(this.cancelled());
    if (this.inAtOnce(caller)) {
      this.take(caller, user);
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
        user,
        enqueued: performance.now(),
        admit: () => {
          leaveQueue();
          this.take(caller, user);
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

  private leave(caller: string, user: string): void {
    this.active--;
    decrement(this.running, caller);
    decrement(this.users, user);
    if (!this.users.has(user) && !this.waiting.some((w) => w.user === user)) this.served.delete(user);
    this.admitNext();
  }

  /**
   * Among the waiters whose role is under its share (a role at its share does not block others), the
   * one whose user has the fewest statements running goes in; among those, the user admitted least
   * recently (round robin), then the earliest waiter.
   */
  private admitNext(): void {
    while (this.active < this.settings.size) {
      let next: Waiter | undefined;
      for (const w of this.waiting) {
        if ((this.running.get(w.caller) ?? 0) >= this.shareOf(w.caller)) continue;
        if (!next || this.before(w.user, next.user)) next = w;
      }
      if (!next) return;
      next.admit();
    }
  }

  /** Whether user `a` goes before user `b`: fewer statements running, else admitted less recently. */
  private before(a: string, b: string): boolean {
    const ra = this.users.get(a) ?? 0;
    const rb = this.users.get(b) ?? 0;
    if (ra !== rb) return ra < rb;
    return (this.served.get(a) ?? 0) < (this.served.get(b) ?? 0);
  }

  private busy(why: string): PublicError {
    return new PublicError(ErrorCode.SourceUnavailable, `data source "${this.pool}" is busy: ${why}; try again`);
  }

  private cancelled(): PublicError {
    return new PublicError(ErrorCode.QueryFailed, `the request was cancelled before data source "${this.pool}" ran its statement`);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
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

/**
 * The user within the caller's role whom fairness is about: the user id (or name) of a signed-in
 * caller, the address of an anonymous one.
 */
export function admissionUser(identity: { readonly role: string; readonly authType: string; readonly userId: string | null; readonly userName?: string }, address: string | undefined): string {
  if (identity.authType === 'anonymous') return `addr:${address ?? ''}`;
  return `user:${identity.authType}:${identity.userId ?? identity.userName ?? ''}`;
}
