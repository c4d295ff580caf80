// A line in the log for each start step that takes more than a second (issue 29): on a busy
// machine a start that waits says what it waits for, and a quick one stays quiet.
import type { Logger } from './logger.js';

const SLOW_MS = 1000;

/** Logs `what` with its duration when it took longer than a second. */
export function slowStep(log: Logger, what: string, ms: number): void {
  if (ms > SLOW_MS) log.info({ step: what, duration_ms: Math.round(ms) }, `svc start: ${what} took ${(ms / 1000).toFixed(1)} s`);
}

/** Runs one start step, timed by slowStep. */
export async function startStep<T>(log: Logger, what: string, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await run();
  } finally {
    slowStep(log, what, performance.now() - t0);
  }
}
