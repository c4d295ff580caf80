// Golden files: compared in every run, rewritten only with UPDATE_GOLDEN=1 (never in CI).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

export function expectGolden(path: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1' && !process.env.CI) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`golden file ${path} is missing; run with UPDATE_GOLDEN=1 to create it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
