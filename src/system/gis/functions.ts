// `core.gis` (seed 001): H3 cells for geometries and back, computed in the server with h3-js (the
// H3 library itself, compiled to JavaScript), so the answers do not depend on a database extension.
import type { Geometry, Polygon, Position } from 'geojson';
import type { FunctionHandler } from '../../pipeline/resolver-deps.js';
import type { SystemFunction } from '../../schema/surface.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { parseGeometry } from '../../shared/geo/codec.js';
import { h3 } from '../../shared/h3.js';
import { DEFAULT_SRID, GeoError } from '../../shared/geo/types.js';

export const GIS_FUNCTIONS: readonly SystemFunction[] = [
  {
    module: 'core.gis', mutation: false, name: 'geom_to_h3_cells', args: '(geom: Geometry!, resolution: Int! = 8, simplify: Boolean = true, compact: Boolean = false)', returns: '[H3Cell!]', handler: 'gis_geom_to_h3_cells',
    description: 'H3 cells covering a geometry (WGS 84). simplify: polygons take the cells whose centers are inside (false: every cell touching them); compact: the fewest cells of mixed resolutions',
  },
  { module: 'core.gis', mutation: false, name: 'h3_cell_to_geom', args: '(cell: H3Cell!)', returns: 'Geometry!', handler: 'gis_h3_cell_to_geom', description: 'The boundary polygon of an H3 cell' },
  { module: 'core.gis', mutation: false, name: 'h3_cells_to_multi_polygon', args: '(cells: [H3Cell!]!, compact: Boolean = false)', returns: 'Geometry!', handler: 'gis_h3_cells_to_multi_polygon', description: 'The outline of a set of H3 cells as one MultiPolygon; compact: the cells are of mixed resolutions (compacted)' },
];

/** More cells than this in one answer is refused: a country at resolution 15 is billions of cells. */
const MAX_CELLS = 1_000_000;

const bad = (message: string) => new PublicError(ErrorCode.BadUserInput, message);

function resolutionOf(v: unknown): number {
  const r = Number(v ?? 8);
  if (!Number.isInteger(r) || r < 0 || r > 15) throw bad(`resolution must be an integer from 0 to 15, not ${String(v)}`);
  return r;
}

function cellOf(v: unknown): string {
  const c = String(v ?? '').toLowerCase();
  if (!h3().isValidCell(c)) throw bad(`"${String(v).slice(0, 40)}" is not an H3 cell`);
  return c;
}

/** Cells along a line: H3's grid path between vertices, or points sampled at half a cell's edge where H3 has no path. */
function lineCells(line: readonly Position[], res: number, out: Set<string>): void {
  const step = h3().getHexagonEdgeLengthAvg(res, h3().UNITS.km) / 2;
  for (let i = 0; i < line.length; i++) {
    const [lng, lat] = line[i]!;
    const cell = h3().latLngToCell(lat!, lng!, res);
    out.add(cell);
    if (i === 0) continue;
    const [plng, plat] = line[i - 1]!;
    const prev = h3().latLngToCell(plat!, plng!, res);
    try {
      for (const c of h3().gridPathCells(prev, cell)) out.add(c);
    } catch {
      // Across pentagons or icosahedron faces H3 finds no path: sample the segment instead.
      const km = Math.hypot((lat! - plat!) * 111.32, (lng! - plng!) * 111.32 * Math.cos(((lat! + plat!) / 2) * (Math.PI / 180)));
      const n = Math.min(Math.ceil(km / step), MAX_CELLS);
      for (let k = 1; k < n; k++) out.add(h3().latLngToCell(plat! + ((lat! - plat!) * k) / n, plng! + ((lng! - plng!) * k) / n, res));
    }
    if (out.size > MAX_CELLS) throw bad(`the geometry covers more than ${MAX_CELLS} cells at resolution ${res}`);
  }
}

/** Rough area (km²) of a ring's bounding box: enough to refuse covers that could not be answered. */
function boxKm2(ring: readonly Position[]): number {
  const lats = ring.map((p) => p[1]!);
  const lngs = ring.map((p) => p[0]!);
  const [s, n] = [Math.min(...lats), Math.max(...lats)];
  const mid = Math.cos((((s + n) / 2) * Math.PI) / 180);
  return (n - s) * 111.32 * (Math.max(...lngs) - Math.min(...lngs)) * 111.32 * Math.max(mid, 0.01);
}

function polygonCells(p: Polygon['coordinates'], res: number, simplify: boolean, out: Set<string>): void {
  // H3 sizes its buffers by the polygon's extent before it counts anything: ask first.
  if (boxKm2(p[0] ?? []) / h3().getHexagonAreaAvg(res, h3().UNITS.km2) > MAX_CELLS * 2) {
    throw bad(`the geometry covers more than ${MAX_CELLS} cells at resolution ${res}; use a coarser resolution`);
  }
  const cells = simplify ? h3().polygonToCells(p as number[][][], res, true) : h3().polygonToCellsExperimental(p as number[][][], res, h3().POLYGON_TO_CELLS_FLAGS.containmentOverlapping, true);
  for (const c of cells) out.add(c);
  // A polygon smaller than a cell holds no cell center: it still lies in the cells of its outline.
  if (simplify && !cells.length) lineCells(p[0] ?? [], res, out);
  if (out.size > MAX_CELLS) throw bad(`the geometry covers more than ${MAX_CELLS} cells at resolution ${res}`);
}

function geometryCells(g: Geometry, res: number, simplify: boolean, out: Set<string>): void {
  switch (g.type) {
    case 'Point':
      if (g.coordinates.length) out.add(h3().latLngToCell(g.coordinates[1]!, g.coordinates[0]!, res));
      return;
    case 'MultiPoint':
      for (const [lng, lat] of g.coordinates) out.add(h3().latLngToCell(lat!, lng!, res));
      return;
    case 'LineString':
      return lineCells(g.coordinates, res, out);
    case 'MultiLineString':
      for (const l of g.coordinates) lineCells(l, res, out);
      return;
    case 'Polygon':
      return polygonCells(g.coordinates, res, simplify, out);
    case 'MultiPolygon':
      for (const p of g.coordinates) polygonCells(p, res, simplify, out);
      return;
    case 'GeometryCollection':
      for (const x of g.geometries) geometryCells(x, res, simplify, out);
  }
}

function wgs84(value: unknown): Geometry {
  let geo;
  try {
    geo = parseGeometry(value);
  } catch (e) {
    throw bad(e instanceof GeoError ? e.message : 'invalid geometry');
  }
  if (geo.srid !== DEFAULT_SRID) throw bad(`H3 cells are defined on WGS 84 (SRID 4326); the geometry has SRID ${geo.srid}`);
  return geo.geometry;
}

export function gisHandlers(): Record<string, FunctionHandler> {
  return {
    gis_geom_to_h3_cells: async (a) => {
      const res = resolutionOf(a.resolution);
      const out = new Set<string>();
      geometryCells(wgs84(a.geom), res, a.simplify !== false, out);
      const cells = [...out].sort();
      return a.compact ? h3().compactCells(cells).sort() : cells;
    },
    gis_h3_cell_to_geom: async (a) => ({ type: 'Polygon', coordinates: [h3().cellToBoundary(cellOf(a.cell), true)] }),
    gis_h3_cells_to_multi_polygon: async (a) => {
      let cells = ((a.cells as unknown[]) ?? []).map(cellOf);
      if (a.compact && cells.length) {
        const finest = Math.max(...cells.map(h3().getResolution));
        cells = h3().uncompactCells(cells, finest);
      } else if (new Set(cells.map(h3().getResolution)).size > 1) {
        throw bad('cells of mixed resolutions: pass compact: true');
      }
      if (cells.length > MAX_CELLS) throw bad(`more than ${MAX_CELLS} cells`);
      return { type: 'MultiPolygon', coordinates: h3().cellsToMultiPolygon(cells, true) };
    },
  };
}
