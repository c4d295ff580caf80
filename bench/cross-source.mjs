#!/usr/bin/env node
// One query within one source against the same query across two sources (docs/multi-source.md):
// 1000 customers and 20000 orders, served (a) both in PostgreSQL (`one`, a relation of one catalog)
// and (b) customers in DuckDB (`crm`), orders in PostgreSQL (`sales`), related by an extension
// source (`links`). Prints statements per source (from /metrics) and the median time of N runs.
//
//   npm run build && node bench/cross-source.mjs [runs]
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startSvcProcess } from './lib/svc-process.mjs';

const RUNS = Number(process.argv[2] ?? 15);
const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `svc_bench_cross_${process.pid}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(PG_URL);
url.pathname = `/${dbName}`;
const db = new pg.Client({ connectionString: url.toString() });
await db.connect();
await db.query(`CREATE TABLE customers AS SELECT i AS id, 'customer ' || i AS name FROM generate_series(1, 1000) i;
ALTER TABLE customers ADD PRIMARY KEY (id);
CREATE TABLE orders AS SELECT i AS id, 1 + (i * 7919) % 1000 AS customer_id, (i % 97) * 1.5 AS total FROM generate_series(1, 20000) i;
ALTER TABLE orders ADD PRIMARY KEY (id);
CREATE INDEX ON orders (customer_id);
ANALYZE;`);
await db.end();

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-cross-'));
const source = (name, yaml, schema, seed) => {
  mkdirSync(join(dir, 'catalogs', name), { recursive: true });
  writeFileSync(join(dir, 'catalogs', name, 'source.yaml'), yaml);
  writeFileSync(join(dir, 'catalogs', name, 'schema.graphql'), schema);
  if (seed) writeFileSync(join(dir, 'catalogs', name, 'seed.sql'), seed);
};
const customers = 'type customers @table(name: "customers") {\n  id: Int! @pk\n  name: String\n}\n';
const orders = (refs) => `type orders @table(name: "orders") {\n  id: Int! @pk\n  customer_id: Int${refs}\n  total: Float\n}\n`;
source('one', `type: postgres\npath: "${url}"\nprefix: one\n`, `${customers}\n${orders(' @field_references(references_name: "customers", field: "id", query: "customer", references_query: "orders")')}`);
source('crm', 'type: duckdb\npath: ":memory:"\nprefix: crm\nseed: seed.sql\n', customers,
  "CREATE TABLE customers AS SELECT CAST(i AS INTEGER) AS id, 'customer ' || i AS name FROM range(1, 1001) t(i);\n");
source('sales', `type: postgres\npath: "${url}"\nprefix: sales\n`, orders(''));
source('links', 'type: extension\n', 'extend type sales_orders @references(references_name: "crm_customers", source_fields: ["customer_id"], references_fields: ["id"], query: "customer", references_query: "orders")\n');

const svc = await startSvcProcess({ dir, env: { CATALOGS_DIR: join(dir, 'catalogs') } });

const pairs = [
  ['1:N with nested_limit and per-parent aggregation, 200 parents',
    '{ one_customers(limit: 200, order_by: [{field: "id"}]) { id name orders(nested_limit: 5, order_by: [{field: "id"}]) { id total } orders_aggregation { _rows_count total { sum } } } }',
    '{ crm_customers(limit: 200, order_by: [{field: "id"}]) { id name orders(nested_limit: 5, order_by: [{field: "id"}]) { id total } orders_aggregation { _rows_count total { sum } } } }'],
  ['N:1, 2000 orders',
    '{ one_orders(limit: 2000, order_by: [{field: "id"}]) { id total customer { name } } }',
    '{ sales_orders(limit: 2000, order_by: [{field: "id"}]) { id total customer { name } } }'],
];
try {
  for (const [label, within, across] of pairs) {
    console.log(`\n${label}`);
    for (const [kind, q] of [['within one source', within], ['across two sources', across]]) {
      const { median, perRequest } = await svc.measure(q, RUNS);
      console.log(`  ${kind.padEnd(20)} median ${median.toFixed(1)} ms over ${RUNS} runs; statements per request: ${JSON.stringify(perRequest)}`);
    }
  }
} finally {
  await svc.stop();
  await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
  await admin.end();
}
