// The geometry functions DuckDB sources call (DESIGN.md §1: no spatial extension offline, so
// JavaScript scalar functions stand in for PostGIS). Registered once per engine; the SQL that
// uses them is written by the DuckDB dialect (src/sql/dialects/duckdb-geometry.ts).
import { ownUdfMessage } from '../../../shared/udf-message.js';
import { BOOLEAN, DOUBLE, INTEGER, type DuckDBConnection, type DuckDBListValue, DuckDBScalarFunction, type DuckDBType, LIST, VARCHAR } from '@duckdb/node-api';
import { extent, intersection, union } from './aggregates.js';
import { geoJsonText, parseGeometry } from '../../../shared/geo/codec.js';
import { measure, transform } from './ops.js';
import { contains, equals, intersects, within } from './predicates.js';
import { withinDistance } from './distance.js';
import { h3CellOf } from './h3.js';
import { type Geo, GeoError, type TransformSpec } from '../../../shared/geo/types.js';

/**
 * Parsed values of recently seen texts. A filter's operand or a transform's arguments are the
 * same text on every row of a statement; parsing them once per statement instead of per row is
 * most of the cost of a spatial filter.
 */
class Recent<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly size: number, private readonly make: (text: string) => T) {}
  get(text: string): T {
    let v = this.map.get(text);
    if (v === undefined) {
      v = this.make(text);
      if (this.map.size >= this.size) this.map.delete(this.map.keys().next().value!);
      this.map.set(text, v);
    }
    return v;
  }
}

const constants = new Recent<Geo>(64, parseGeometry);
const specs = new Recent<TransformSpec>(64, (text) => JSON.parse(text) as TransformSpec);

const read = (v: unknown): Geo => parseGeometry(String(v));
const out = (g: Geo | null): string | null => (g ? geoJsonText(g) : null);
const all = (v: unknown): Geo[] => ((v as DuckDBListValue).items.filter((x) => x !== null) as unknown[]).map(read);

interface GeoFunction {
  readonly name: string;
  readonly params: readonly DuckDBType[];
  readonly returns: DuckDBType;
  readonly fn: (...args: unknown[]) => unknown;
}

// The second operand of a predicate is the filter's value: the same text on every row.
const predicate = (name: string, test: (a: Geo, b: Geo) => boolean): GeoFunction => ({
  name, params: [VARCHAR, VARCHAR], returns: BOOLEAN, fn: (a, b) => test(read(a), constants.get(String(b))),
});

const FUNCTIONS: readonly GeoFunction[] = [
  /** Any stored or given geometry text -> GeoJSON text (the wire format). */
  { name: 'svc_geojson', params: [VARCHAR], returns: VARCHAR, fn: (g) => out(read(g)) },
  predicate('svc_geo_equals', equals),
  predicate('svc_geo_intersects', intersects),
  predicate('svc_geo_contains', contains),
  predicate('svc_geo_within', within),
  /** `_spatial(type: DWITHIN)`: the second operand is the parent row's geometry, the third metres. */
  { name: 'svc_geo_dwithin', params: [VARCHAR, VARCHAR, DOUBLE], returns: BOOLEAN, fn: (a, b, d) => withinDistance(read(a), constants.get(String(b)), Number(d)) },
  { name: 'svc_geo_transform', params: [VARCHAR, VARCHAR], returns: VARCHAR, fn: (g, spec) => out(transform(read(g), specs.get(String(spec)))) },
  { name: 'svc_geo_measure', params: [VARCHAR, VARCHAR], returns: DOUBLE, fn: (g, type) => measure(read(g), String(type)) },
  /** The root h3 query's key: the H3 cell of the centroid (src/sources/duckdb/geo/h3.ts). */
  { name: 'svc_h3_cell', params: [VARCHAR, INTEGER], returns: VARCHAR, fn: (g, r) => h3CellOf(read(g), Number(r)) },
  { name: 'svc_geo_union', params: [LIST(VARCHAR)], returns: VARCHAR, fn: (l) => out(union(all(l))) },
  { name: 'svc_geo_extent', params: [LIST(VARCHAR)], returns: VARCHAR, fn: (l) => out(extent(all(l))) },
  { name: 'svc_geo_intersection', params: [LIST(VARCHAR)], returns: VARCHAR, fn: (l) => out(intersection(all(l))) },
];

function scalarFunction(f: GeoFunction): DuckDBScalarFunction {
  return DuckDBScalarFunction.create({
    name: f.name,
    parameterTypes: f.params,
    returnType: f.returns,
    mainFunction: (info, input, output) => {
      const columns = f.params.map((_, i) => input.getColumnVector(i));
      try {
        for (let row = 0; row < input.rowCount; row++) {
          // NULL in, NULL out, as SQL functions (and PostGIS) do; DuckDB hands NULLs to us.
          const args = columns.map((c) => c.getItem(row));
          output.setItem(row, (args.includes(null) ? null : f.fn(...args)) as never);
        }
        output.flush();
      } catch (e) {
        // The message reaches the client as the statement's error: GeoErrors are written for that;
        // anything else is a fault of a geometry library, named without the value.
        info.setError(e instanceof GeoError ? ownUdfMessage(e.message) : `${f.name} failed: ${(e as Error).message}`);
      }
    },
  });
}

/** Makes the geometry functions callable from every connection of the engine. */
export function registerGeometryFunctions(c: DuckDBConnection): void {
  for (const f of FUNCTIONS) c.registerScalarFunction(scalarFunction(f));
}
