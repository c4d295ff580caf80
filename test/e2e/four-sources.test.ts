// Issue 19 "done when": the example catalog of examples/four-sources (docs/multi-source.md) spans
// DuckDB customers, PostgreSQL orders, MySQL products and a REST rates service, related by an
// extension source, and answers one GraphQL query across all four: one statement per source per
// relation level, one request per distinct currency, and a restricted role's row filters holding
// inside the cross-source relations.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the example's service is plain JavaScript, run as it is by `node`
import { startRatesService } from '../../examples/four-sources/rates-service.mjs';
import { startApp, type TestApp } from '../support/app.js';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { createTestDatabase, type TestDatabase } from '../support/pg.js';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'four-sources');
const ADMIN = { 'x-svc-secret-key': 'walk' };

const QUERY = `{ crm_customers(order_by: [{field: "id"}]) {
  id name currency eur_rate
  orders(order_by: [{field: "id"}]) { id total status product { name in_stock } }
  orders_aggregation { _rows_count total { sum } }
} }`;

let pg: TestDatabase;
let my: TestMysqlDatabase;
let rates: { url: string; requests: string[]; close(): Promise<void> };
let app: TestApp;
const statements: string[] = [];

beforeAll(async () => {
  pg = await createTestDatabase('svc_four');
  await pg.exec(readFileSync(join(EXAMPLE, 'setup-postgres.sql'), 'utf8'));
  my = await createMysqlDatabase('svc_four');
  await my.exec(readFileSync(join(EXAMPLE, 'setup-mysql.sql'), 'utf8'));
  rates = await startRatesService();
  process.env.FOUR_SOURCES_PG = pg.url;
  process.env.FOUR_SOURCES_MYSQL = my.url;
  process.env.FOUR_SOURCES_REST = rates.url;
  app = await startApp({ CATALOGS_DIR: join(EXAMPLE, 'catalogs'), SECRET_KEY: 'walk', LOG_LEVEL: 'silent' });
  app.runtime.executor.observe((source) => statements.push(source));
  const r = await app.gql(`mutation { core { insert_roles(data: {name: "paid_only", description: "paid orders, products in stock", permissions: [
    {type_name: "data-object:query", field_name: "sales_orders", filter: {status: {eq: "paid"}}},
    {type_name: "data-object:query", field_name: "stock_products", filter: {in_stock: {gt: 0}}}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors, r.text).toBeUndefined();
}, 90_000);

afterAll(async () => {
  await app?.close();
  await rates?.close();
  await pg?.drop();
  await my?.drop();
});

async function ask(headers: Record<string, string>) {
  statements.length = 0;
  rates.requests.length = 0;
  const r = await app.gql(QUERY, undefined, headers);
  expect(r.body.errors, r.text).toBeUndefined();
  const perSource: Record<string, number> = {};
  for (const s of statements) perSource[s] = (perSource[s] ?? 0) + 1;
  return { data: r.body.data.crm_customers, perSource, requests: [...rates.requests].sort() };
}

describe('one query across DuckDB, PostgreSQL, MySQL and a REST service', () => {
  it('answers with one statement per source per level and one request per distinct currency', async () => {
    const r = await ask(ADMIN);
    expect(r.data).toEqual([
      { id: 1, name: 'Ada', currency: 'GBP', eur_rate: 1.17, orders: [
        { id: 10, total: 50, status: 'paid', product: { name: 'SQL book', in_stock: 12 } },
        { id: 11, total: 150, status: 'paid', product: { name: 'Keyboard', in_stock: 3 } },
      ], orders_aggregation: { _rows_count: 2, total: { sum: 200 } } },
      { id: 2, name: 'Alan', currency: 'GBP', eur_rate: 1.17, orders: [
        { id: 12, total: 300, status: 'pending', product: { name: 'SQL book', in_stock: 12 } },
      ], orders_aggregation: { _rows_count: 1, total: { sum: 300 } } },
      { id: 3, name: 'Grace', currency: 'USD', eur_rate: 0.92, orders: [
        { id: 13, total: 20, status: 'paid', product: { name: 'Keyboard', in_stock: 3 } },
      ], orders_aggregation: { _rows_count: 1, total: { sum: 20 } } },
      { id: 4, name: 'Edsger', currency: 'EUR', eur_rate: 1, orders: [
        { id: 14, total: 80, status: 'paid', product: { name: 'Graph book', in_stock: 0 } },
      ], orders_aggregation: { _rows_count: 1, total: { sum: 80 } } },
    ]);
    // customers (DuckDB); orders and orders_aggregation (PostgreSQL, one each over all customers);
    // products (MySQL, one over all orders); rates (REST, GBP twice but asked once).
    expect(r.perSource).toEqual({ crm: 1, sales: 2, stock: 1, fx: 3 });
    expect(r.requests).toEqual(['GET /rates/EUR', 'GET /rates/GBP', 'GET /rates/USD']);
  });

  it("a restricted role's row filters hold inside the relations into PostgreSQL and MySQL", async () => {
    const r = await ask({ ...ADMIN, 'x-svc-role': 'paid_only' });
    expect(r.data.map((c: { name: string; orders: unknown; orders_aggregation: unknown }) => [c.name, c.orders, c.orders_aggregation])).toEqual([
      ['Ada', [
        { id: 10, total: 50, status: 'paid', product: { name: 'SQL book', in_stock: 12 } },
        { id: 11, total: 150, status: 'paid', product: { name: 'Keyboard', in_stock: 3 } },
      ], { _rows_count: 2, total: { sum: 200 } }],
      // Alan's only order is pending: not visible, not counted.
      ['Alan', null, null],
      ['Grace', [{ id: 13, total: 20, status: 'paid', product: { name: 'Keyboard', in_stock: 3 } }], { _rows_count: 1, total: { sum: 20 } }],
      // The Graph book is out of stock: the role does not see that product.
      ['Edsger', [{ id: 14, total: 80, status: 'paid', product: null }], { _rows_count: 1, total: { sum: 80 } }],
    ]);
    expect(r.perSource).toEqual({ crm: 1, sales: 2, stock: 1, fx: 3 });
  });
});
