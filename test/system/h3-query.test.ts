// The root h3(resolution) query (SPEC §4.5, issue 17 item 7) over HTTP on a DuckDB and a PostgreSQL
// source: rows counted in the H3 cell of their geometry's centroid, every cell and aggregate checked
// against h3-js on the same coordinates; the role's rules hold as in the object's own aggregation;
// statements stay one (DuckDB) or two (PostgreSQL) per object whatever the number of rows.
import { cellToBoundary, latLngToCell } from 'h3-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sources, startSources } from '../support/sources.js';

interface Spot { id: number; kind: string; amount: number; lng: number; lat: number; wkt?: string }
// Points in and around Paris and Madrid; a square whose centroid is (2.31, 48.86); a row without geometry.
const SPOTS: Spot[] = [
  { id: 1, kind: 'a', amount: 10, lng: 2.3400, lat: 48.8600 },
  { id: 2, kind: 'a', amount: 5, lng: 2.3410, lat: 48.8605 },
  { id: 3, kind: 'b', amount: 7, lng: 2.3600, lat: 48.8700 },
  { id: 4, kind: 'b', amount: 1.5, lng: 2.2000, lat: 48.8000 },
  { id: 5, kind: 'a', amount: 100, lng: -3.7038, lat: 40.4168 },
  { id: 6, kind: 'c', amount: 3, lng: -3.7000, lat: 40.4200 },
  { id: 7, kind: 'a', amount: 2, lng: 2.31, lat: 48.86, wkt: 'POLYGON((2.30 48.85, 2.32 48.85, 2.32 48.87, 2.30 48.87, 2.30 48.85))' },
];
const wkt = (s: Spot) => s.wkt ?? `POINT(${s.lng} ${s.lat})`;
const duckRows = [...SPOTS.map((s) => `(${s.id}, '${s.kind}', ${s.amount}, '${wkt(s)}')`), "(8, 'a', 1000, NULL)"].join(', ');
// PostgreSQL holds one more row, in Rome.
const ROME: Spot = { id: 9, kind: 'a', amount: 4, lng: 12.4964, lat: 41.9028 };
const pgRows = [...SPOTS, ROME].map((s) => `(${s.id}, '${s.kind}', ${s.amount}, ST_GeomFromText('${wkt(s)}', 4326))`).join(', ');

const SCHEMA = 'type spots @table(name: "spots") {\n  id: Int! @pk\n  kind: String\n  amount: Float\n  geom: Geometry\n}\n';
const DUCK = { name: 'hd', yaml: 'type: duckdb\npath: ":memory:"\nprefix: hd\nseed: seed.sql\n', schema: SCHEMA, seed: `CREATE TABLE spots (id INTEGER PRIMARY KEY, kind VARCHAR, amount DOUBLE, geom VARCHAR);\nINSERT INTO spots VALUES ${duckRows};\n` };
const PG = { name: 'hp', yaml: 'type: postgres\npath: "[$PG]"\nprefix: hp\n', schema: SCHEMA };
const PG_SQL = `CREATE EXTENSION IF NOT EXISTS postgis;
CREATE TABLE spots (id int PRIMARY KEY, kind text, amount double precision, geom geometry(Geometry, 4326));
INSERT INTO spots VALUES ${pgRows}, (8, 'a', 1000, NULL);`;

const ADMIN = { 'x-svc-secret-key': 'k' };
const role = (name: string) => ({ ...ADMIN, 'x-svc-role': name, 'x-svc-user-id': '1' });
let s: Sources;

beforeAll(async () => {
  s = await startSources({ name: 'svc_h3q', pgSql: PG_SQL, sources: [DUCK, PG], env: { SECRET_KEY: 'k' } });
  const r = await s.app.gql(`mutation { core {
    mapper: insert_roles(data: {name: "mapper", permissions: [
      {type_name: "data-object:query", field_name: "hd_spots", filter: {kind: {eq: "a"}}},
      {type_name: "data-object:query", field_name: "hp_spots", filter: {kind: {eq: "a"}}},
      {type_name: "hd_spots", field_name: "amount", disabled: true},
      {type_name: "hp_spots", field_name: "amount", disabled: true}
    ]}) { name }
    blind: insert_roles(data: {name: "blind", permissions: [{type_name: "data-object:query", field_name: "hd_spots", disabled: true}]}) { name }
  } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
}, 90_000);
afterAll(() => s?.close());

/** What h3-js says: per cell, the rows' count and amount sum (the rows passing `keep`). */
function reference(spots: readonly Spot[], res: number, keep: (s: Spot) => boolean = () => true) {
  const cells = new Map<string, { count: number; sum: number }>();
  for (const x of spots.filter(keep)) {
    const c = latLngToCell(x.lat, x.lng, res);
    const e = cells.get(c) ?? { count: 0, sum: 0 };
    e.count++;
    e.sum += x.amount;
    cells.set(c, e);
  }
  return [...cells.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([cell, v]) => ({ cell, ...v }));
}

async function gql(query: string, headers: Record<string, string> = ADMIN) {
  s.statements.length = 0;
  const r = await s.app.gql(query, undefined, headers);
  return { ...r, statements: [...s.statements] };
}

describe.each([['hd', SPOTS], ['hp', [...SPOTS, ROME]]] as const)('h3 on %s', (src, spots) => {
  it.each([3, 7, 9])('counts and sums the rows of each cell at resolution %i as h3-js places them', async (res) => {
    const r = await gql(`{ h3(resolution: ${res}) { cell resolution data { ${src}_spots_aggregation { _rows_count amount { sum } } } } }`);
    expect(r.body.errors).toBeUndefined();
    const got = r.body.data.h3.map((c: any) => ({ cell: c.cell, count: c.data[`${src}_spots_aggregation`]._rows_count, sum: c.data[`${src}_spots_aggregation`].amount.sum }));
    expect(got).toEqual(reference(spots, res));
    expect(r.body.data.h3.every((c: any) => c.resolution === res)).toBe(true);
    // One grouped statement on DuckDB; on PostgreSQL one for the distinct centroids and one grouping by their cells.
    expect(r.statements.map((x) => x.source)).toEqual(src === 'hd' ? ['hd'] : ['hp', 'hp']);
  });

  it('takes a filter, aliases and the cell outline', async () => {
    const r = await gql(`{ cells: h3(resolution: 8) { id: cell outline: geom data { paris: ${src}_spots_aggregation(filter: {kind: {eq: "b"}}, field: "geom") { n: _rows_count } } } }`);
    expect(r.body.errors).toBeUndefined();
    const want = reference(spots, 8, (x) => x.kind === 'b');
    expect(r.body.data.cells.map((c: any) => [c.id, c.data.paris.n])).toEqual(want.map((c) => [c.cell, c.count]));
    const outline = r.body.data.cells[0].outline;
    expect(outline.type).toBe('Polygon');
    expect(outline.coordinates[0]).toHaveLength(7);
    expect(outline.coordinates[0][0][0]).toBeCloseTo(cellToBoundary(want[0]!.cell, true)[0]![0]!, 9);
  });

  it('lists the buckets of each cell as the bucket aggregation of the object does', async () => {
    const r = await gql(`{ h3(resolution: 7) { cell data { b: ${src}_spots_bucket_aggregation(order_by: [{field: "key.kind"}]) { key { kind } aggregations { _rows_count amount { sum } } } } } }`);
    expect(r.body.errors).toBeUndefined();
    const want = new Map<string, { kind: string; count: number; sum: number }[]>();
    for (const x of spots) {
      const c = latLngToCell(x.lat, x.lng, 7);
      const list = want.get(c) ?? [];
      let e = list.find((b) => b.kind === x.kind);
      if (!e) list.push((e = { kind: x.kind, count: 0, sum: 0 }));
      e.count++;
      e.sum += x.amount;
      want.set(c, list);
    }
    const expected = [...want.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([cell, list]) => ({
      cell, b: list.sort((p, q) => p.kind.localeCompare(q.kind)).map((e) => ({ key: { kind: e.kind }, aggregations: { _rows_count: e.count, amount: { sum: e.sum } } })),
    }));
    expect(r.body.data.h3.map((c: any) => ({ cell: c.cell, b: c.data.b }))).toEqual(expected);
    expect(r.statements.map((x) => x.source)).toEqual(src === 'hd' ? ['hd'] : ['hp', 'hp']);
  });

  it('answers the role only the rows and fields its rules allow, as its own aggregation does', async () => {
    const r = await gql(`{ h3(resolution: 7) { cell data { ${src}_spots_aggregation { _rows_count } } } own: ${src}_spots_aggregation { _rows_count } }`, role('mapper'));
    expect(r.body.errors).toBeUndefined();
    const got = r.body.data.h3.map((c: any) => ({ cell: c.cell, count: c.data[`${src}_spots_aggregation`]._rows_count }));
    expect(got).toEqual(reference(spots, 7, (x) => x.kind === 'a').map(({ cell, count }) => ({ cell, count })));
    // Rows without geometry are in no cell; otherwise the same rows as the object's own aggregation.
    expect(got.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(r.body.data.own._rows_count - 1);
    const amount = await gql(`{ h3(resolution: 7) { cell data { ${src}_spots_aggregation { amount { sum } } } } }`, role('mapper'));
    expect(amount.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(amount.body.errors[0].message).toContain(`${src}_spots.amount`);
    expect(amount.statements).toEqual([]);
  });
});

describe('h3 over both sources', () => {
  it('merges the cells of several objects; inner keeps only the cells where that object has rows', async () => {
    const q = (inner: boolean) => `{ h3(resolution: 5) { cell data { d: hd_spots_aggregation(inner: ${inner}) { _rows_count } p: hp_spots_aggregation { _rows_count } } } }`;
    const all = await gql(q(false));
    expect(all.body.errors).toBeUndefined();
    const rome = latLngToCell(ROME.lat, ROME.lng, 5);
    const cells = reference([...SPOTS, ROME], 5).map((c) => c.cell);
    expect(all.body.data.h3.map((c: any) => c.cell)).toEqual(cells);
    expect(all.body.data.h3.find((c: any) => c.cell === rome).data).toEqual({ d: null, p: { _rows_count: 1 } });
    const inner = await gql(q(true));
    expect(inner.body.data.h3.map((c: any) => c.cell)).toEqual(cells.filter((c) => c !== rome));
  });

  it('refuses bad input and objects the role may not read', async () => {
    const res = await gql('{ h3(resolution: 16) { cell data { hd_spots_aggregation { _rows_count } } } }');
    expect(res.body.errors[0]).toMatchObject({ message: 'h3: resolution must be an integer from 0 to 15, not 16', extensions: { code: 'BAD_USER_INPUT' } });
    const field = await gql('{ h3(resolution: 5) { cell data { hd_spots_aggregation(field: "kind") { _rows_count } } } }');
    expect(field.body.errors[0]).toMatchObject({ message: 'h3: "kind" is not a Geometry field of "hd_spots" (geom)', extensions: { code: 'BAD_USER_INPUT' } });
    const blind = await gql('{ h3(resolution: 5) { cell data { hd_spots_aggregation { _rows_count } } } }', role('blind'));
    expect(blind.body.errors[0]).toMatchObject({ message: 'forbidden: role "blind" may not query "hd_spots"', extensions: { code: 'FORBIDDEN' } });
    expect(blind.statements).toEqual([]);
    // The object it may read still answers.
    const other = await gql('{ h3(resolution: 5) { cell data { hp_spots_aggregation { _rows_count } } } }', role('blind'));
    expect(other.body.errors).toBeUndefined();
    expect(other.body.data.h3).toHaveLength(reference([...SPOTS, ROME], 5).length);
  });
});
