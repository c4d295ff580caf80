// The geometry libraries of DuckDB's geometry functions, loaded on the first geometry value a
// statement hands them (src/shared/lazy-require.ts): together ~2 MB of V8 heap that a server
// whose catalogs have no geometry would carry for nothing. Same functions, same signatures.
import type * as TurfContains from '@turf/boolean-contains';
import type * as TurfEqual from '@turf/boolean-equal';
import type * as TurfIntersects from '@turf/boolean-intersects';
import type * as Geodesic from 'geographiclib-geodesic';
import type * as Polyclip from 'polyclip-ts';
import type Proj4 from 'proj4';
import { lazyRequire } from '../../../shared/lazy-require.js';

const contains = lazyRequire<typeof TurfContains>('@turf/boolean-contains');
const equal = lazyRequire<typeof TurfEqual>('@turf/boolean-equal');
const intersects = lazyRequire<typeof TurfIntersects>('@turf/boolean-intersects');
const polyclip = lazyRequire<typeof Polyclip>('polyclip-ts');

export const booleanContains: typeof TurfContains.booleanContains = (a, b) => contains().booleanContains(a, b);
export const booleanEqual: typeof TurfEqual.booleanEqual = (a, b, options) => equal().booleanEqual(a, b, options);
export const booleanIntersects: typeof TurfIntersects.booleanIntersects = (a, b, options) => intersects().booleanIntersects(a, b, options);
export const union: typeof Polyclip.union = (geom, ...more) => polyclip().union(geom, ...more);
export const intersection: typeof Polyclip.intersection = (geom, ...more) => polyclip().intersection(geom, ...more);
export const difference: typeof Polyclip.difference = (geom, ...more) => polyclip().difference(geom, ...more);
export const proj4 = lazyRequire<typeof Proj4>('proj4');
export const geodesic = lazyRequire<typeof Geodesic>('geographiclib-geodesic');
