// The request log of SPEC §15: one line per request with method, path, status, subject, duration and
// trace ids. Never a header, body, token, grant id or secret value: the path is the only request text
// logged, and delegation paths lose their id.

export type LogSink = (line: string) => void;

export interface RequestLogFields {
  method: string;
  path: string;
  status: number;
  subject?: string;
  actor?: string;
  durationMs: number;
  traceparent?: string | string[];
}

/** W3C Trace Context, version 00 only, lowercase hex, ids not all zero; anything else is ignored. */
export function parseTraceparent(v: string | string[] | undefined): { trace_id: string; parent_span_id: string } | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(v);
  if (!m || m[1] === undefined || m[2] === undefined) return undefined;
  if (/^0+$/.test(m[1]) || /^0+$/.test(m[2])) return undefined;
  return { trace_id: m[1], parent_span_id: m[2] };
}

const MAX_PATH = 512;

/** The path as logged: no query string, delegation ids replaced, bounded in length. */
export function loggedPath(rawUrl: string): string {
  let path = rawUrl.split('?')[0] ?? '';
  const i = path.indexOf('/v1/delegations/');
  if (i >= 0) path = `${path.slice(0, i)}/v1/delegations/…`;
  // A grant id sent anywhere else (a mistyped path) is not logged either.
  path = path.replace(/[0-9a-fA-F]{64}/g, '…');
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

export function requestLine(f: RequestLogFields, now: Date): string {
  const trace = parseTraceparent(f.traceparent);
  return JSON.stringify({
    time: now.toISOString(),
    msg: 'request',
    method: f.method,
    path: loggedPath(f.path),
    status: f.status,
    subject: f.subject ?? null,
    ...(f.actor ? { actor: f.actor } : {}),
    duration_ms: Math.round(f.durationMs * 10) / 10,
    ...(trace ?? {}),
  });
}

export function messageLine(msg: string, now: Date): string {
  return JSON.stringify({ time: now.toISOString(), msg });
}
