// A bound on the requests one caller has running at the HTTP entry (issue 31). The pools' admission
// (src/executor/admission.ts) shares connections between roles, but the event loop is shared by every
// request before it reaches a pool: parsing a body, a document at MAX_TOKENS, an alias flood, a jq
// program, Arrow encoding for /ipc. At most MAX_REQUESTS_PER_CALLER of one caller's requests run at
// once; the caller's further requests wait in its own queue, in order, before their bodies are read
// (a burst from a dashboard is served, a little later), so no caller takes more than its share of
// the loop. Only a full queue (CALLER_QUEUE_SIZE) or a wait past CALLER_QUEUE_TIMEOUT answers a
// retryable 429.
//
// The caller is known before the body is read, so it is keyed by what the request presents: the
// credential (a digest of it; a credential authentication refuses costs a 401 and little else), and
// for anonymous requests the client's address. Anonymous callers together run at most
// ANONYMOUS_MAX_REQUESTS at once: eight anonymous addresses would otherwise run 4 requests each, 32
// against a signed-in caller's 4; among them, the next turn goes to the address with the fewest
// requests running, then to the one let in least recently. One anonymous address runs at most
// ANONYMOUS_MAX_REQUESTS_PER_ADDRESS (1) at once: a request refused in a fraction of a millisecond
// still costs ~2 ms of the event loop (HTTP, body, guard, the answer), and eight clients from one
// address looping such a request held 4 of those turns against the probe's one (issue 31); waiting
// requests cost nothing until their turn, so the address gets one slice of the loop, not four.
// Cheaper refusals alone do not end such a flood: the cheaper the refusal, the more of them the
// clients send (8 looping an alias flood got 2,852 refusals in 5 s, 1.7 ms of the loop each). So an
// anonymous request that a limit refused keeps its address's slot for ANONYMOUS_REFUSAL_HOLD after its
// answer: that address is refused at most a few times a second, while a caller that got one refusal
// by mistake barely notices. Every limit counts (src/shared/limit-refusal.ts): those before the run
// (MAX_TOKENS, ANONYMOUS_MAX_TOKENS, nesting, MAX_LIST_VALUES, MAX_DEPTH, MAX_QUERY_COST, ...) and
// those met while it ran (the answer's rows or bytes, QUERY_TIMEOUT): eight /ipc clients whose slow
// statement was stopped at the anonymous row limit after 50-80 ms of DuckDB work each, sent again at
// once, pushed a signed-in probe's p99 to 3.5x its value alone.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../shared/errors.js';
import { metrics } from '../shared/metrics.js';
import type { RequestScope } from '../shared/request-scope.js';
import { sendError } from './errors.js';

/** Paths outside the limit: load balancers' probes, and the WebSocket upgrade (a long-lived connection). */
const EXEMPT = new Set(['/health', '/ready', '/metrics', '/subscribe']);

export interface CallerGateSettings {
  /** Requests of one caller running at once. */
  readonly limit: number;
  /** Requests of one caller waiting; beyond it the next is refused at once. */
  readonly queue: number;
  /** Longest a request waits for its turn, ms (0: no limit). */
  readonly waitMs: number;
  /** Requests of all anonymous callers (keys `addr:...`) running at once; 0: no limit of their own. */
  readonly anonymous?: number;
  /** Requests of one anonymous address running at once (at most `limit`); 0: `limit`. */
  readonly perAddress?: number;
  /**
   * ANONYMOUS_REFUSAL_HOLD (ms): after a limit refused an anonymous request (before or while it ran),
   * its address's slot stays taken this long (0: released at once).
   */
  readonly refusalHoldMs?: number;
}

export type Refusal = 'queue_full' | 'wait_limit' | 'stopping';

interface Caller {
  running: number;
  readonly waiting: Waiter[];
  /** When this caller was last let in (a sequence number): round robin among anonymous callers. */
  served: number;
}

const isAnonymous = (key: string) => key.startsWith('addr:');

interface Waiter {
  readonly turn: () => void;
  readonly refuse: (why: Refusal | 'stopping') => void;
}

export class CallerGate {
  private readonly callers = new Map<string, Caller>();
  private stopping = false;
  /** Requests of anonymous callers running. */
  private anonymousRunning = 0;
  private admissions = 0;

  /** What one anonymous address may run at once: ANONYMOUS_MAX_REQUESTS_PER_ADDRESS, within MAX_REQUESTS_PER_CALLER. */
  private readonly addressLimit: number;

  constructor(readonly settings: CallerGateSettings) {
    const perAddress = settings.perAddress ?? 0;
    this.addressLimit = perAddress > 0 ? Math.min(perAddress, settings.limit) : settings.limit;
  }

  /** Requests `key` may run at once. */
  limitOf(key: string): number {
    return isAnonymous(key) ? this.addressLimit : this.settings.limit;
  }

  /**
   * The server is stopping: the requests still waiting are refused (they would start work the
   * shutdown then waits for), and so is every request that arrives from now on.
   */
  stop(): void {
    this.stopping = true;
    for (const [key, caller] of this.callers) {
      for (const w of caller.waiting.splice(0)) w.refuse('stopping');
      this.forget(key, caller);
    }
  }

  /**
   * Runs `admitted` once `key` has a free slot (at once, or in its turn); `refused` when its queue is
   * full or its wait is over. Returns a function that takes a waiting request out of the queue (its
   * client went away); nothing to take out once it was admitted or refused.
   */
  enter(key: string, admitted: () => void, refused: (why: Refusal) => void): () => void {
    let c = this.callers.get(key);
    if (!c) this.callers.set(key, (c = { running: 0, waiting: [], served: 0 }));
    const caller = c;
    if (this.stopping) {
      this.forget(key, caller);
      refused('stopping');
      return () => undefined;
    }
    if (caller.running < this.limitOf(key) && !caller.waiting.length && this.anonymousRoom(key, true)) {
      this.take(key, caller);
      admitted();
      return () => undefined;
    }
    if (caller.waiting.length >= this.settings.queue) {
      refused('queue_full');
      return () => undefined;
    }
    const leaveQueue = () => {
      const i = caller.waiting.indexOf(waiter);
      if (i >= 0) caller.waiting.splice(i, 1);
      clearTimeout(timer);
      this.forget(key, caller);
    };
    const waiter: Waiter = {
      turn: () => {
        clearTimeout(timer);
        this.take(key, caller);
        admitted();
      },
      refuse: (why) => {
        clearTimeout(timer);
        refused(why);
      },
    };
    const timer = this.settings.waitMs > 0
      ? setTimeout(() => {
          leaveQueue();
          refused('wait_limit');
        }, this.settings.waitMs)
      : undefined;
    caller.waiting.push(waiter);
    return leaveQueue;
  }

  /**
   * A request of `key` that was admitted has ended: the next of its queue goes in. `holdMs` (an
   * anonymous request a limit refused): the shared anonymous turn is free at once, the address's own
   * slot only after `holdMs`, so its next request waits in its queue at no cost.
   */
  leave(key: string, holdMs = 0): void {
    const caller = this.callers.get(key);
    if (!caller) return;
    if (holdMs > 0 && isAnonymous(key)) {
      this.anonymousRunning--;
      this.admitAnonymous();
      setTimeout(() => this.leaveHeld(key, caller), holdMs).unref();
      return;
    }
    caller.running--;
    if (!isAnonymous(key)) {
      const next = caller.waiting.shift();
      if (next) next.turn();
      else this.forget(key, caller);
      return;
    }
    this.anonymousRunning--;
    this.forget(key, caller);
    this.admitAnonymous();
  }

  /** The end of an anonymous address's hold (its shared turn was given back when the request ended). */
  private leaveHeld(key: string, caller: Caller): void {
    caller.running--;
    this.forget(key, caller);
    if (!this.stopping) this.admitAnonymous();
  }

  /**
   * Whether an anonymous request may start: under ANONYMOUS_MAX_REQUESTS, and (for a new arrival)
   * no other anonymous caller waiting ahead of it. Signed-in callers always have room here.
   */
  private anonymousRoom(key: string, arriving: boolean): boolean {
    const limit = this.settings.anonymous ?? 0;
    if (limit <= 0 || !isAnonymous(key)) return true;
    if (this.anonymousRunning >= limit) return false;
    if (!arriving) return true;
    // Waiting for the anonymous share, not for its own limit: those go first.
    for (const [k, c] of this.callers) if (c.waiting.length && isAnonymous(k) && c.running < this.addressLimit) return false;
    return true;
  }

  private take(key: string, caller: Caller): void {
    caller.running++;
    caller.served = ++this.admissions;
    if (isAnonymous(key)) this.anonymousRunning++;
  }

  /** Anonymous turns: the waiting address with the fewest requests running, then the one served least recently. */
  private admitAnonymous(): void {
    while (this.anonymousRoom('addr:', false)) {
      let next: Caller | undefined;
      for (const [k, c] of this.callers) {
        if (!isAnonymous(k) || !c.waiting.length || c.running >= this.addressLimit) continue;
        if (!next || c.running < next.running || (c.running === next.running && c.served < next.served)) next = c;
      }
      if (!next) return;
      next.waiting.shift()!.turn();
    }
  }

  private forget(key: string, caller: Caller): void {
    if (caller.running <= 0 && !caller.waiting.length && this.callers.get(key) === caller) this.callers.delete(key);
  }

  /** Callers with a request running or waiting (tests). */
  get size(): number {
    return this.callers.size;
  }
}

const digest = (kind: string, ...parts: string[]) => `${kind}:${createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 22)}`;

const first = (v: string | string[] | undefined): string | undefined => {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
};

/**
 * Who a request comes from, as far as its headers say: the secret key with the user it acts as, an
 * API key, a bearer token, a session cookie; else (anonymous) its address.
 */
export function callerKey(req: Pick<FastifyRequest, 'headers' | 'ip'>, cookieName: string): string {
  const h = req.headers;
  const secret = first(h['x-svc-secret-key']) ?? first(h['x-svc-cluster-secret']);
  if (secret) return digest('secret', secret, first(h['x-svc-role']) ?? '', first(h['x-svc-user-id']) ?? '');
  const key = first(h['x-svc-api-key']);
  if (key) return digest('key', key);
  const auth = first(h.authorization);
  if (auth) return digest('auth', auth);
  const cookie = first(h.cookie);
  const session = cookie && sessionCookie(cookie, cookieName);
  if (session) return digest('session', session);
  return `addr:${req.ip}`;
}

function sessionCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim() || undefined;
  }
  return undefined;
}

/** MAX_REQUESTS_PER_CALLER on every route but the probes; a limit of 0 registers nothing. */
export function registerCallerGate(fastify: FastifyInstance, settings: CallerGateSettings, cookieName: string): CallerGate | undefined {
  if (settings.limit <= 0) return undefined;
  const gate = new CallerGate(settings);
  fastify.addHook('onRequest', (req, reply, done) => {
    if (EXEMPT.has(req.url.split('?')[0]!)) return done();
    const key = callerKey(req, cookieName);
    let admitted = false;
    let settled = false;
    const cancel = gate.enter(key, () => {
      admitted = true;
      settled = true;
      done();
    }, (why) => {
      settled = true;
      if (why === 'stopping') {
        sendError(reply, 503, ErrorCode.SourceUnavailable, 'the server is stopping; try again (another node, or this one once it is back)');
        return;
      }
      metrics.callerRefused.inc({ reason: why });
      // Before the body is read: a refusal costs the server next to nothing.
      void reply.header('retry-after', '1');
      const because = why === 'queue_full'
        ? `${settings.queue} more are already waiting (CALLER_QUEUE_SIZE)`
        : `none of them ended within ${settings.waitMs} ms (CALLER_QUEUE_TIMEOUT)`;
      const running = key.startsWith('addr:') && gate.limitOf(key) < settings.limit
        ? `this address: ${gate.limitOf(key)} are running (ANONYMOUS_MAX_REQUESTS_PER_ADDRESS)`
        : `this caller: ${settings.limit} are running (MAX_REQUESTS_PER_CALLER)`;
      sendError(reply, 429, ErrorCode.TooManyRequests, `too many requests from ${running} and ${because}; try again`);
    });
    // 'close' comes once the answer was written or the connection went away, whichever is first.
    reply.raw.once('close', () => {
      if (admitted) gate.leave(key, (req as { svcScope?: RequestScope }).svcScope?.refusedByLimit ? settings.refusalHoldMs ?? 0 : 0);
      else if (!settled) cancel();
    });
  });
  // Before the listener closes: nothing more is let in, the queues are answered at once.
  fastify.addHook('preClose', (done) => {
    gate.stop();
    done();
  });
  return gate;
}
