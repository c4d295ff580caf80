// h3-js, loaded on its first use instead of at start. Its emscripten build reserves a 32 MB heap
// when it is imported (6–12 MB resident, measured on the idle server), and most catalogs never ask
// for an H3 cell. Its CommonJS entry is loaded with a synchronous require, so the callers (filter
// planning, DuckDB's synchronous scalar functions) stay synchronous. Only the type is imported
// statically: `import type` leaves nothing in the emitted JavaScript.
import { createRequire } from 'node:module';
import type * as H3 from 'h3-js';

let loaded: typeof H3 | undefined;

/** The h3-js module; the first call loads it. */
export function h3(): typeof H3 {
  return (loaded ??= createRequire(import.meta.url)('h3-js') as typeof H3);
}
