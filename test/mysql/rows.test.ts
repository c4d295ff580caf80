// MySQL / MariaDB reads compiled to rows (one positional JSON array per row, src/sql/dialects/mysql.ts)
// answer byte for byte as the same reads compiled to one JSON document (SQL_ROWS=false): two servers
// on one database, every golden read request (those MySQL refuses too: the same errors), relations
// at every depth, limits, role filters and denied fields, compared as response text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startApp, type TestApp } from '../support/app.js';
import { shopCatalogs } from '../support/dialects.js';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { type GoldenRequest, goldenReads } from '../support/golden.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const analyst = (id: string) => ({ ...ADMIN, 'x-svc-role': 'analyst', 'x-svc-user-id': id, 'x-svc-user-name': `user${id}` });

const REQUESTS: GoldenRequest[] = [
  ...goldenReads(ADMIN),
  { name: 'nested relations of every depth', query: `{ shop_customers(order_by: [{field: "name", direction: DESC}], limit: 3) { id name email created_at
      orders(nested_order_by: [{field: "id"}]) { id status ordered_at ship_date items(nested_order_by: [{field: "line"}]) { line quantity total product { name category { name parent { name } } } } } } }` },
  { name: 'to-one relations missing and present', query: '{ shop_categories(order_by: [{field: "id"}]) { id name parent { name parent { id } } children(nested_order_by: [{field: "id"}]) { id name parent { name } } } }' },
  { name: 'nested limits, offsets and orders', query: '{ shop_customers(order_by: [{field: "id"}], offset: 1) { id orders(nested_order_by: [{field: "ordered_at", direction: DESC}], nested_limit: 2, nested_offset: 1) { id ordered_at items(nested_limit: 1) { line } } } }' },
  { name: 'by key, absent', query: '{ a: shop_orders_by_pk(id: 1) { id customer { name } items { line } } b: shop_orders_by_pk(id: 999) { id } }' },
  { name: 'aliases, typename, __proto__', query: '{ shop_orders(limit: 2, order_by: [{field: "id"}]) { __typename id x: id __proto__: status c1: customer { n: name __typename } } }' },
  { name: 'an unordered list', query: '{ shop_order_items { line quantity order { id status customer { name } } product { sku } } }' },
  { name: 'empty list', query: '{ shop_orders(filter: {id: {eq: -1}}) { id customer { name } } }' },
  { name: 'a row filter of the role, at the root and nested', query: '{ shop_orders(order_by: [{field: "id"}]) { id customer { name } } shop_customers(order_by: [{field: "id"}]) { id orders { id } } }', headers: analyst('1') },
  { name: 'a denied field at the root and nested', query: '{ shop_customers(order_by: [{field: "id"}], limit: 2) { id name email } shop_order_items(limit: 3, order_by: [{field: "order_id"}, {field: "line"}]) { line order { id customer { email name } } } }', headers: analyst('2') },
];

let db: TestMysqlDatabase;
const apps: { rows?: TestApp; json?: TestApp } = {};
const statements: string[] = [];

async function serve(rows: boolean): Promise<TestApp> {
  const t = await startApp({ SECRET_KEY: 'k', SQL_ROWS: String(rows), CATALOGS_DIR: shopCatalogs('mysql', 'SVC_TEST_ROWS_MYSQL_URL') });
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "analyst", description: "own orders", permissions: [
      {type_name: "shop_customers", field_name: "email", disabled: true},
      {type_name: "data-object:query", field_name: "shop_orders", filter: {customer_id: {eq: "[$auth.user_id_int]"}}}
    ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
  return t;
}

beforeAll(async () => {
  db = await createMysqlDatabase('svc_rows');
  await db.exec(readFileSync(join(FIXTURES, 'mysql/shop.sql'), 'utf8'));
  process.env.SVC_TEST_ROWS_MYSQL_URL = db.url;
  apps.rows = await serve(true);
  apps.json = await serve(false);
  apps.rows.runtime.executor.observe((_source, sql) => statements.push(sql));
}, 120_000);

afterAll(async () => {
  await apps.rows?.close();
  await apps.json?.close();
  await db?.drop();
});

describe('rows and JSON documents answer the same bytes on MySQL', () => {
  for (const r of REQUESTS) {
    it(r.name, async () => {
      // Twice: the second request runs the statement and assembler cached with the plan.
      for (let i = 0; i < 2; i++) {
        const a = await apps.rows!.gql(r.query, r.variables, r.headers);
        const b = await apps.json!.gql(r.query, r.variables, r.headers);
        expect(a.status).toBe(b.status);
        expect(a.text).toBe(b.text);
      }
    });
  }

  it('reads of the common shape run as rows, aggregations as one document', async () => {
    statements.length = 0;
    await apps.rows!.gql('{ shop_orders(limit: 1) { id customer { name } items { line } } shop_orders_aggregation { _rows_count } }', undefined, ADMIN);
    expect(statements.filter((s) => s.startsWith('SELECT JSON_ARRAY("t0"."id", (SELECT JSON_ARRAY('))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('JSON_OBJECT('))).toHaveLength(1);
  });
});
