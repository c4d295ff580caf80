// Reads an /ipc answer as a client would (SPEC §13): multipart/mixed parts, Arrow streams through
// apache-arrow, JSON parts as JSON.
import { tableFromIPC } from 'apache-arrow';

export interface Part {
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

export function splitMultipart(body: Buffer, boundary = 'SVC'): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headEnd = body.indexOf('\r\n\r\n', start);
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headEnd);
    const headers: Record<string, string> = {};
    for (const line of body.subarray(start + 2, headEnd).toString().split('\r\n')) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
    }
    parts.push({ headers, body: body.subarray(headEnd + 4, next) });
    at = next + 2;
  }
  return parts;
}

/** Rows of an Arrow part as plain objects (BigInt, Date and bytes as apache-arrow gives them). */
export function arrowRows(part: Part): Record<string, unknown>[] {
  return tableFromIPC(part.body).toArray().map((r) => r.toJSON() as Record<string, unknown>);
}
