// The server's memory at its start (issue 30): what start-up needs for itself, a serving process
// does not keep, and start-up's own peak stays low (a process's peak RSS is what its host sizes for).
import { setFlagsFromString } from 'node:v8';

/** V8's own default: the young generation doubles each time it grows. */
const GROWTH = 2;
/** An operator's own setting of the flag (NODE_OPTIONS or node's arguments) is left as it is. */
const own = () => [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('semi-space-growth-factor'));

/**
 * Start-up keeps most of what it allocates (the compiled catalogs, the schema), so V8 grows its
 * young generation to the largest it may be (two 16 MB semi-spaces) while loading, and keeps it at
 * that size while the server idles. Held at its first size (1 MB) until the listener opens, the
 * start's peak RSS is ~30 MB lower and its CPU time the same (measured: 5.5–6.0 s against
 * 5.7–6.2 s, the bench's catalog). V8 reads the growth factor each time the young generation
 * would grow, so the flag can be set while running. Call first thing, before the server's modules load.
 */
export function holdYoungGeneration(): void {
  if (!own()) setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Lets the young generation grow again as traffic needs it, and gives back to the system what
 * start-up left in V8's heap: V8 shrinks its heap (and a young generation that grew anyway) only in
 * a memory-reducing full collection, which it never starts by itself on an idle server. Node has no
 * API for one but the inspector's own command, run in-process (no port is opened, nothing stays
 * attached). A node built without the inspector keeps that memory and starts as before.
 */
export async function releaseStartMemory(): Promise<void> {
  if (!own()) setFlagsFromString(`--semi-space-growth-factor=${GROWTH}`);
  let session: import('node:inspector/promises').Session | undefined;
  try {
    const { Session } = await import('node:inspector/promises');
    session = new Session();
    session.connect();
    await session.post('HeapProfiler.collectGarbage');
  } catch {
    // No inspector in this build of node: nothing released, nothing else changes.
  } finally {
    session?.disconnect();
  }
}
