// SDL of the root `h3(resolution)` query (SPEC §4.5): `_h3_query` is one H3 cell, `_h3_data_query`
// offers `<T>_aggregation` for every data object with a (single-valued) Geometry field.
import type { DataObject } from '../catalog/model.js';
import { hasGeometry, names, viewArgs } from './object-sdl.js';

export const H3_ROOT_FIELD = '  "Data objects with a geometry aggregated by H3 cell at `resolution` (0-15): each row counts in the cell of its geometry\'s centroid (SPEC §4.5)."\n  h3(resolution: Int!): [_h3_query!]!';

export function h3Sdl(objects: readonly DataObject[]): string[] {
  const fields = objects.filter(hasGeometry).sort((a, b) => a.name.localeCompare(b.name)).map((o) => {
    const args = `field: String, filter: ${names(o.name).filter}, inner: Boolean = false${o.args ? `, ${viewArgs(o)}` : ''}`;
    const n = names(o.name);
    return `  "The rows of ${o.name} in this cell, aggregated; null when none. field: the Geometry field (when it has several); inner: only cells where it has rows"\n  ${o.name}_aggregation(${args}): ${n.aggregation}\n`
      + `  "The rows of ${o.name} in this cell in buckets by key, ordered by order_by within the cell; null when none"\n  ${o.name}_bucket_aggregation(${args}, order_by: [OrderByField!]): [${n.bucket}]`;
  });
  return [
    `"One H3 cell of the root h3 query"\ntype _h3_query {\n  cell: H3Cell!\n  resolution: Int!\n  "The cell's outline"\n  geom: Geometry!\n  data: _h3_data_query!\n}`,
    `"The data objects with a geometry, aggregated over the rows in one H3 cell"\ntype _h3_data_query {\n${fields.length ? fields.join('\n') : '  "No data object has a Geometry field."\n  _noop: Boolean'}\n}`,
  ];
}
