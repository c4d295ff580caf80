// A bound on the requests one caller has in flight at the HTTP entry (issue 31). The pools' admission
// (src/executor/admission.ts) shares connections between roles, but the event loop is shared by every
// request before it reaches a pool: parsing a body, a document at MAX_TOKENS, an alias flood, a jq
// program, Arrow encoding for /ipc. A caller over its limit is refused at once, before its body is
// read, with a retryable 429; the others keep their share of the loop.
//
// The caller is known before the body is read, so it is keyed by what the request presents: the
// credential (a digest of it; a credential authentication refuses costs a 401 and little else), and
// for anonymous requests the client's address.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../shared/errors.js';
import { metrics } from '../shared/metrics.js';
import { sendError } from './errors.js';

/** Paths outside the limit: load balancers' probes, and the WebSocket upgrade (a long-lived connection). */
const EXEMPT = new Set(['/health', '/ready', '/metrics', '/subscribe']);

export class CallerGate {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes a slot for `key`; false when the caller already has `limit` requests in flight. */
  enter(key: string): boolean {
    const n = this.inFlight.get(key) ?? 0;
    if (n >= this.limit) return false;
    this.inFlight.set(key, n + 1);
    return true;
  }

  leave(key: string): void {
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n > 0) this.inFlight.set(key, n);
    else this.inFlight.delete(key);
  }

  /** Callers with a request in flight (tests, metrics). */
  get callers(): number {
    return this.inFlight.size;
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

/** MAX_REQUESTS_PER_CALLER on every route but the probes; `limit` 0 registers nothing. */
export function registerCallerGate(fastify: FastifyInstance, limit: number, cookieName: string): CallerGate | undefined {
  if (limit <= 0) return undefined;
  const gate = new CallerGate(limit);
  fastify.addHook('onRequest', (req, reply, done) => {
    if (EXEMPT.has(req.url.split('?')[0]!)) return done();
    const key = callerKey(req, cookieName);
    if (!gate.enter(key)) {
      metrics.callerRefused.inc();
      // Before the body is read: a refusal costs the server next to nothing.
      void reply.header('retry-after', '1');
      sendError(reply, 429, ErrorCode.TooManyRequests, `too many requests in flight from this caller (at most ${limit}, MAX_REQUESTS_PER_CALLER); try again when one has been answered`);
      return;
    }
    // 'close' comes once the answer was written or the connection went away, whichever is first.
    reply.raw.once('close', () => gate.leave(key));
    done();
  });
  return gate;
}
