// Geometry aggregations of SPEC §4.2 in the PostgreSQL dialect (union, extent, intersection),
// compiled from IR and run through a PostgresSource; the GraphQL path is in geometry-functions.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AggFn, AggregateNode } from '../../src/planner/ir/aggregate.js';
import type { FilterNode } from '../../src/planner/ir/filter.js';
import { PostgresSource } from '../../src/sources/postgres/source.js';
import type { TestDatabase } from '../support/pg.js';
import { fixtureDatabase } from './support.js';

let db: TestDatabase;
let source: PostgresSource;

beforeAll(async () => {
  db = await fixtureDatabase('types.sql', 'svc_geoagg');
  source = await PostgresSource.connect({ name: 'geo', url: db.url, readOnly: true, maxConnections: 1 });
});

afterAll(async () => {
  await source?.close();
  await db?.drop();
});

const geom = { kind: 'column', table: 'k', column: 'geom' } as const;

function aggregate(fn: string, filter?: FilterNode): AggregateNode {
  return {
    kind: 'aggregate',
    rows: { kind: 'select', from: { kind: 'from', alias: 'k', name: ['public', 'kinds'] }, fields: [], orderBy: [] },
    joins: [],
    orderBy: [],
    fields: [{ kind: 'agg', key: fn, fn: fn as AggFn, arg: geom, scalar: 'Geometry', distinct: false, ...(filter ? { filter } : {}) }],
  };
}

const run = (node: AggregateNode) => source.queryJson(source.compiler.compileQuery({ kind: 'aggregate', node }));

describe('geometry aggregations on PostgreSQL', () => {
  it('unions the geometries into one GeoJSON value', async () => {
    // The point (1 2) lies inside the square, so the union is the square.
    expect(await run(aggregate('union'))).toEqual({ union: { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]] } });
  });

  it('gives the extent as a polygon, honouring the aggregation filter', async () => {
    expect(await run(aggregate('extent'))).toEqual({ extent: { type: 'Polygon', coordinates: [[[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]]] } });
    const onlyPoint: FilterNode = { kind: 'compare', op: 'eq', left: { kind: 'column', table: 'k', column: 'id' }, right: { kind: 'param', value: 1, scalar: 'Int' }, scalar: 'Int', list: false };
    expect(await run(aggregate('extent', onlyPoint))).toEqual({ extent: { type: 'Point', coordinates: [1, 2] } });
  });

  it('intersects all geometries by folding ST_Intersection', async () => {
    // The point (1 2) lies inside the square: their intersection is the point.
    expect(await run(aggregate('intersection'))).toEqual({ intersection: { type: 'Point', coordinates: [1, 2] } });
  });
});
