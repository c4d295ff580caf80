import type { IncomingMessage } from 'node:http';
import { problem, type ProblemError } from './problem.js';

// Request bodies: bounded, strict UTF-8, exactly one JSON document (SPEC §15: trailing data and bodies over 1 MiB → 422).

export const MAX_BODY = 1024 * 1024;

function tooLarge(): ProblemError {
  const err = problem('invalid_secret', 'the request body is larger than 1 MiB');
  err.closeConnection = true;
  return err;
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  // A declared length over the limit is refused before a byte is read.
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) throw tooLarge();
  const bytes = await readBytes(req);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw problem('invalid_secret', 'the request body is not valid UTF-8');
  }
  try {
    // JSON.parse refuses trailing data and a second document; its message is not echoed, it may quote the body.
    return JSON.parse(text) as unknown;
  } catch {
    throw problem('invalid_secret', 'the request body is not exactly one JSON document');
  }
}

export function requireObject(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw problem('invalid_secret', `${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

export function refuseUnknown(obj: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) throw problem('invalid_secret', `${what} has an unknown field ${JSON.stringify(k)}`);
  }
}

/** Reads up to the limit; past it, the rest is discarded as it arrives rather than left unread, which would reset the connection. */
function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > MAX_BODY) {
        over = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}
