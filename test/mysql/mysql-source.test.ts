// MySQL / MariaDB sources (issue 19 item 5) beyond the golden suite: self_defined introspection,
// values that look like SQL stay values, the statement time limit, and failed writes leave nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { catalogDir, data } from '../pg/support.js';

const SCHEMA = `
CREATE TABLE authors (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL, active TINYINT(1), born DATE, meta JSON);
CREATE TABLE books (id BIGINT PRIMARY KEY, author_id INT NOT NULL, title VARCHAR(200) NOT NULL, price DECIMAL(10,2), added DATETIME(3),
  FOREIGN KEY (author_id) REFERENCES authors (id));
INSERT INTO authors VALUES (1, 'Ursula', 1, '1929-10-21', '{"genre": "sf"}'), (2, 'Italo', 0, '1923-10-15', NULL);
INSERT INTO books VALUES (10, 1, 'The Dispossessed', 9.50, '2024-01-02 03:04:05.678'), (11, 1, 'Lathe of Heaven', 7.00, NULL), (12, 2, 'Invisible Cities', 8.25, NULL);
CREATE TABLE flags (id INT PRIMARY KEY, bits BIT(8), on_off BIT(1), yr YEAR, big INT UNSIGNED, huge BIGINT UNSIGNED);
INSERT INTO flags VALUES (1, b'10100101', b'1', 0, 4294967295, 18446744073709551615), (2, b'0', b'0', 2155, 0, 9007199254740993), (3, NULL, NULL, NULL, NULL, NULL);
`;

const CATALOG = `
type authors @table(name: "authors") {
  id: Int! @pk
  name: String!
}
type flags @table(name: "flags") {
  id: Int! @pk
  bits: Int
  on_off: String
  yr: Int
}
extend type Function {
  slow(seconds: Float!): Float @function(name: "slow", sql: "SELECT SLEEP([seconds])")
}
`;

let db: TestMysqlDatabase;
let app: TestApp;

async function register(name: string, self: boolean, catalog: string): Promise<{ success: boolean; message: string }> {
  await data(app, `mutation($name: String!, $path: String!, $catalog: String!, $self: Boolean) { core { insert_data_sources(data: {
      name: $name, type: "mysql", prefix: $name, as_module: false, path: $path, self_defined: $self,
      catalogs: [{name: $name, type: "localFS", path: $catalog}]}) { name } } }`, { name, path: '[$SVC_TEST_MYSQL_SOURCE]', catalog, self });
  const load = await data(app, 'mutation($name: String!) { function { core { load_data_source(name: $name) { success message } } } }', { name });
  return load.function.core.load_data_source;
}

beforeAll(async () => {
  db = await createMysqlDatabase('svc_my');
  await db.exec(SCHEMA);
  process.env.SVC_TEST_MYSQL_SOURCE = db.url;
  app = await startApp({ QUERY_TIMEOUT: '2s', SECRET_KEY: 'k' });
  expect(await register('lib', true, catalogDir('# self-defined\n'))).toMatchObject({ success: true });
  expect(await register('plain', false, catalogDir(CATALOG))).toMatchObject({ success: true });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

describe('self_defined', () => {
  it('derives types, keys and relations from information_schema', async () => {
    const r = await data(app, '{ function { core { describe_data_source_schema(name: "lib", self: true) } } }');
    const sdl: string = r.function.core.describe_data_source_schema;
    expect(sdl).toContain('type authors @table(name: "authors")');
    expect(sdl).toMatch(/id: Int! @pk/);
    expect(sdl).toMatch(/active: Boolean/);
    expect(sdl, sdl).toMatch(/meta: JSON/);
    expect(sdl).toMatch(/id: BigInt! @pk/);
    expect(sdl).toMatch(/price: Float/);
    expect(sdl).toMatch(/added: DateTime/);
    expect(sdl).toMatch(/author_id: Int! @field_references\(.*references_name: "authors".*query: "author".*references_query: "books"/);
  });

  it('serves the derived catalog with relations in both directions, one statement per root field', async () => {
    let statements = 0;
    const stop = app.runtime.executor.observe((source) => {
      if (source === 'lib') statements++;
    });
    const r = await data(app, `{
      lib_authors(order_by: [{field: "id"}]) { id name active born meta books(order_by: [{field: "id"}]) { id title price added } books_aggregation { _rows_count price { sum } } }
      lib_books_by_pk(id: 12) { title author { name } }
    }`);
    stop();
    expect(statements).toBe(2);
    expect(r.lib_authors).toEqual([
      { id: 1, name: 'Ursula', active: true, born: '1929-10-21', meta: { genre: 'sf' }, books: [{ id: 10, title: 'The Dispossessed', price: 9.5, added: '2024-01-02T03:04:05.678000' }, { id: 11, title: 'Lathe of Heaven', price: 7, added: null }], books_aggregation: { _rows_count: 2, price: { sum: 16.5 } } },
      { id: 2, name: 'Italo', active: false, born: '1923-10-15', meta: null, books: [{ id: 12, title: 'Invisible Cities', price: 8.25, added: null }], books_aggregation: { _rows_count: 1, price: { sum: 8.25 } } },
    ]);
    expect(r.lib_books_by_pk).toEqual({ title: 'Invisible Cities', author: { name: 'Italo' } });
  });
});

describe('BIT, YEAR and unsigned columns (issue 31)', () => {
  it('serves BIT(n) as its binary digits, YEAR as a number and unsigned integers exactly', async () => {
    const sdl: string = (await data(app, '{ function { core { describe_data_source_schema(name: "lib", self: true) } } }')).function.core.describe_data_source_schema;
    expect(sdl).toMatch(/bits: String\n/);
    expect(sdl).toMatch(/yr: Int\n/);
    expect(sdl).toMatch(/big: BigInt\n/);
    expect(sdl).toMatch(/huge: BigInt\n/);
    const r = await app.gql('{ lib_flags(order_by: [{field: "id"}]) { id bits on_off yr big huge } }');
    // Byte for byte: the unsigned integers past 2^53 stay exact.
    expect(r.text).toContain('{"data":{"lib_flags":[{"id":1,"bits":"10100101","on_off":"1","yr":0,"big":4294967295,"huge":18446744073709551615},{"id":2,"bits":"00000000","on_off":"0","yr":2155,"big":0,"huge":9007199254740993},{"id":3,"bits":null,"on_off":null,"yr":null,"big":null,"huge":null}]}');
  });

  it('reads a BIT declared as a number as its unsigned value, filters and orders it', async () => {
    const r = await data(app, '{ plain_flags(filter: {bits: {gt: 100}}) { id bits on_off yr } all: plain_flags(order_by: [{field: "bits", direction: DESC}]) { id bits } }');
    expect(r.plain_flags).toEqual([{ id: 1, bits: 165, on_off: '1', yr: 0 }]);
    expect(r.all).toEqual([{ id: 1, bits: 165 }, { id: 2, bits: 0 }, { id: 3, bits: null }]);
  });

  it('writes BIT digits as they are read, refuses anything else and writes nothing', async () => {
    const w = await data(app, 'mutation { insert_lib_flags(data: {id: 4, bits: "1111", on_off: "1", yr: 1999}) { id bits on_off yr } }');
    expect(w.insert_lib_flags).toEqual({ id: 4, bits: '00001111', on_off: '1', yr: 1999 });
    expect((await data(app, '{ plain_flags_by_pk(id: 4) { bits } }')).plain_flags_by_pk).toEqual({ bits: 15 });
    const bad = await app.gql('mutation { insert_lib_flags(data: {id: 5, bits: "102"}) { id } }');
    expect(bad.body.errors?.[0]).toMatchObject({ message: 'a value of a BIT(8) column is written as up to 8 binary digits ("0101")', extensions: { code: 'BAD_USER_INPUT' } });
    const long = await app.gql('mutation { update_lib_flags(filter: {id: {eq: 4}}, data: {bits: "111111111"}) { affected_rows } }');
    expect(long.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await data(app, '{ lib_flags(filter: {id: {in: [4, 5]}}) { id bits } }')).lib_flags).toEqual([{ id: 4, bits: '00001111' }]);
    await data(app, 'mutation { delete_lib_flags(filter: {id: {eq: 4}}) { affected_rows } }');
  });
});

describe('values are parameters', () => {
  it('keeps quotes, placeholders and statements in values as text', async () => {
    const hostile = ["x' OR '1'='1", '$1', "'); DROP TABLE authors; --", '?', '\\'];
    for (const name of hostile) {
      const r = await data(app, 'query($n: String!) { lib_authors(filter: {name: {eq: $n}}) { id } }', { n: name });
      expect(r.lib_authors).toEqual([]);
    }
    const r = await data(app, '{ lib_authors_aggregation { _rows_count } }');
    expect(r.lib_authors_aggregation._rows_count).toBe(2);
  });

  it('writes a hostile value and reads it back unchanged', async () => {
    const name = "O'Brien $1 ? \\ \"quoted\"; DROP TABLE books";
    await data(app, 'mutation($d: lib_authors_mut_input_data!) { insert_lib_authors(data: $d) { id name } }', { d: { id: 50, name } });
    const r = await data(app, 'query($n: String!) { lib_authors(filter: {name: {eq: $n}}) { id name } }', { n: name });
    expect(r.lib_authors).toEqual([{ id: 50, name }]);
    await data(app, 'mutation { delete_lib_authors(filter: {id: {eq: 50}}) { affected_rows } }');
  });
});

describe('writes', () => {
  it('rolls back every write of a request when one fails', async () => {
    const r = await app.gql(`mutation {
      a: insert_lib_authors(data: {id: 60, name: "kept?"}) { id }
      b: insert_lib_books(data: {id: 61, author_id: 999, title: "no such author"}) { id }
    }`);
    expect(r.body.data).toBeNull();
    expect(r.body.errors[0].message).toMatch(/lib: foreign key constraint violated/);
    const left = await data(app, '{ lib_authors(filter: {id: {eq: 60}}) { id } }');
    expect(left.lib_authors).toEqual([]);
  });

  it('counts the rows an update matched', async () => {
    const r = await data(app, 'mutation { update_lib_books(filter: {author_id: {eq: 1}}, data: {price: 7.0}) { affected_rows } }');
    expect(Number(r.update_lib_books.affected_rows)).toBe(2);
  });
});

describe('permissions', () => {
  it('narrows MySQL statements with the row filter of a role, in root lists, relations and aggregations', async () => {
    await data(app, `mutation { core { insert_roles(data: {name: "my_reader", description: "reads cheap books", permissions: [
      {type_name: "data-object:query", field_name: "lib_books", filter: {title: {like: "%Cities%"}}}
    ]}) { name } } }`);
    const headers = { 'x-svc-secret-key': 'k', 'x-svc-role': 'my_reader' };
    const r = await app.gql('{ lib_books(order_by: [{field: "id"}]) { id } lib_authors(order_by: [{field: "id"}]) { id books { id } books_aggregation { _rows_count } } }', undefined, headers);
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.lib_books).toEqual([{ id: 12 }]);
    expect(r.body.data.lib_authors).toEqual([
      { id: 1, books: null, books_aggregation: null },
      { id: 2, books: [{ id: 12 }], books_aggregation: { _rows_count: 1 } },
    ]);
  });
});

describe('in lists (issue 31)', () => {
  it('binds a list of any length as one JSON parameter: one statement text, values of every type exact', async () => {
    const seen: { sql: string; params: readonly unknown[] }[] = [];
    const stop = app.runtime.executor.observe((source, sql, params) => source === 'lib' && seen.push({ sql, params }));
    try {
      const q = '{ lib_books(filter: {id: {in: $ids}, title: {in: $titles}}, order_by: [{field: "id"}]) { id } }';
      const ask = (ids: unknown[], titles: string[]) => data(app, `query($ids: [BigInt!], $titles: [String!]) ${q}`, { ids, titles });
      expect((await ask([10, 12], ['The Dispossessed', 'Invisible Cities'])).lib_books).toEqual([{ id: 10 }, { id: 12 }]);
      const many = Array.from({ length: 5000 }, (_, i) => 100_000 + i);
      expect((await ask([...many, 11], ['Lathe of Heaven'])).lib_books).toEqual([{ id: 11 }]);
      expect((await ask(['9007199254740993'], ['x'])).lib_books).toEqual([]);
      const dates = await data(app, 'query($d: [Date!]) { lib_authors(filter: {born: {in: $d}}) { id } }', { d: ['1923-10-15', '2000-01-01'] });
      expect(dates.lib_authors).toEqual([{ id: 2 }]);
    } finally {
      stop();
    }
    // Before: one placeholder per value, a statement text (and a prepared statement) per list length.
    expect(new Set(seen.slice(0, 3).map((s) => s.sql)).size).toBe(1);
    expect(seen[1]!.params.length).toBe(2);
  });
});

describe('the check after a write (issue 31)', () => {
  it('refuses an update of MySQL rows into a state the role cannot read, writing nothing', async () => {
    await data(app, `mutation { core { insert_roles(data: {name: "my_writer", permissions: [
      {type_name: "data-object:query", field_name: "lib_books", filter: {title: {like: "%Cities%"}}}
    ]}) { name } } }`);
    const headers = { 'x-svc-secret-key': 'k', 'x-svc-role': 'my_writer' };
    const r = await app.gql('mutation { a: update_lib_books(filter: {id: {eq: 12}}, data: {price: 1.5}) { affected_rows } b: update_lib_books(filter: {id: {eq: 12}}, data: {title: "Hidden"}) { affected_rows } }', undefined, headers);
    expect(r.body.data, r.text).toBeNull();
    expect(r.body.errors[0].message).toBe('forbidden: role "my_writer" may not update rows of "lib_books" into a state its own read rule would hide; nothing was written');
    const book = await data(app, '{ lib_books_by_pk(id: 12) { title price } }');
    expect(book.lib_books_by_pk).toEqual({ title: 'Invisible Cities', price: 8.25 });
    const ok = await app.gql('mutation { update_lib_books(filter: {id: {eq: 12}}, data: {title: "Invisible Cities (2nd ed.)"}) { affected_rows } }', undefined, headers);
    expect(ok.body.errors, ok.text).toBeUndefined();
  });
});

describe('limits', () => {
  it('reads the rows after an offset when limit is null (MySQL needs a LIMIT before OFFSET)', async () => {
    const r = await data(app, '{ lib_books(limit: null, offset: 1, order_by: [{field: "id"}]) { id } }');
    expect(r.lib_books).toEqual([{ id: 11 }, { id: 12 }]);
  });

  it('cancels a statement over QUERY_TIMEOUT with a clear error', async () => {
    const r = await app.gql('{ function { plain_slow(seconds: 6) } }');
    expect(r.body.errors?.[0]?.message).toMatch(/plain: the statement was cancelled after the time limit of 2s/);
  });
});
