import { afterAll, expect } from 'vitest';
import { leaks, logLines } from './sensitive.js';

/** Each test file ends by scanning every log line its servers wrote for tokens, grant ids and secret values. */
export function scanLogsAfterAll(): void {
  afterAll(() => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(leaks()).toEqual([]);
  });
}
