import type { ServerResponse } from 'node:http';

// The nine codes of SPEC §15 "Errors"; a client branches on `type`, never on `detail`.
export const ERROR_STATUS = {
  unauthenticated: 401,
  no_verb: 403,
  actor_not_allowed: 403,
  mint_refused: 403,
  not_found: 404,
  precondition_failed: 412,
  invalid_secret: 422,
  service_unavailable: 503,
  service_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A refusal the client is meant to see; anything else thrown becomes a generic 500. */
export class ProblemError extends Error {
  readonly status: number;
  /** set when the rest of the request is not read, so the connection cannot be reused */
  closeConnection = false;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.status = ERROR_STATUS[code];
  }
}

export const problem = (code: ErrorCode, detail: string): ProblemError => new ProblemError(code, detail);

/** RFC 9457 body; `type` and `title` both carry the code (SPEC §15). */
export function writeProblem(res: ServerResponse, err: ProblemError): void {
  const body = JSON.stringify({ type: err.code, title: err.code, status: err.status, detail: err.detail });
  if (err.code === 'unauthenticated') {
    // RFC 6750 §3: a 401 names the scheme; no error description, which could echo the token.
    res.setHeader('WWW-Authenticate', 'Bearer');
  }
  res.statusCode = err.status;
  res.setHeader('Content-Type', 'application/problem+json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

export function writeJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(JSON.stringify(value));
}

export function writeEmpty(res: ServerResponse, status: number): void {
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}
