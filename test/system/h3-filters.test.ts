// H3Cell filters (issue 17 item 7) over HTTP on a DuckDB and a PostgreSQL source: within (the cell
// or its descendants), contains (the cell or its ancestors), grid_disk (k steps) and resolution,
// each checked against h3-js on the same cells.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { cellToParent, getResolution, gridDisk, latLngToCell } from 'h3-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, tempDir, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

let t: TestApp;
let db: TestDatabase;
const dir = tempDir();

// Cells near Paris and Madrid at resolutions 9 and 7, and the neighbours of one of them.
const center = latLngToCell(48.8600, 2.3400, 9);
const cells = [
  ...gridDisk(center, 2),
  latLngToCell(48.8700, 2.3600, 9), latLngToCell(48.8000, 2.2000, 9), latLngToCell(48.8600, 2.3400, 7), latLngToCell(48.9, 2.5, 7),
  latLngToCell(40.4168, -3.7038, 9), latLngToCell(40.4168, -3.7038, 7),
];
const rows = [...new Set(cells)].map((cell, i) => ({ id: i + 1, cell }));
const values = rows.map((r) => `(${r.id}, '${r.cell}')`).join(', ');
const ids = (pred: (c: string) => boolean) => rows.filter((r) => pred(r.cell)).map((r) => r.id);

beforeAll(async () => {
  const file = join(dir, 'places.duckdb');
  const duck = await DuckDBInstance.create(file);
  const c = await duck.connect();
  await c.run(`CREATE TABLE places (id INTEGER PRIMARY KEY, cell VARCHAR); INSERT INTO places VALUES ${values}`);
  c.closeSync();
  duck.closeSync();
  db = await createTestDatabase('svc_h3');
  await db.exec(`CREATE TABLE places (id INTEGER PRIMARY KEY, cell TEXT); CREATE INDEX ON places (cell); INSERT INTO places VALUES ${values}`);
  const cat = join(dir, 'cat');
  mkdirSync(cat, { recursive: true });
  writeFileSync(join(cat, 'schema.graphql'), 'type places @table(name: "places") { id: Int! @pk cell: H3Cell }');
  t = await startApp({ SVC_TEST_DIR: dir });
  for (const [name, type, path] of [['hd', 'duckdb', file], ['hp', 'postgres', db.url]] as const) {
    const r = await t.gql(`mutation($p: String!, $c: String!) { core { insert_data_sources(data: {name: "${name}", type: "${type}", prefix: "${name}", as_module: false, path: $p,
      catalogs: [{name: "${name}cat", type: "localFS", path: $c}]}) { name } } }`, { p: path, c: cat });
    expect(r.body.errors).toBeUndefined();
    const load = await t.gql(`mutation { function { core { load_data_source(name: "${name}") { success message } } } }`);
    expect(load.body.data.function.core.load_data_source).toMatchObject({ success: true });
  }
}, 60_000);
afterAll(async () => {
  await t.close();
  await db.drop();
});

describe.each(['hd', 'hp'])('H3Cell filters on %s', (src) => {
  const query = async (filter: string, variables?: Record<string, unknown>) => {
    const r = await t.gql(`query${variables ? '($c: H3Cell!)' : ''} { ${src}_places(filter: ${filter}, order_by: [{field: "id"}]) { id } }`, variables);
    expect(r.body.errors).toBeUndefined();
    return r.body.data[`${src}_places`].map((x: { id: number }) => x.id);
  };

  it('within: the cell and its descendants', async () => {
    const parent = cellToParent(center, 5);
    const want = ids((c) => getResolution(c) >= 5 && cellToParent(c, 5) === parent);
    expect(want.length).toBeGreaterThan(20);
    expect(await query('{cell: {within: $c}}', { c: parent })).toEqual(want);
    const seven = latLngToCell(48.8600, 2.3400, 7);
    expect(await query('{cell: {within: $c}}', { c: seven })).toEqual(ids((c) => getResolution(c) >= 7 && cellToParent(c, 7) === seven));
    expect(await query('{cell: {within: $c}}', { c: center })).toEqual(ids((c) => c === center));
  });

  it('contains: the cell and its ancestors', async () => {
    const want = ids((c) => getResolution(c) <= 9 && cellToParent(center, getResolution(c)) === c);
    expect(want).toHaveLength(2);
    expect(await query('{cell: {contains: $c}}', { c: center })).toEqual(want);
  });

  it('grid_disk: the cells within k steps', async () => {
    const near = new Set(gridDisk(center, 1));
    expect(await query('{cell: {grid_disk: {cell: $c, k: 1}}}', { c: center })).toEqual(ids((c) => near.has(c)));
    expect(await query('{cell: {grid_disk: {cell: $c, k: 0}}}', { c: center })).toEqual(ids((c) => c === center));
  });

  it('resolution, and combined with other filters', async () => {
    expect(await query('{cell: {resolution: 7}}')).toEqual(ids((c) => getResolution(c) === 7));
    const madrid = cellToParent(latLngToCell(40.4168, -3.7038, 9), 3);
    expect(await query('{_or: [{cell: {within: $c}}, {cell: {resolution: 7}}], id: {gt: 3}}', { c: madrid }))
      .toEqual(rows.filter((r) => r.id > 3 && (cellToParent(r.cell, 3) === madrid || getResolution(r.cell) === 7)).map((r) => r.id));
  });

  it('names bad operands', async () => {
    const r = await t.gql(`{ ${src}_places(filter: {cell: {within: "zz"}}) { id } }`);
    expect(r.body.errors[0]).toMatchObject({ message: `filter "${src}_places.cell.within": "zz" is not an H3 cell`, extensions: { code: 'BAD_USER_INPUT' } });
    const k = await t.gql(`{ ${src}_places(filter: {cell: {grid_disk: {cell: "${center}", k: 21}}}) { id } }`);
    expect(k.body.errors[0].message).toBe(`filter "${src}_places.cell.grid_disk": k must be an integer from 0 to 20, not 21`);
    const res = await t.gql(`{ ${src}_places(filter: {cell: {resolution: 16}}) { id } }`);
    expect(res.body.errors[0].message).toBe(`filter "${src}_places.cell.resolution": resolution must be an integer from 0 to 15, not 16`);
  });
});
