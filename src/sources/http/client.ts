// One REST call with bounded time and retries (issue 19): each attempt has the source's time limit;
// idempotent requests are sent again (at most `retries` times, with a growing pause) after a timeout,
// a network error or a 429/502/503/504 answer. Errors name the source, the method and the path
// template (never argument values or credentials) and the remote status.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseDbJson } from '../../shared/json.js';
import { idempotent } from './endpoints.js';
import type { HttpSourceOptions } from './options.js';

export interface HttpRequest {
  /** `GET /orders/{id}`: what messages show. */
  readonly label: string;
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

const TRANSIENT = new Set([429, 502, 503, 504]);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readLimited(r: Response, max: number, fail: () => never): Promise<string> {
  const declared = Number(r.headers.get('content-length') ?? '0');
  if (declared > max) {
    await r.body?.cancel().catch(() => undefined);
    fail();
  }
  if (!r.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) fail();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends the request; the parsed JSON answer (text for a non-JSON answer), or a PublicError. */
export async function send(source: string, o: HttpSourceOptions, req: HttpRequest): Promise<unknown> {
  const attempts = idempotent(req.method) ? o.retries + 1 : 1;
  const what = `http source "${source}": ${req.label}`;
  let last: PublicError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await pause(Math.min(2000, 100 * 2 ** (attempt - 2)));
    let r: Response;
    try {
      r = await fetch(req.url, { method: req.method, headers: req.headers, ...(req.body !== undefined ? { body: req.body } : {}), signal: AbortSignal.timeout(o.timeoutMs), redirect: 'follow' });
    } catch (e) {
      const err = e as { name?: string; cause?: { code?: string } };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      last = timedOut
        ? new PublicError(ErrorCode.QueryTimeout, `${what} did not answer within ${o.timeoutMs}ms (${attempt} attempt${attempt > 1 ? 's' : ''})`)
        : new PublicError(ErrorCode.SourceUnavailable, `${what} failed: ${err.cause?.code ?? 'network error'} (${attempt} attempt${attempt > 1 ? 's' : ''})`);
      continue;
    }
    if (!r.ok) {
      await r.body?.cancel().catch(() => undefined);
      last = new PublicError(ErrorCode.QueryFailed, `${what} answered ${r.status}${r.statusText ? ` (${r.statusText})` : ''}`);
      if (TRANSIENT.has(r.status)) continue;
      throw last;
    }
    try {
      const text = await readLimited(r, o.maxBytes, () => {
        throw new PublicError(ErrorCode.QueryFailed, `${what} answered more than ${o.maxBytes} bytes (x-svc-max-bytes)`);
      });
      if (r.status === 204 || text === '') return null;
      if (/json/i.test(r.headers.get('content-type') ?? 'application/json')) {
        try {
          return parseDbJson(text);
        } catch {
          throw new PublicError(ErrorCode.QueryFailed, `${what} answered with a body that is not JSON`);
        }
      }
      return text;
    } catch (e) {
      if (e instanceof PublicError) throw e;
      const timedOut = (e as { name?: string }).name === 'TimeoutError';
      last = timedOut ? new PublicError(ErrorCode.QueryTimeout, `${what} did not answer within ${o.timeoutMs}ms (${attempt} attempt${attempt > 1 ? 's' : ''})`) : new PublicError(ErrorCode.SourceUnavailable, `${what} failed while reading the answer`);
    }
  }
  throw last!;
}
