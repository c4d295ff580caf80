#!/usr/bin/env node
// The four-source query of docs/multi-source.md against the same query within one source:
// 1000 customers, 20000 orders, 500 products and a rate per currency, served (a) all in PostgreSQL
// (`one`: relations of one catalog, the rate from a SQL function over a rates table), and (b) as in
// examples/four-sources: customers in DuckDB, orders in PostgreSQL, products in MySQL, rates from a
// REST service (each request answered at once), related by an extension source. Prints statements
// (and REST requests) per request, from /metrics, and the median time of N runs.
//
//   npm run build && node bench/four-sources.mjs [runs]
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { startRatesService } from '../examples/four-sources/rates-service.mjs';
import { startSvcProcess } from './lib/svc-process.mjs';

const RUNS = Number(process.argv[2] ?? 15);
const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_URL = process.env.SVC_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const EXAMPLE = join(import.meta.dirname, '..', 'examples', 'four-sources');
const dbName = `svc_bench_four_${process.pid}`;

// PostgreSQL: the orders of the cross-source catalog, and every table of the one-source catalog.
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const pgUrl = new URL(PG_URL);
pgUrl.pathname = `/${dbName}`;
const db = new pg.Client({ connectionString: pgUrl.toString() });
await db.connect();
await db.query(`CREATE TABLE customers AS SELECT i AS id, 'customer ' || i AS name, 'GB' AS country, (ARRAY['GBP', 'USD', 'EUR'])[1 + i % 3] AS currency FROM generate_series(1, 1000) i;
ALTER TABLE customers ADD PRIMARY KEY (id);
CREATE TABLE orders AS SELECT i AS id, 1 + (i * 7919) % 1000 AS customer_id, 'SKU-' || (i % 500) AS sku, (i % 97) * 1.5 AS total, CASE WHEN i % 5 = 0 THEN 'pending' ELSE 'paid' END AS status FROM generate_series(1, 20000) i;
ALTER TABLE orders ADD PRIMARY KEY (id);
CREATE INDEX ON orders (customer_id);
CREATE TABLE products AS SELECT 'SKU-' || i AS sku, 'product ' || i AS name, 'north' AS warehouse, i % 7 AS in_stock FROM generate_series(0, 499) i;
ALTER TABLE products ADD PRIMARY KEY (sku);
CREATE TABLE rates (currency text PRIMARY KEY, eur double precision);
INSERT INTO rates VALUES ('EUR', 1), ('GBP', 1.17), ('USD', 0.92);
ANALYZE;`);
await db.end();

// MySQL: the products.
const myUrl = new URL(MYSQL_URL);
const myConn = await mysql.createConnection({ host: myUrl.hostname, port: Number(myUrl.port || 3306), user: decodeURIComponent(myUrl.username), password: decodeURIComponent(myUrl.password), multipleStatements: true });
await myConn.query(`CREATE DATABASE ${dbName} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin; USE ${dbName};
CREATE TABLE products (sku VARCHAR(20) PRIMARY KEY, name VARCHAR(100) NOT NULL, warehouse VARCHAR(20), in_stock INT NOT NULL);
INSERT INTO products WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 499) SELECT CONCAT('SKU-', i), CONCAT('product ', i), 'north', i % 7 FROM n;`);
myUrl.pathname = `/${dbName}`;

const rates = await startRatesService();
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-four-'));
const catalogs = join(dir, 'catalogs');
cpSync(join(EXAMPLE, 'catalogs'), catalogs, { recursive: true });
// The example's customers, larger.
writeFileSync(join(catalogs, 'crm', 'seed.sql'),
  "CREATE TABLE customers AS SELECT CAST(i AS INTEGER) AS id, 'customer ' || i AS name, 'GB' AS country, ['GBP', 'USD', 'EUR'][1 + i % 3] AS currency FROM range(1, 1001) t(i);\n");
// The same objects in one PostgreSQL catalog.
mkdirSync(join(catalogs, 'one'));
writeFileSync(join(catalogs, 'one', 'source.yaml'), `type: postgres\npath: "${pgUrl}"\nprefix: one\n`);
const types = (name) => readFileSync(join(EXAMPLE, 'catalogs', name, 'schema.graphql'), 'utf8');
writeFileSync(join(catalogs, 'one', 'schema.graphql'), `${types('crm').replace('currency: String', 'currency: String\n  eur_rate: Float @function_call(references_name: "rate", args: {currency: "currency"})')}
${types('sales').replace('customer_id: Int!', 'customer_id: Int! @field_references(references_name: "customers", field: "id", query: "customer", references_query: "orders")')
    .replace('sku: String!', 'sku: String! @field_references(references_name: "products", field: "sku", query: "product", references_query: "orders")')}
${types('stock')}
extend type Function {
  rate(currency: String!): Float @function(name: "rate", sql: "(SELECT eur FROM [$catalog].rates WHERE currency = [currency])")
}
`);

const svc = await startSvcProcess({
  dir,
  env: { CATALOGS_DIR: catalogs, FOUR_SOURCES_PG: pgUrl.toString(), FOUR_SOURCES_MYSQL: myUrl.toString(), FOUR_SOURCES_REST: rates.url },
  readyQuery: '{ crm_customers(limit: 1) { id } one_customers(limit: 1) { id } }',
});

const shape = (p, n) => `{ ${p}_customers(limit: ${n}, order_by: [{field: "id"}]) { id name currency eur_rate
  orders(nested_limit: 5, order_by: [{field: "id"}]) { id total status product { name in_stock } }
  orders_aggregation { _rows_count total { sum } } } }`;
try {
  for (const n of [20, 200, 1000]) {
    console.log(`\n${n} customers: eur_rate, orders(nested_limit: 5) { product }, orders_aggregation`);
    for (const [kind, q] of [['within one source', shape('one', n)], ['across four sources', shape('crm', n)]]) {
      if (kind !== 'within one source') {
        const [one, four] = [await svc.query(shape('one', n)), await svc.query(q)];
        if (JSON.stringify(one.data.one_customers) !== JSON.stringify(four.data.crm_customers)) throw new Error('the two answers differ');
      }
      rates.requests.length = 0;
      const { median, perRequest } = await svc.measure(q, RUNS);
      // The warm-up request of measure() is counted by the rates service too.
      console.log(`  ${kind.padEnd(20)} median ${median.toFixed(1)} ms over ${RUNS} runs; statements per request: ${JSON.stringify(perRequest)}; REST requests per request: ${(rates.requests.length / (RUNS + 1)).toFixed(1)}`);
    }
  }
} finally {
  await svc.stop();
  await rates.close();
  await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
  await admin.end();
  await myConn.query(`DROP DATABASE ${dbName}`);
  await myConn.end();
}
