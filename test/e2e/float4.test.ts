// A 4-byte float (PostgreSQL `real`, DuckDB and MariaDB `FLOAT`) served as Float answers the shortest
// decimal that reads back as the stored value, on every source and path: `1.1`, as the databases
// print it, not the double it widens to (`1.100000023841858`). Filters compare the stored value, as
// each database does (`f = 1.1` does not hold for a FLOAT 1.1 in any of them). Real databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { startSources, type Sources } from '../support/sources.js';

// 9 to 13: a FLOAT that needs 9 digits, large and small exponents (MariaDB's answer had 17 digits,
// 1.6952539999999998e-21, for one in seven random FLOATs), subnormals (fewer digits than 6).
const VALUES = '(1, 1.1), (2, 0.1), (3, -2.5), (4, 3.4e38), (5, NULL), (6, 123456.7), (7, 16777217), (8, 0.3), '
  + '(9, 1.35130985e-2), (10, 1.695254e-21), (11, 3.557161e37), (12, 1e-40), (13, -1.4e-45)';
const SHOWN = [1.1, 0.1, -2.5, 3.4e38, null, 123456.7, 16777216, 0.3, 0.0135130985, 1.695254e-21, 3.557161e37, 1e-40, -1e-45];
const SCHEMA = (lists: boolean) => `type meters @table(name: "meters") {\n  id: Int! @pk\n  f: Float\n${lists ? '  fs: [Float]\n' : ''}}\n`;

let my: TestMysqlDatabase;
const apps: Sources[] = [];

beforeAll(async () => {
  my = await createMysqlDatabase('svc_float4');
  await my.exec(`CREATE TABLE meters (id INT PRIMARY KEY, f FLOAT); INSERT INTO meters VALUES ${VALUES};`);
  // The rows path with lists streamed past 2 rows, and the JSON path (SQL_ROWS=false).
  for (const [i, env] of [{ STREAM_LIST_ROWS: '2' }, { SQL_ROWS: 'false' }].entries()) {
    apps.push(await startSources({
      name: `svc_float4_${i}`,
      pgSql: `CREATE TABLE meters (id integer PRIMARY KEY, f real, fs real[]); INSERT INTO meters (id, f) VALUES ${VALUES}; UPDATE meters SET fs = '{1.1,0.1,null}' WHERE id = 1;`,
      sources: [
        {
          name: 'duck', yaml: 'type: duckdb\npath: duck.duckdb\ncreate: true\nseed: seed.sql\nprefix: duck\n', schema: SCHEMA(true),
          seed: `CREATE TABLE meters (id INTEGER PRIMARY KEY, f FLOAT, fs FLOAT[]); INSERT INTO meters (id, f) VALUES ${VALUES}; UPDATE meters SET fs = [1.1, 0.1, NULL] WHERE id = 1;`,
        },
        { name: 'pg', yaml: 'type: postgres\npath: "[$PG]"\nprefix: pg\n', schema: SCHEMA(true) },
        { name: 'my', yaml: `type: mysql\npath: "${my.url}"\nprefix: my\n`, schema: SCHEMA(false) },
      ],
      env,
    }));
  }
}, 120_000);

afterAll(async () => {
  for (const s of apps) await s.close();
  await my?.drop();
});

async function data(s: Sources, query: string): Promise<any> {
  const r = await s.app.gql(query);
  expect(r.body.errors, r.text).toBeUndefined();
  return r.body.data;
}

describe('4-byte floats answer their shortest decimal', () => {
  for (const d of ['duck', 'pg', 'my']) {
    it(`${d}: lists (first and prepared), by key, a relation-free aggregation; filters compare the stored value`, async () => {
      for (const s of apps) {
        const list = `{ ${d}_meters(order_by: [{field: "id"}], limit: 20) { id f } }`;
        for (let i = 0; i < 2; i++) expect((await data(s, list))[`${d}_meters`].map((r: { f: number | null }) => r.f)).toEqual(SHOWN);
        expect((await s.app.gql(list)).text).toContain('{"id":1,"f":1.1}');
        expect((await data(s, `{ ${d}_meters_by_pk(id: 6) { f } }`))[`${d}_meters_by_pk`]).toEqual({ f: 123456.7 });
        const agg = (await data(s, `{ ${d}_meters_aggregation(filter: {id: {in: [1, 2, 6]}}) { f { min max } } }`))[`${d}_meters_aggregation`];
        expect(agg).toEqual({ f: { min: 0.1, max: 123456.7 } });
        // As in the database: the stored FLOAT 1.1 is not the double 1.1, and orders follow the stored values.
        expect((await data(s, `{ ${d}_meters(filter: {f: {eq: 1.1}}) { id } }`))[`${d}_meters`]).toEqual([]);
        expect((await data(s, `{ ${d}_meters(filter: {f: {gt: 1, lt: 2}}) { id } }`))[`${d}_meters`]).toEqual([{ id: 1 }]);
        const ordered = (await data(s, `{ ${d}_meters(filter: {f: {is_null: false}}, order_by: [{field: "f", direction: DESC}]) { id f } }`))[`${d}_meters`];
        expect(ordered.map((r: { id: number }) => r.id)).toEqual([4, 11, 7, 6, 1, 8, 2, 9, 10, 12, 13, 3]);
      }
    });
  }

  it('lists of them (DuckDB FLOAT[], PostgreSQL real[])', async () => {
    for (const s of apps) {
      for (const d of ['duck', 'pg']) expect((await data(s, `{ ${d}_meters_by_pk(id: 1) { fs } }`))[`${d}_meters_by_pk`]).toEqual({ fs: [1.1, 0.1, null] });
    }
  });

  it('a value written is read back as written', async () => {
    const s = apps[0]!;
    for (const d of ['duck', 'pg', 'my']) {
      const r = await s.app.gql(`mutation { insert_${d}_meters(data: {id: 100, f: 2.2}) { id f } }`);
      expect(r.body.errors, r.text).toBeUndefined();
      expect((await data(s, `{ ${d}_meters_by_pk(id: 100) { f } }`))[`${d}_meters_by_pk`]).toEqual({ f: 2.2 });
    }
  });
});
