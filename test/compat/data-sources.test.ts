// hugr's data-source pages (issue 32): the overview (data_sources / catalog_sources tables, loading,
// self-defined sources), DuckDB, PostgreSQL and MySQL. Each source is registered as the pages register
// them: `insert_data_sources` with nested `catalogs`, then loaded; our own catalogs and data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, tempDir } from '../support/app.js';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { data } from './support.js';

let t: TestApp;
let pgDb: TestDatabase;
let myDb: TestMysqlDatabase;
let dir: string;

const INSERT = `mutation addDataSet($data: core_data_sources_mut_input_data! = {}) { core { insert_data_sources(data: $data) {
  name description as_module disabled path prefix read_only self_defined type catalogs { name description path type }
} } }`;
const load = async (name: string) => (await data(t, 'mutation($name: String!) { function { core { load_data_source(name: $name) { success message } } } }', { name })).function.core.load_data_source;
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

beforeAll(async () => {
  dir = tempDir();
  mkdirSync(join(dir, 'pg_catalog'), { recursive: true });
  pgDb = await createTestDatabase('svc_compat_ds');
  await pgDb.exec(`CREATE EXTENSION IF NOT EXISTS postgis;
    CREATE TABLE departments (id int PRIMARY KEY, name text NOT NULL);
    CREATE TABLE staff (id int PRIMARY KEY, name text NOT NULL, department_id int REFERENCES departments(id), shift tstzrange, grades int4range, office geometry(Point, 4326), skills real[]);
    CREATE VIEW staff_names AS SELECT id, upper(name) AS name FROM staff;
    INSERT INTO departments VALUES (1, 'Sales'), (2, 'Support');
    INSERT INTO staff VALUES (1, 'Ada', 1, '[2025-01-01 09:00:00+00,2025-01-01 17:00:00+00)', '[1,5)', ST_GeomFromText('POINT(2 48)', 4326), '{1,0}'),
      (2, 'Bo', 2, NULL, '[3,4)', NULL, '{0.6,0.8}'), (3, 'Cy', 1, NULL, NULL, NULL, NULL);`);
  myDb = await createMysqlDatabase('svc_compat_ds');
  await myDb.exec('CREATE TABLE candidates (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, stage VARCHAR(20), profile JSON)');
  await myDb.exec(`INSERT INTO candidates (name, stage, profile) VALUES ('Dee', 'interview', '{"skills": ["sql", "go"]}'), ('Eli', 'offer', '{"skills": ["ts"]}')`);
  // `[$SVC_COMPAT_PG_DB]` in a source's path is read from the process environment when it is attached.
  process.env.SVC_COMPAT_PG_DB = pgDb.name;
  t = await startApp({ CATALOGS_DIR: join(dir, 'none'), LOG_LEVEL: 'silent', CATALOG_ALLOWED_PATHS: dir });
}, 90_000);
afterAll(async () => {
  await t?.close();
  await pgDb?.drop();
  await myDb?.drop();
});

describe('docs/4-engine-configuration/1-data-sources/1-duckdb.md', () => {
  it('a DuckDB file as a module with a uriFile catalog: insert_data_sources with nested catalogs, load, query, mutate', async () => {
    const catalog = file('quack.graphql', 'type birds @table(name: "birds") {\n  id: Int! @pk\n  name: String!\n  wingspan: Float\n}\n');
    const input = {
      name: 'quack', type: 'duckdb', path: join(dir, 'quack.duckdb'), prefix: 'ds1', description: 'My DuckDB data set',
      read_only: false, self_defined: false, as_module: true, disabled: false,
      catalogs: [{ name: 'quack_catalog', description: 'My DuckDB catalog source', path: catalog, type: 'uriFile' }],
    };
    const d = await data(t, INSERT, { data: input });
    expect(d.core.insert_data_sources).toEqual(input);
    // The database file must hold the table the catalog names before it loads.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(input.path);
    const c = await db.connect();
    await c.run("CREATE TABLE birds (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, wingspan DOUBLE); INSERT INTO birds VALUES (1, 'Swift', 0.4)");
    c.closeSync();
    db.closeSync();
    expect(await load('quack')).toMatchObject({ success: true });
    const w = await data(t, 'mutation { quack { insert_birds(data: {id: 2, name: "Albatross", wingspan: 3.5}) { id name } } }');
    expect(w.quack.insert_birds).toEqual({ id: 2, name: 'Albatross' });
    const q = await data(t, '{ quack { birds(order_by: [{field: "wingspan", direction: DESC}]) { name wingspan } birds_aggregation { _rows_count } } }');
    expect(q.quack).toEqual({ birds: [{ name: 'Albatross', wingspan: 3.5 }, { name: 'Swift', wingspan: 0.4 }], birds_aggregation: { _rows_count: 2 } });
  });

  it('file views: an in-memory database whose @view SQL reads a CSV file', async () => {
    const csv = file('sightings.csv', 'bird,count\nSwift,12\nAlbatross,2\nSwift,5\n');
    const catalog = file('sightings.graphql', `type sightings @view(name: "sightings", sql: "SELECT bird, count FROM read_csv('${csv}', header = true)") {\n  bird: String\n  count: BigInt\n}\n`);
    await data(t, INSERT, { data: { name: 'files', type: 'duckdb', path: ':memory:', prefix: 'files', read_only: true, as_module: true, catalogs: [{ name: 'files_catalog', path: catalog, type: 'uriFile' }] } });
    expect(await load('files')).toMatchObject({ success: true });
    const q = await data(t, '{ files { sightings_bucket_aggregation(order_by: [{field: "key.bird"}]) { key { bird } aggregations { count { sum } } } } }');
    expect(q.files.sightings_bucket_aggregation).toEqual([
      { key: { bird: 'Albatross' }, aggregations: { count: { sum: 2 } } },
      { key: { bird: 'Swift' }, aggregations: { count: { sum: 17 } } },
    ]);
    // read_only: no mutations are generated for the source.
    const m = await t.gql('mutation { files { __typename } }');
    expect(m.body.errors?.[0]?.message ?? '').toMatch(/files/);
  });

  it('self_defined: the schema comes from the database, merged with the catalogs', async () => {
    // A second file: DuckDB attaches a database file once (the first test's source holds quack.duckdb).
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(join(dir, 'nest.duckdb'));
    const c = await db.connect();
    await c.run("CREATE TABLE birds (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, wingspan DOUBLE); INSERT INTO birds VALUES (1, 'Swift', 0.4), (2, 'Albatross', 3.5)");
    c.closeSync();
    db.closeSync();
    const extra = file('self-extra.graphql', [
      'extend type Function {\n  bird_count: BigInt @function(name: "bird_count", sql: "SELECT count(*) FROM [$catalog].birds")\n}',
      'extend type birds {\n  "Birds with a larger wingspan"\n  larger: [birds] @join(references_name: "birds", sql: "[dest.wingspan] > [source.wingspan]")\n}',
    ].join('\n'));
    await data(t, INSERT, { data: { name: 'quack_self', type: 'duckdb', path: join(dir, 'nest.duckdb'), prefix: 'qs', read_only: true, self_defined: true, as_module: true, catalogs: [{ name: 'quack_self_extra', path: extra, type: 'uriFile' }] } });
    const r = await load('quack_self');
    expect(r, r.message).toMatchObject({ success: true });
    const q = await data(t, '{ quack_self { birds(order_by: [{field: "id"}]) { id name larger { name } } } function { quack_self { bird_count } } }');
    expect(q.quack_self.birds).toEqual([{ id: 1, name: 'Swift', larger: [{ name: 'Albatross' }] }, { id: 2, name: 'Albatross', larger: null }]);
    expect(q.function.quack_self.bird_count).toBe(2);
  });
});

describe('docs/4-engine-configuration/1-data-sources/2-postgres.md', () => {
  it('a PostgreSQL source with [$ENV] in its path and a uri catalog directory: push-down of filters, order, limits, aggregations, joins', async () => {
    writeFileSync(join(dir, 'pg_catalog', 'schema.graphql'), `type departments @table(name: "departments") {
  id: Int! @pk
  name: String!
}
type staff @table(name: "staff") {
  id: Int! @pk
  name: String!
  department_id: Int @field_references(references_name: "departments", field: "id", query: "department", references_query: "staff")
  shift: TimestampRange
  grades: IntRange
  office: Geometry @geometry_info(type: POINT, srid: 4326)
  skills: Vector @dim(len: 2)
}
`);
    const path = pgDb.url.replace(`/${pgDb.name}`, '/[$SVC_COMPAT_PG_DB]');
    const input = { name: 'pg', type: 'postgres', path, prefix: 'ds2', description: 'My PostgreSQL data set', read_only: false, self_defined: false, as_module: true, disabled: false, catalogs: [{ name: 'pg_catalog', description: 'My PostgreSQL catalog source', path: join(dir, 'pg_catalog'), type: 'uri' }] };
    await data(t, INSERT, { data: input });
    const r = await load('pg');
    expect(r, r.message).toMatchObject({ success: true });
    const q = await data(t, `{ pg {
      staff(filter: {department: {name: {eq: "Sales"}}}, order_by: [{field: "name", direction: DESC}], limit: 5) { name department { name } grades office }
      departments(order_by: [{field: "id"}]) { id name staff_aggregation { _rows_count } }
      with_grade: staff(filter: {grades: {contains: 4}}, order_by: [{field: "id"}]) { id }
    } }`);
    expect(q.pg.staff).toEqual([
      { name: 'Cy', department: { name: 'Sales' }, grades: null, office: null },
      { name: 'Ada', department: { name: 'Sales' }, grades: '[1,5)', office: { type: 'Point', coordinates: [2, 48] } },
    ]);
    expect(q.pg.departments).toEqual([{ id: 1, name: 'Sales', staff_aggregation: { _rows_count: 2 } }, { id: 2, name: 'Support', staff_aggregation: { _rows_count: 1 } }]);
    // [3,4) excludes 4.
    expect(q.pg.with_grade).toEqual([{ id: 1 }]);
    // Vector search on PostgreSQL without pgvector: a real[] column, distances computed in SQL.
    const v = await data(t, '{ pg { staff(similarity: {name: "skills", vector: [0, 1], distance: Cosine, limit: 5}) { id d: _skills_distance(vector: [0, 1], distance: L2) } } }');
    expect(v.pg.staff.map((r: any) => r.id)).toEqual([2, 1]);
    expect(v.pg.staff[0].d).toBeCloseTo(Math.sqrt(0.36 + 0.04), 5);
    // The path keeps its placeholder: the database name is read from the environment when attaching.
    const ds = await data(t, '{ core { data_sources(filter: {name: {eq: "pg"}}) { path } } }');
    expect(ds.core.data_sources[0].path).toContain('[$SVC_COMPAT_PG_DB]');
  });

  it('self_defined: tables and views from the database metadata, views read-only', async () => {
    await data(t, INSERT, { data: { name: 'pg_self', type: 'postgres', path: pgDb.url, prefix: 'pgs', self_defined: true, as_module: true } });
    const r = await load('pg_self');
    expect(r, r.message).toMatchObject({ success: true });
    const q = await data(t, '{ pg_self { staff(order_by: [{field: "id"}]) { id name } staff_names(order_by: [{field: "id"}], limit: 1) { id name } } }');
    expect(q.pg_self).toEqual({ staff: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Bo' }, { id: 3, name: 'Cy' }], staff_names: [{ id: 1, name: 'ADA' }] });
    const schema = await data(t, '{ function { core { describe_data_source_schema(name: "pg_self", self: true) } } }');
    expect(schema.function.core.describe_data_source_schema).toMatch(/staff/);
  });
});

describe('docs/4-engine-configuration/1-data-sources/3-mysql.md', () => {
  it('a MySQL source with a uriFile catalog: reads, JSON fields, writes; an auto-increment key is answered after insert', async () => {
    const catalog = file('mysql.graphql', 'type candidates @table(name: "candidates") {\n  id: Int! @pk\n  name: String!\n  stage: String\n  profile: JSON\n}\n');
    const input = { name: 'mysql', type: 'mysql', path: myDb.url, prefix: 'ds3', description: 'My MySQL data set', read_only: false, self_defined: false, as_module: true, disabled: false, catalogs: [{ name: 'mysql_catalog', description: 'My MySQL catalog source', path: catalog, type: 'uriFile' }] };
    await data(t, INSERT, { data: input });
    const r = await load('mysql');
    expect(r, r.message).toMatchObject({ success: true });
    const q = await data(t, '{ mysql { candidates(order_by: [{field: "id"}]) { id name skills: profile(struct: {skills: "json"}) } } }');
    expect(q.mysql.candidates).toEqual([{ id: 1, name: 'Dee', skills: { skills: ['sql', 'go'] } }, { id: 2, name: 'Eli', skills: { skills: ['ts'] } }]);
    // The page: hugr cannot answer the created row of an auto-increment key; svc answers it.
    const w = await data(t, 'mutation { mysql { insert_candidates(data: {name: "Fay", stage: "screen"}) { id name } } }');
    expect(w.mysql.insert_candidates).toEqual({ id: 3, name: 'Fay' });
  });
});

describe('docs/4-engine-configuration/1-data-sources/index.md (overview)', () => {
  it('data_sources lists every source with its catalogs; unload and load again by name', async () => {
    const d = await data(t, '{ core { data_sources(order_by: [{field: "name"}]) { name type prefix as_module read_only self_defined catalogs { name type } } } }');
    const byName = Object.fromEntries(d.core.data_sources.map((s: any) => [s.name, s]));
    expect(byName.quack).toMatchObject({ type: 'duckdb', prefix: 'ds1', as_module: true, catalogs: [{ name: 'quack_catalog', type: 'uriFile' }] });
    expect(byName.pg).toMatchObject({ type: 'postgres', catalogs: [{ name: 'pg_catalog', type: 'uri' }] });
    const un = await data(t, 'mutation { function { core { unload_data_source(name: "quack") { success message } } } }');
    expect(un.function.core.unload_data_source.success).toBe(true);
    expect((await t.gql('{ quack { birds { id } } }')).body.errors?.length).toBeGreaterThan(0);
    expect(await load('quack')).toMatchObject({ success: true });
    expect((await data(t, '{ quack { birds_aggregation { _rows_count } } }')).quack.birds_aggregation._rows_count).toBe(2);
  });

  it('an unknown catalog source type is refused with the types svc reads', async () => {
    await data(t, INSERT, { data: { name: 'odd', type: 'duckdb', path: ':memory:', catalogs: [{ name: 'odd_catalog', path: join(dir, 'x.graphql'), type: 's3Bucket' }] } });
    const r = await load('odd');
    expect(r.success).toBe(false);
    expect(r.message).toMatch(/unknown catalog source type "s3Bucket": use localFS, uri or uriFile/);
  });
});
