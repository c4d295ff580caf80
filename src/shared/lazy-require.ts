// Packages most catalogs never use, loaded on their first use instead of at start (issue 30: the
// started server's memory). A package's CommonJS entry is loaded with a synchronous require, so
// callers stay synchronous (filter planning, DuckDB's scalar functions). Callers import only the
// package's types statically: `import type` leaves nothing in the emitted JavaScript.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** A getter of the package `name`; the first call loads it. */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}
