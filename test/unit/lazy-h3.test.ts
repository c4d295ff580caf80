// h3-js is loaded on its first use (src/shared/h3.ts), not at start: its emscripten build reserves a
// 32 MB heap on import. The modules that call it are imported here as the server imports them;
// h3-js must not be among the loaded modules until a cell is asked for, and then the answer is h3-js's.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const h3Loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/h3-js/'));

describe('h3-js', () => {
  it('is not loaded by importing the modules that use it, only by their first call', async () => {
    await import('../../src/planner/h3-filter.js');
    await import('../../src/features/h3/resolvers.js');
    await import('../../src/sources/duckdb/geo/h3.js');
    const { gisHandlers } = await import('../../src/system/gis/functions.js');
    expect(gisHandlers).toBeTypeOf('function');
    expect(h3Loaded()).toBe(false);
    const { h3CellOf } = await import('../../src/sources/duckdb/geo/h3.js');
    expect(h3CellOf({ srid: 4326, geometry: { type: 'Point', coordinates: [13.4, 52.52] } } as never, 7)).toBe('871f1d489ffffff');
    expect(h3Loaded()).toBe(true);
  });
});
