// What one HTTP request did, gathered where it happens (identity, operation, statements, cache)
// and read once when the request ends: its log line, its metrics, its trace and lineage.
//
// Two ways to reach it. The request context carries it (`RequestContext.scope`, set by the context
// factory for HTTP callers): the /query route's readers (executor, fast path, cache stage, lineage,
// limit refusals, error ids and the lines they log) take it from there. An AsyncLocalStorage carries
// it for everything else (Nest controllers, a team's code and its generated clients, Apollo's
// plugins and formatError), entered per request by src/http/request-log.ts or, on /query, only when
// the operation leaves the prepared fast path (src/pipeline/run-operation.ts). Why not always: on
// Node 20 an entered AsyncLocalStorage turns on async_hooks' promise hooks for every promise in the
// process (three calls per promise), about 7% of a Q0 request's CPU (issue 30). So the storage is
// turned off again when no request is inside it. Outside a request (startup, tests without HTTP)
// there is none.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ScopeIdentity {
  readonly role: string;
  readonly userId: string | null;
  readonly authType: string;
  /** Issuer of a JWT or OIDC token. */
  readonly provider?: string;
}

/**
 * What a statement listens to so that it stops when its request is given up: an AbortSignal, or a
 * request's own Cancellation (below). Only these three members are used.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A request's cancellation. Not an AbortController: making one with its signal, and adding and
 * removing a listener on it, cost every request several microseconds of EventTarget work for an
 * abort that almost never comes (issue 30). Listeners run once, in order, when it aborts.
 */
export class Cancellation implements CancelSignal {
  aborted = false;
  private listeners: (() => void)[] | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.listeners?.indexOf(listener) ?? -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const l of listeners) l();
  }
}

export class RequestScope {
  role: string | undefined;
  identity: ScopeIdentity | undefined;
  /** The GraphQL operation's name (or its type when unnamed), once resolved. */
  operation: string | undefined;
  statements = 0;
  cacheHit = false;
  /** extensions.code of the errors the response carries (a GraphQL answer is 200 with errors too). */
  errorCodes: string[] = [];
  /** `failed` (no data) or `partial` (data and errors) when the response carries errors. */
  outcome: 'failed' | 'partial' | undefined;
  /** Id of the trace this request belongs to, when tracing is on. */
  traceId: string | undefined;
  /**
   * The request context svc made for this request's caller (src/pipeline/context.factory.ts); code
   * running inside the request (a generated client in a team's controller) acts as that caller.
   */
  caller: object | undefined;
  /**
   * Refused by a limit, before anything ran (MAX_TOKENS, MAX_ALIASES, nesting, MAX_BODY_SIZE,
   * MAX_LIST_VALUES, MAX_DEPTH, MAX_QUERY_COST) or while it ran (the answer's rows or bytes,
   * QUERY_TIMEOUT; src/shared/limit-refusal.ts): its log line is sampled apart, so a flood of such
   * requests is not a flood of warn lines, and an anonymous address is held after it (issue 31).
   */
  refusedByLimit = false;
  /** The client's address (admission tells anonymous callers apart by it). */
  address: string | undefined;
  /**
   * Aborted when the client goes away before its answer was written (issue 31): statements still
   * waiting for a connection leave the queue, running ones are cancelled.
   */
  readonly cancellation = new Cancellation();

  /** Inside the AsyncLocalStorage (counted until `leaveRequest`). */
  entered = false;
  /** Its response was sent or its connection closed (`leaveRequest`). */
  left = false;

  identified(identity: ScopeIdentity): void {
    this.identity = identity;
    this.role = identity.role;
  }

  constructor(
    readonly id: string,
    /** `gateway` for HTTP, `session` for WebSocket (SPEC §14 `client`). */
    readonly client: 'gateway' | 'session' = 'gateway',
  ) {}
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Requests inside the storage now: when none is, it is turned off (its promise hooks with it). */
let inside = 0;

/** The scope of the request being served, if any, as the AsyncLocalStorage carries it. */
export function currentRequest(): RequestScope | undefined {
  return storage.getStore();
}

/** The scope a request context carries, else the storage's. */
export function scopeOf(ctx: { readonly scope?: RequestScope } | undefined): RequestScope | undefined {
  return ctx?.scope ?? storage.getStore();
}

function leave(): void {
  if (--inside === 0) storage.disable();
}

/** Runs `fn` inside the request's storage; it stays counted until `leaveRequest` (the response is sent). */
export function runInRequest<T>(scope: RequestScope, fn: () => T): T {
  if (scope.left) {
    // The connection closed already (a request cancelled while it ran, then sent on to Apollo with its
    // statement's error): nothing will leave for it later, so this run leaves when it settles.
    inside++;
    let out: T;
    try {
      out = storage.run(scope, fn);
    } catch (e) {
      leave();
      throw e;
    }
    if (out instanceof Promise) out.then(leave, leave);
    else leave();
    return out;
  }
  if (!scope.entered) {
    scope.entered = true;
    inside++;
  }
  return storage.run(scope, fn);
}

/** The request's response was sent or its connection closed: the storage is turned off when no other request is inside it. */
export function leaveRequest(scope: RequestScope): void {
  scope.left = true;
  if (!scope.entered) return;
  scope.entered = false;
  leave();
}

/** Whether the storage is on (tests: a prepared /query request does not turn it on). */
export function requestStorageOn(): boolean {
  return inside > 0;
}
