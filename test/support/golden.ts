// Golden files: compared in every run, rewritten only with UPDATE_GOLDEN=1 (never in CI).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** One request of a test that sends the golden read cases (and its own) to a server. */
export interface GoldenRequest {
  readonly name: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
}

/** Every case of test/golden/read as a request, sent with `headers`. */
export function goldenReads(headers: Record<string, string>): GoldenRequest[] {
  const dir = join(import.meta.dirname, '..', 'golden', 'read');
  return readdirSync(dir).sort().map((name) => {
    const vars = join(dir, name, 'variables.json');
    return { name: `golden ${name}`, query: readFileSync(join(dir, name, 'request.graphql'), 'utf8'), ...(existsSync(vars) ? { variables: JSON.parse(readFileSync(vars, 'utf8')) } : {}), headers };
  });
}
