// h3-js, loaded on its first use instead of at start. Its emscripten build reserves a 32 MB heap
// when it is imported (6–12 MB resident, measured on the idle server), and most catalogs never ask
// for an H3 cell.
import type * as H3 from 'h3-js';
import { lazyRequire } from './lazy-require.js';

/** The h3-js module; the first call loads it. */
export const h3 = lazyRequire<typeof H3>('h3-js');
