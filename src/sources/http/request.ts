// A request in hugr's terms (path, method, headers, parameters, body, jq), from a catalog function's
// or view's `http_data_source_request_scalar(...)` or from `function { core {
// http_data_source_request_scalar(...) } }`: the URL below the source's base, the headers and query
// parameters it names, a JSON body for methods that carry one, and the source's credentials.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseDbJson, stringifyJson } from '../../shared/json.js';
import type { HttpRequest } from './client.js';
import type { Credentials } from './credentials.js';

export interface RawRequest {
  readonly method: string;
  /** Below the base URL; may carry its own query string. */
  readonly path: string;
  readonly headers: unknown;
  readonly params: unknown;
  readonly body: unknown;
  /** A jq program applied to the answer; '' for none. */
  readonly jq: string;
}

import type { JqRunner } from './jq-runner.js';

export type { JqRunner };

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);

function objectOf(source: string, what: string, v: unknown): Record<string, unknown> {
  if (v === null || v === undefined || v === '') return {};
  if (typeof v === 'string') {
    try {
      return objectOf(source, what, JSON.parse(v));
    } catch {
      throw new PublicError(ErrorCode.BadUserInput, `http source "${source}": ${what} must be a JSON object`);
    }
  }
  if (typeof v !== 'object' || Array.isArray(v)) throw new PublicError(ErrorCode.BadUserInput, `http source "${source}": ${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

const text = (v: unknown): string => (typeof v === 'object' && v !== null ? stringifyJson(v) : String(v));

/** The request to send: `label` is what messages and statement observers show (no values). */
export function buildRequest(source: string, base: URL, c: Credentials, r: RawRequest, label: string): HttpRequest {
  const method = r.method.toUpperCase();
  if (!METHODS.has(method)) throw new PublicError(ErrorCode.BadUserInput, `http source "${source}": unknown method "${r.method}"`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(r.path) || r.path.startsWith('//')) throw new PublicError(ErrorCode.BadUserInput, `http source "${source}": the path must be below the source's base URL, not a URL`);
  const url = new URL(base.href);
  const rel = new URL(r.path.startsWith('/') ? r.path : `/${r.path}`, 'http://relative');
  // `..` is resolved by URL before it is appended, so a path cannot climb above the base.
  url.pathname = `${url.pathname.replace(/\/$/, '')}${rel.pathname}`;
  for (const [k, v] of rel.searchParams) url.searchParams.append(k, v);
  for (const [k, v] of Object.entries(objectOf(source, 'parameters', r.params))) {
    if (v === null || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, text(item));
  }
  for (const [k, v] of Object.entries(c.query)) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [k, v] of Object.entries(objectOf(source, 'headers', r.headers))) if (v !== null && v !== undefined) headers[k.toLowerCase()] = text(v);
  Object.assign(headers, c.headers);
  let body: string | undefined;
  if (BODY_METHODS.has(method) && r.body !== null && r.body !== undefined) {
    body = typeof r.body === 'string' ? r.body : stringifyJson(r.body);
    headers['content-type'] ??= 'application/json';
  }
  return { label, method, url, headers, ...(body !== undefined ? { body } : {}) };
}

/**
 * jq over the answer: no output is null, one output is itself, several are a list (svc's rule for
 * jq results, SPEC §8). `rows`: a view reads a list of rows, so one output that is not a list is a
 * list of one.
 */
export async function applyJq(jq: JqRunner | undefined, source: string, program: string, answer: unknown, rows: boolean): Promise<unknown> {
  if (!program.trim()) return rows && answer !== null && !Array.isArray(answer) ? [answer] : answer;
  if (!jq) throw new PublicError(ErrorCode.Internal, `http source "${source}": jq is not available here`);
  const outputs = (await jq(program, stringifyJson(answer ?? null))).map((o) => parseDbJson(o));
  if (rows) return outputs.length === 1 && Array.isArray(outputs[0]) ? outputs[0] : outputs;
  return outputs.length === 0 ? null : outputs.length === 1 ? outputs[0] : outputs;
}
