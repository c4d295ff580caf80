// self_defined: true on a DuckDB source: with no catalog file, its tables, views, primary keys and
// foreign keys are served (relations both ways), as on PostgreSQL and MySQL.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapDuckDbType } from '../../src/sources/duckdb/introspect.js';
import { startApp, tempDir, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  const catalogs = join(tempDir(), 'catalogs');
  mkdirSync(join(catalogs, 'lib'), { recursive: true });
  writeFileSync(join(catalogs, 'lib', 'source.yaml'), 'type: duckdb\npath: lib.duckdb\ncreate: true\nseed: seed.sql\nprefix: lib\nself_defined: true\n');
  writeFileSync(join(catalogs, 'lib', 'seed.sql'), `
    CREATE TABLE authors (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, born TIMESTAMP, tags VARCHAR[], price DECIMAL(8,2));
    CREATE TABLE books (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES authors (id), title VARCHAR NOT NULL);
    CREATE TABLE editions (book_id INTEGER, n INTEGER, year INTEGER, PRIMARY KEY (book_id, n));
    CREATE TABLE reviews (book_id INTEGER, edition INTEGER, stars INTEGER, FOREIGN KEY (book_id, edition) REFERENCES editions (book_id, n));
    CREATE VIEW long_titles AS SELECT id, title FROM books WHERE length(title) > 8;
    INSERT INTO authors VALUES (1, 'Le Guin', '1929-10-21 00:00:00', ['sf'], 9.5), (2, 'Lem', NULL, NULL, NULL);
    INSERT INTO books VALUES (1, 1, 'Earthsea'), (2, 1, 'The Dispossessed'), (3, 2, 'Solaris');
    INSERT INTO editions VALUES (2, 1, 1974), (2, 2, 1994);
    INSERT INTO reviews VALUES (2, 1, 5), (2, 2, 4), (2, 2, 3);
  `);
  t = await startApp({ CATALOGS_DIR: catalogs });
}, 90_000);

afterAll(async () => {
  await t?.close();
});

describe('self_defined DuckDB source', () => {
  it('serves the tables with their relations both ways, from no catalog file', async () => {
    const r = await t.gql(`{
      lib_authors(order_by: [{field: "id"}]) { id name books(order_by: [{field: "title"}]) { title } books_aggregation { _rows_count } }
      lib_books_by_pk(id: 3) { title author { name } }
    }`);
    expect(JSON.stringify(r.body.errors)).toBeUndefined();
    expect(r.body.data).toEqual({
      lib_authors: [
        { id: 1, name: 'Le Guin', books: [{ title: 'Earthsea' }, { title: 'The Dispossessed' }], books_aggregation: { _rows_count: 2 } },
        { id: 2, name: 'Lem', books: [{ title: 'Solaris' }], books_aggregation: { _rows_count: 1 } },
      ],
      lib_books_by_pk: { title: 'Solaris', author: { name: 'Lem' } },
    });
  });

  it('relates by a composite foreign key, serves views, and writes through the generated mutations', async () => {
    const r = await t.gql(`{
      lib_editions(order_by: [{field: "n"}]) { n year reviews_aggregation { stars { sum } } }
      lib_long_titles { id title }
    }`);
    expect(JSON.stringify(r.body.errors)).toBeUndefined();
    expect(r.body.data).toEqual({
      lib_editions: [{ n: 1, year: 1974, reviews_aggregation: { stars: { sum: 5 } } }, { n: 2, year: 1994, reviews_aggregation: { stars: { sum: 7 } } }],
      lib_long_titles: [{ id: 2, title: 'The Dispossessed' }],
    });
    const w = await t.gql('mutation { insert_lib_books(data: {id: 4, author_id: 2, title: "The Cyberiad"}) { id author { name } } }');
    expect(w.body).toMatchObject({ data: { insert_lib_books: { id: 4, author: { name: 'Lem' } } } });
  });

  it('types columns from the database: a naive TIMESTAMP is DateTime, DECIMAL(8,2) Float, VARCHAR[] a list', async () => {
    const r = await t.gql('{ __type(name: "lib_authors") { fields { name type { name kind ofType { name } } } } }');
    const types = Object.fromEntries((r.body.data.__type.fields as { name: string; type: { name: string | null; kind: string; ofType: { name: string } | null } }[])
      .map((f) => [f.name, f.type.name ?? `${f.type.kind}:${f.type.ofType?.name}`]));
    expect(types).toMatchObject({ id: 'NON_NULL:Int', name: 'NON_NULL:String', born: 'DateTime', tags: 'LIST:String', price: 'Float' });
    const v = await t.gql('{ lib_authors_by_pk(id: 1) { born tags price } }');
    expect(v.body.data.lib_authors_by_pk).toEqual({ born: '1929-10-21T00:00:00', tags: ['sf'], price: 9.5 });
  });

  it('describe_data_source_schema(self: true) shows the SDL it serves', async () => {
    const r = await t.gql('{ function { core { describe_data_source_schema(name: "lib", self: true) } } }');
    const sdl = r.body.data.function.core.describe_data_source_schema as string;
    expect(sdl).toContain('type books @table(name: "books")');
    expect(sdl).toMatch(/author_id: Int! @field_references\(name: "[^"]+", references_name: "authors", field: "id", query: "author", references_query: "books"\)/);
    expect(sdl).toContain('type long_titles @view(name: "long_titles")');
  });
});

describe('DuckDB column types', () => {
  it('maps each type to a scalar, and what has none to String with a warning', () => {
    expect(mapDuckDbType('TIMESTAMP WITH TIME ZONE')).toEqual({ scalar: 'Timestamp', list: false });
    expect(mapDuckDbType('DECIMAL(18,0)')).toEqual({ scalar: 'BigInt', list: false });
    expect(mapDuckDbType('STRUCT(x INTEGER)')).toEqual({ scalar: 'JSON', list: false });
    expect(mapDuckDbType('INTEGER[]')).toEqual({ scalar: 'Int', list: true });
    expect(mapDuckDbType('BLOB').warning).toMatch(/no svc scalar/);
  });
});
