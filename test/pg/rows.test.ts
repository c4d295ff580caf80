// PostgreSQL reads compiled to rows and assembled in Node (src/sql/rows/) answer byte for byte as
// the same reads compiled to one JSON document (SQL_ROWS=false): two servers on one database, every
// golden read request, the wire format of every type with edge values, time zones, role filters,
// denied fields and errors, compared as response text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';
import { shopCatalogs } from '../support/dialects.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';
import { catalogDir, fixtureDatabase, registerSource } from './support.js';
import { type GoldenRequest, goldenReads } from '../support/golden.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const analyst = (id: string) => ({ ...ADMIN, 'x-svc-role': 'analyst', 'x-svc-user-id': id, 'x-svc-user-name': `user${id}` });

/** Values json_build_object prints apart from their text: NaN and infinities, BC and infinite dates, wide integers, a timestamp served as String. */
const ODD_SQL = `
CREATE TABLE odd (id int PRIMARY KEY, n numeric, f float8, r real, big bigint, d date, ts timestamptz, naive timestamp, ts_text timestamptz, naive_text timestamp, d_text date, o oid, bits bit varying, bytes bytea, j json, arr int[]);
INSERT INTO odd VALUES
  (1, 'NaN', 'Infinity', 1.1, 9223372036854775807, 'infinity', 'infinity', '-infinity', '2024-01-02 03:04:05.5+05:30', '2024-01-02 03:04:05', '2024-02-29', 7, B'101', '\\x01ff', '{"a": 12345678901234567890, "b": [1.50, "x"]}', '{1,NULL,3}'),
  (2, '-12345678901234567890.25', '-Infinity', -0.5, -9007199254740993, '0044-03-15 BC', '0044-03-15 01:00:00+00 BC', '2000-01-01 00:00:00', '1999-12-31 23:59:59.999999+00', '1900-06-01 12:00:00.123', 'infinity', 0, B'', '\\x', '[]', '{}'),
  (3, '123456789012345678901234567890', 'NaN', 3.4e38, 9007199254740992, '2024-01-01', '2024-03-10 07:00:00+00', '2024-03-10 02:30:00', '2024-07-01 00:00:00+00', '2024-07-01 00:00:00', '0001-01-01', 4294967295, B'1', '\\xdeadbeef', 'null', NULL),
  (4, '-0.000', '-0', 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
-- Enough rows that PostgreSQL hashes a flattened to-one join with the list on the build side.
CREATE TABLE bigp (id int PRIMARY KEY, name text);
INSERT INTO bigp SELECT g, 'p' || g FROM generate_series(1, 20000) g;
CREATE TABLE kid (id int PRIMARY KEY, parent_id int);
INSERT INTO kid SELECT g, 1 + (g * 7919) % 20000 FROM generate_series(1, 3000) g;
ANALYZE bigp;
ANALYZE kid;
-- The edges of an answer written straight from the rows: integers at and beyond 2^53, a null where
-- the type says non-null, 1:N levels empty or absent, strings that need every escape.
CREATE TABLE edge (id int PRIMARY KEY, wide numeric(38,0), w2 numeric(38,0), i8 bigint, req text, label text);
INSERT INTO edge VALUES
  (1, 123456789012345678901234567890, 9007199254740993, 9007199254740993, 'a', E'quote " back \\ nl \n tab \t ctl \u0001 emoji \U0001F600 sep \u2028 end'),
  (2, -99999999999999999999999999999999999999, 9007199254740992, -9007199254740993, NULL, NULL),
  (3, 0, -9007199254740991, 9007199254740991, 'c', ''),
  (4, NULL, NULL, NULL, 'd', NULL);
CREATE TABLE edge_kid (id int PRIMARY KEY, edge_id int, n numeric(38,0), i8 bigint, note text, doc json, f float8);
INSERT INTO edge_kid VALUES (1, 1, 123456789012345678901234567890, 9007199254740993, 'k1', '{"a": 12345678901234567890, "b": [1.50]}', 1e300),
  (2, 1, -9007199254740993, -1, NULL, '[9007199254740993]', -1.5), (3, 3, 1.0, 0, 'k3', 'null', 12345678901234.5), (4, 2, NULL, NULL, 'k4', NULL, NULL);
-- 1:N levels of values come as arrays (src/sql/rows/compiler.ts): every type as a related row, and
-- strings that array text quotes or escapes (quotes, backslashes, commas, braces, spaces, NULL as
-- text, empty strings, unicode).
CREATE TABLE kgroup (id int PRIMARY KEY);
INSERT INTO kgroup VALUES (1), (2), (3);
CREATE VIEW kinds_kid AS SELECT k.*, 1 + k.id % 2 AS group_id FROM kinds k;
CREATE VIEW odd_kid AS SELECT o.*, 1 + o.id % 2 AS group_id FROM odd o;
CREATE TABLE strs (id int PRIMARY KEY, edge_id int, s text, c char(5), v varchar(20));
INSERT INTO strs VALUES
  (1, 1, '"', '"', '"'), (2, 1, E'\\\\', E'\\\\', E'\\\\'), (3, 1, ',', ',', ','), (4, 1, '{', '{', '}'), (5, 1, '{}', '{a,b}', '{"a":1}'),
  (6, 1, 'NULL', 'null', 'NuLl'), (7, 1, NULL, NULL, NULL), (8, 1, '', '', ''), (9, 1, ' ', ' a', 'a b'), (10, 1, E'\\n\\t\\r', E'x\\ny', E'\\u0001'),
  (11, 1, E'emoji \\U0001F600 \\u2028 é 中', 'é', '中文'), (12, 1, E'a\\\\"b', E'\\\\"', E'"\\\\'), (13, 3, 'NULL ', ' NULL', '  '), (14, 3, 'plain', 'x', 'y');`;
const ODD_SDL = `type odd @table(name: "odd") {
  id: Int! @pk
  n: Float
  f: Float
  r: Float
  big: BigInt
  d: Date
  ts: Timestamp
  naive: DateTime
  ts_text: String
  naive_text: String
  d_text: String
  o: BigInt
  bits: String
  bytes: String
  j: JSON
  arr: [Int]
}
type bigp @table(name: "bigp") {
  id: Int! @pk
  name: String
}
type kid @table(name: "kid") {
  id: Int! @pk
  parent_id: Int @field_references(references_name: "bigp", field: "id", query: "parent", references_query: "kids")
}
type edge @table(name: "edge") {
  id: Int! @pk
  wide: BigInt
  w2: Float
  i8: BigInt
  req: String!
  label: String
}
type edge_kid @table(name: "edge_kid") {
  id: Int! @pk
  edge_id: Int @field_references(references_name: "edge", field: "id", query: "edge", references_query: "kids")
  n: BigInt
  i8: BigInt
  note: String!
  doc: JSON
  f: Float
}
type kgroup @table(name: "kgroup") {
  id: Int! @pk
}
type kinds_kid @view(name: "kinds_kid") {
  id: Int! @pk
  group_id: Int @field_references(references_name: "kgroup", field: "id", query: "group", references_query: "kinds")
  small: Int
  big: BigInt
  amount: Float
  exact: BigInt
  ratio: Float
  dbl: Float
  flag: Boolean
  label: String
  code: String
  uid: String
  mood: String
  tags: [String]
  nums: [Int]
  doc: JSON
  raw: JSON
  ir: IntRange
  br: BigIntRange
  tr: TimestampRange
  span: Interval
  day: Date
  at_time: Time
  ts: Timestamp
  naive: DateTime
  geom: Geometry @geometry_info(type: "Geometry", srid: 4326)
  geog: Geometry
}
type odd_kid @view(name: "odd_kid") {
  id: Int! @pk
  group_id: Int @field_references(references_name: "kgroup", field: "id", query: "group", references_query: "odds")
  n: Float
  f: Float
  r: Float
  big: BigInt
  d: Date
  ts: Timestamp
  naive: DateTime
  ts_text: String
  naive_text: String
  d_text: String
  o: BigInt
  bits: String
  bytes: String
  j: JSON
  arr: [Int]
}
type strs @table(name: "strs") {
  id: Int! @pk
  edge_id: Int @field_references(references_name: "edge", field: "id", query: "edge", references_query: "strs")
  s: String
  c: String
  v: String
}`;

const KINDS = 'id small big amount exact ratio dbl flag label code uid mood tags nums doc raw ir br tr span day at_time ts naive geom geog';
const ODD = 'id n f r big d ts naive ts_text naive_text d_text o bits bytes j arr';
/** The fields of `kinds` whose array types a 1:N level is read from (an enum's and the ranges' are not). */
const ARRAY_KINDS = 'id small big amount exact ratio dbl flag label code uid tags nums doc raw tr span day at_time ts naive geom geog';
/** ...and of `odd`: without the types a 1:N level of values reads as JSON (dates and timestamps as such). */
const ARRAY_ODD = 'id n f r big d ts naive o bits bytes j arr';

const REQUESTS: GoldenRequest[] = [
  ...goldenReads(ADMIN),
  { name: 'nested relations of every depth', query: `{ shop_customers(order_by: [{field: "name", direction: DESC}], limit: 3) { id name email created_at
      orders(nested_order_by: [{field: "id"}]) { id status ordered_at ship_date items(nested_order_by: [{field: "line"}]) { line quantity total product { name category { name parent { name } } } } } } }` },
  { name: 'to-one relations missing and present', query: '{ shop_categories(order_by: [{field: "id"}]) { id name parent { name parent { id } } children(nested_order_by: [{field: "id"}]) { id name parent { name } } } }' },
  { name: 'nested limits, offsets and orders', query: '{ shop_customers(order_by: [{field: "id"}], offset: 1) { id orders(nested_order_by: [{field: "ordered_at", direction: DESC}], nested_limit: 2, nested_offset: 1) { id ordered_at items(nested_limit: 1) { line } } } }' },
  { name: 'order by a to-one path, limited', query: '{ shop_orders(order_by: [{field: "customer.name", direction: DESC}, {field: "id"}], limit: 4) { id customer { name } } }' },
  { name: 'by key, absent', query: '{ a: shop_orders_by_pk(id: 1) { id customer { name } items { line } } b: shop_orders_by_pk(id: 999) { id } }' },
  { name: 'aliases, typename and a repeated relation', query: '{ shop_orders(limit: 2, order_by: [{field: "id"}]) { __typename id x: id c1: customer { n: name __typename } c2: customer { id } } }' },
  { name: 'an alias named __proto__ is an own key, at the root and in a 1:N level', query: '{ shop_orders(limit: 2, order_by: [{field: "id"}]) { id __proto__: status customer { __proto__: name } items(nested_order_by: [{field: "line"}]) { line __proto__: quantity } } }' },
  // No order: rows in the order the JSON path aggregated them (PostgreSQL hashes a flattened to-one join the other way round).
  { name: 'an unordered list with to-one relations', query: '{ shop_order_items { line quantity order { id status customer { name } } product { sku } } }' },
  { name: 'an unordered list of 2000 rows with a to-one relation into a larger table', query: '{ po_kid { id parent { name } } }' },
  { name: 'empty list', query: '{ shop_orders(filter: {id: {eq: -1}}) { id customer { name } } }' },
  { name: 'an error: a field of a filter that does not exist', query: '{ shop_orders(filter: {nope: {eq: 1}}) { id } }' },
  { name: 'every type, every row', query: `{ pt_kinds(order_by: [{field: "id"}]) { ${KINDS} } }` },
  { name: 'every type in a time zone', query: `{ pt_kinds(order_by: [{field: "id"}]) { ${KINDS} } }`, headers: { 'x-svc-timezone': 'America/New_York' } },
  { name: 'every type by key', query: `{ pt_kinds_by_pk(id: 2) { ${KINDS} } }` },
  // Errors here too: Float cannot represent NaN; the rest of the row is compared.
  { name: 'odd values', query: `{ po_odd(order_by: [{field: "id"}]) { ${ODD} } }` },
  { name: 'odd values in a time zone', query: `{ po_odd(filter: {id: {in: [3, 4]}}, order_by: [{field: "id"}]) { ${ODD} } }`, headers: { 'x-svc-timezone': 'Asia/Kolkata' } },
  { name: 'integers at and beyond 2^53 (int8, numeric(38,0)), at the root and in a 1:N level', query: '{ po_edge(order_by: [{field: "id"}]) { id wide i8 label kids(nested_order_by: [{field: "id"}]) { id n i8 } } }' },
  { name: 'a 1:N level of JSON values with big integers (read with the scan), and of floats beyond 2^53', query: '{ po_edge(order_by: [{field: "id"}]) { id kids(nested_order_by: [{field: "id"}]) { id doc } } f: po_edge(order_by: [{field: "id"}]) { id kids(nested_order_by: [{field: "id"}]) { id f } } }' },
  { name: 'a 1:N level empty, by key and absent', query: '{ a: po_edge_by_pk(id: 4) { id kids { id } } b: po_edge_by_pk(id: 9) { id kids { id } } c: po_edge_kid(order_by: [{field: "id"}]) { id edge { id kids(nested_order_by: [{field: "id"}]) { id } } } }' },
  { name: 'a 1:N level of values: every type as arrays', query: `{ po_kgroup(order_by: [{field: "id"}]) { id __typename kinds(nested_order_by: [{field: "id"}]) { __typename ${ARRAY_KINDS} } } }` },
  { name: 'a 1:N level of values: every type as arrays, in a time zone', query: `{ po_kgroup(order_by: [{field: "id"}]) { id kinds(nested_order_by: [{field: "id", direction: DESC}]) { ${ARRAY_KINDS} } } }`, headers: { 'x-svc-timezone': 'America/New_York' } },
  { name: 'a 1:N level of values with an enum (read as JSON)', query: `{ po_kgroup(order_by: [{field: "id"}]) { id kinds(nested_order_by: [{field: "id"}]) { ${KINDS} } } }` },
  { name: 'odd values in a 1:N level of values (errors: Float cannot represent NaN)', query: `{ po_kgroup(order_by: [{field: "id"}]) { id odds(nested_order_by: [{field: "id"}]) { ${ARRAY_ODD} } } }` },
  { name: 'odd values in a 1:N level, every one (read as JSON)', query: `{ po_kgroup(order_by: [{field: "id"}]) { id odds(nested_order_by: [{field: "id"}]) { ${ODD} } } }` },
  { name: 'a 1:N level of strings array text quotes and escapes', query: '{ po_edge(order_by: [{field: "id"}]) { id strs(nested_order_by: [{field: "id"}]) { id s c v __typename } } }' },
  { name: 'a 1:N level of values: limits, offsets, inner, unordered, distinct', query: '{ po_edge(order_by: [{field: "id"}]) { id a: strs(nested_order_by: [{field: "id", direction: DESC}], nested_limit: 2, nested_offset: 1) { id s } b: strs(inner: true) { id } c: strs(limit: 3, order_by: [{field: "id"}]) { id v } d: strs(distinct_on: ["edge_id"], nested_order_by: [{field: "edge_id"}, {field: "id", direction: DESC}]) { id edge_id } } }' },
  { name: 'a 1:N level of values in a to-one relation and by key', query: '{ po_strs(order_by: [{field: "id"}], limit: 3) { id edge { id strs(nested_order_by: [{field: "id"}]) { id s } } } b: po_edge_by_pk(id: 3) { id strs(nested_order_by: [{field: "id"}]) { id s } } }' },
  { name: 'an error: a numeric beyond 2^53 served as Float', query: '{ po_edge(order_by: [{field: "id"}]) { id w2 } }' },
  { name: 'an error: a null in a non-null column at the root', query: '{ po_edge(order_by: [{field: "id"}]) { id req } }' },
  { name: 'an error: a null in a non-null column by key', query: '{ po_edge_by_pk(id: 2) { id req } }' },
  { name: 'an error: a null in a non-null column of a 1:N level', query: '{ po_edge(order_by: [{field: "id"}]) { id kids(nested_order_by: [{field: "id"}]) { id note } } }' },
  { name: 'an error: a null in a non-null column of a to-one relation', query: '{ po_edge_kid(order_by: [{field: "id"}]) { id edge { id req } } }' },
  { name: 'a row filter of the role, at the root and nested', query: '{ shop_orders(order_by: [{field: "id"}]) { id customer { name } } shop_customers(order_by: [{field: "id"}]) { id orders { id } } }', headers: analyst('1') },
  { name: 'a denied field at the root and nested', query: '{ shop_customers(order_by: [{field: "id"}], limit: 2) { id name email } shop_order_items(limit: 3, order_by: [{field: "order_id"}, {field: "line"}]) { line order { id customer { email name } } } }', headers: analyst('2') },
  { name: 'a field filter of the role', query: '{ shop_products(order_by: [{field: "id"}]) { id in_stock category { name } } }', headers: analyst('1') },
];

let shop: TestDatabase;
let types: TestDatabase;
const apps: { rows?: TestApp; json?: TestApp } = {};
const rowStatements: string[] = [];

async function serve(rows: boolean): Promise<TestApp> {
  const t = await startApp({ SECRET_KEY: 'k', SQL_ROWS: String(rows), CATALOGS_DIR: shopCatalogs('postgres', 'SVC_TEST_ROWS_SHOP_URL') });
  expect(await registerSource(t, { name: 'pgtypes', path: types.url, catalog: join(FIXTURES, 'pg/types'), prefix: 'pt' })).toMatchObject({ success: true });
  expect(await registerSource(t, { name: 'pgodd', path: types.url, catalog: catalogDir(ODD_SDL), prefix: 'po' })).toMatchObject({ success: true });
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "analyst", description: "own orders", permissions: [
      {type_name: "shop_customers", field_name: "email", disabled: true},
      {type_name: "data-object:query", field_name: "shop_orders", filter: {customer_id: {eq: "[$auth.user_id_int]"}}},
      {type_name: "Query", field_name: "shop_products", filter: {in_stock: {eq: true}}}
    ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
  return t;
}

beforeAll(async () => {
  shop = await createTestDatabase('svc_rows');
  await shop.exec(readFileSync(join(FIXTURES, 'pg/shop.sql'), 'utf8'));
  types = await fixtureDatabase('types.sql', 'svc_rows_types');
  await types.exec(ODD_SQL);
  process.env.SVC_TEST_ROWS_SHOP_URL = shop.url;
  apps.rows = await serve(true);
  apps.json = await serve(false);
  apps.rows.runtime.executor.observe((_source, sql) => rowStatements.push(sql));
}, 120_000);

afterAll(async () => {
  await apps.rows?.close();
  await apps.json?.close();
  await shop?.drop();
  await types?.drop();
});

describe('rows and JSON documents answer the same bytes', () => {
  for (const r of REQUESTS) {
    it(r.name, async () => {
      rowStatements.length = 0;
      // Twice: the second request runs the statement and assembler cached with the plan.
      for (let i = 0; i < 2; i++) {
        const a = await apps.rows!.gql(r.query, r.variables, r.headers);
        const b = await apps.json!.gql(r.query, r.variables, r.headers);
        expect(a.status).toBe(b.status);
        // An internal error carries its request's id; everything else is compared byte for byte.
        const id = (text: string) => text.replace(/"request_id":"[^"]*"/g, '"request_id":"-"');
        expect(id(a.text)).toBe(id(b.text));
        // Answers, not only errors, are compared (the one error case and the denied fields aside).
        if (!/^an error|denied|^odd values/.test(r.name)) expect(a.body.errors, a.text).toBeUndefined();
      }
    });
  }

  it('1:N levels of values run as typed arrays; a type not read that way is answered from the JSON form', async () => {
    const q = (query: string) => apps.rows!.gql(query, undefined, ADMIN);
    rowStatements.length = 0;
    await q('{ po_edge { id strs(nested_order_by: [{field: "id"}]) { id s } } }');
    expect(rowStatements).toHaveLength(1);
    expect(rowStatements[0]).toContain('array_agg(');
    rowStatements.length = 0;
    // `mood` is an enum: its array type is not read as arrays, so the same parameters run the JSON form.
    const enumLevel = '{ po_kgroup(order_by: [{field: "id"}]) { id kinds(nested_order_by: [{field: "id"}]) { id mood } } }';
    const first = await q(enumLevel);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.po_kgroup[0].kinds[0]).toEqual({ id: 2, mood: 'sad' });
    expect(rowStatements).toHaveLength(1);
    expect(rowStatements[0]).toContain('array_agg(');
    // The second time the source runs the JSON form at once (the executor still names the statement it was given).
    expect((await q(enumLevel)).text).toBe(first.text);
  });

  it('reads of the common shape run as rows statements, the others as JSON', async () => {
    rowStatements.length = 0;
    const q = (t: TestApp, query: string) => t.gql(query, undefined, ADMIN);
    await q(apps.rows!, '{ shop_orders(limit: 1) { id customer { name } items { line } } shop_orders_aggregation { _rows_count } }');
    expect(rowStatements.filter((s) => s.startsWith('SELECT "t0"."id" AS c0'))).toHaveLength(1);
    expect(rowStatements.filter((s) => s.includes('json_build_object('))).toHaveLength(1);
    rowStatements.length = 0;
    apps.json!.runtime.executor.observe((_source, sql) => rowStatements.push(sql));
    await q(apps.json!, '{ shop_orders(limit: 1) { id } }');
    expect(rowStatements.every((s) => s.includes('json_agg('))).toBe(true);
  });
});
