// core.gis (seed 001) over HTTP: H3 cells of geometries and back, checked against h3-js itself and
// against published H3 reference values.
import { cellToBoundary, cellsToMultiPolygon, compactCells, latLngToCell, polygonToCells } from 'h3-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const gis = async (fields: string, variables?: Record<string, unknown>) => {
  const types: Record<string, string> = { g: 'Geometry!', cells: '[H3Cell!]!' };
  const decl = Object.keys(variables ?? {}).map((k) => `$${k}: ${types[k]}`).join(', ');
  const r = await t.gql(`query${decl ? `(${decl})` : ''} { function { core { gis { ${fields} } } } }`, variables);
  return r.body;
};

// A square around the centre of Paris, and a triangle far smaller than a cell at resolution 5.
const square = { type: 'Polygon', coordinates: [[[2.30, 48.84], [2.38, 48.84], [2.38, 48.88], [2.30, 48.88], [2.30, 48.84]]] };

describe('core.gis', () => {
  it('puts a point in the cell H3 documents for it', async () => {
    // The example of H3's documentation: (37.3615593, -122.0553238) at resolution 7.
    const b = await gis('geom_to_h3_cells(geom: "POINT(-122.0553238 37.3615593)", resolution: 7)');
    expect(b.errors).toBeUndefined();
    expect(b.data.function.core.gis.geom_to_h3_cells).toEqual(['87283472bffffff']);
  });

  it('covers a polygon with the cells whose centers are inside, or with every cell touching it', async () => {
    const b = await gis('inside: geom_to_h3_cells(geom: $g, resolution: 8) all: geom_to_h3_cells(geom: $g, resolution: 8, simplify: false) compact: geom_to_h3_cells(geom: $g, resolution: 9, compact: true)', { g: square });
    expect(b.errors).toBeUndefined();
    const want = polygonToCells(square.coordinates as number[][][], 8, true).sort();
    const g = b.data.function.core.gis;
    expect(g.inside).toEqual(want);
    expect(g.inside.length).toBeGreaterThan(20);
    expect(g.all.length).toBeGreaterThan(g.inside.length);
    for (const c of g.inside) expect(g.all).toContain(c);
    expect(g.compact).toEqual(compactCells(polygonToCells(square.coordinates as number[][][], 9, true)).sort());
    expect(g.compact.length).toBeLessThan(polygonToCells(square.coordinates as number[][][], 9, true).length);
  });

  it('follows a line through every cell between its vertices', async () => {
    const b = await gis('geom_to_h3_cells(geom: "LINESTRING(2.30 48.84, 2.38 48.88)", resolution: 9)');
    const cells: string[] = b.data.function.core.gis.geom_to_h3_cells;
    expect(cells).toContain(latLngToCell(48.84, 2.30, 9));
    expect(cells).toContain(latLngToCell(48.88, 2.38, 9));
    expect(cells.length).toBeGreaterThan(10);
  });

  it('returns the boundary of a cell and the outline of a set of cells', async () => {
    const cell = latLngToCell(48.86, 2.34, 7);
    const ring = [latLngToCell(48.86, 2.34, 7), latLngToCell(48.87, 2.36, 7)];
    const b = await gis('h3_cell_to_geom(cell: "' + cell + '") h3_cells_to_multi_polygon(cells: $cells)', { cells: ring });
    expect(b.errors).toBeUndefined();
    expect(b.data.function.core.gis.h3_cell_to_geom).toEqual({ type: 'Polygon', coordinates: [cellToBoundary(cell, true)] });
    expect(b.data.function.core.gis.h3_cells_to_multi_polygon).toEqual({ type: 'MultiPolygon', coordinates: cellsToMultiPolygon(ring, true) });
  });

  it('accepts compacted cells with compact: true and refuses mixed resolutions without it', async () => {
    const cells = compactCells(polygonToCells(square.coordinates as number[][][], 9, true));
    const ok = await gis('h3_cells_to_multi_polygon(cells: $cells, compact: true)', { cells });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.function.core.gis.h3_cells_to_multi_polygon.type).toBe('MultiPolygon');
    const refused = await gis('h3_cells_to_multi_polygon(cells: $cells)', { cells });
    expect(refused.errors[0].message).toBe('cells of mixed resolutions: pass compact: true');
  });

  it('names bad input: resolution, cell, geometry, SRID', async () => {
    const res = await gis('geom_to_h3_cells(geom: "POINT(0 0)", resolution: 16)');
    expect(res.errors[0]).toMatchObject({ message: 'resolution must be an integer from 0 to 15, not 16', extensions: { code: 'BAD_USER_INPUT' } });
    expect((await gis('h3_cell_to_geom(cell: "zz")')).errors[0].message).toBe('"zz" is not an H3 cell');
    // A cover H3 could not allocate is refused before it is tried, and the server keeps serving.
    const huge = await gis('geom_to_h3_cells(geom: "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))", resolution: 12)');
    expect(huge.errors[0]).toMatchObject({ message: 'the geometry covers more than 1000000 cells at resolution 12; use a coarser resolution', extensions: { code: 'BAD_USER_INPUT' } });
    expect((await gis('geom_to_h3_cells(geom: "POINT(0 0)", resolution: 0)')).data.function.core.gis.geom_to_h3_cells).toEqual([latLngToCell(0, 0, 0)]);
    expect((await gis('geom_to_h3_cells(geom: "POINT(0")')).errors[0].message).toMatch(/^invalid geometry text "POINT\(0"/);
    expect((await gis('geom_to_h3_cells(geom: "SRID=3857;POINT(0 0)")')).errors[0].message).toBe('H3 cells are defined on WGS 84 (SRID 4326); the geometry has SRID 3857');
  });
});
