import swc from 'unplugin-swc';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// SWC keeps decorator metadata, which Nest's dependency injection reads.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  // Node resolves `graphql` to its CommonJS build; Vite would pick the ESM one, and two graphql
  // instances cannot share a schema. Resolve it the way Node does.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of a test's time is spent waiting on a server, a database or a child process, not on the CPU:
    // vitest's default (one worker fewer than the CPUs) ran the suite in one fork on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
