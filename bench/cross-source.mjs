#!/usr/bin/env node
// One query within one source against the same query across two sources (docs/multi-source.md):
// 1000 customers and 20000 orders, served (a) both in PostgreSQL (`one`, a relation of one catalog)
// and (b) customers in DuckDB (`crm`), orders in PostgreSQL (`sales`), related by an extension
// source (`links`). Prints statements per source (from /metrics) and the median time of N runs.
//
//   npm run build && node bench/cross-source.mjs [runs]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './lib/proc.mjs';

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

const port = await freePort();
const out = openSync(join(dir, 'svc.log'), 'w');
const child = spawn('node', ['dist/src/main.js'], {
  detached: true, stdio: ['ignore', out, out],
  env: { ...process.env, BIND: `127.0.0.1:${port}`, LOG_LEVEL: 'warn', CATALOGS_DIR: join(dir, 'catalogs'), CORE_DB_PATH: join(dir, 'core.duckdb'), CACHE_L1_ENABLED: 'false' },
});
const base = `http://127.0.0.1:${port}`;
const query = async (q) => {
  const r = await fetch(`${base}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });
  const body = await r.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body;
};
for (let i = 0; ; i++) {
  try {
    await query('{ __typename }');
    break;
  } catch {
    if (i > 600) throw new Error(`no answer; see ${join(dir, 'svc.log')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const statements = async () => {
  const text = await (await fetch(`${base}/metrics`)).text();
  const m = {};
  for (const [, src, n] of text.matchAll(/^svc_statements_total\{source="([^"]+)"\} (\d+)/gm)) m[src] = Number(n);
  return m;
};

const pairs = [
  ['1:N with nested_limit and per-parent aggregation, 200 parents',
    '{ one_customers(limit: 200, order_by: [{field: "id"}]) { id name orders(nested_limit: 5, order_by: [{field: "id"}]) { id total } orders_aggregation { _rows_count total { sum } } } }',
    '{ crm_customers(limit: 200, order_by: [{field: "id"}]) { id name orders(nested_limit: 5, order_by: [{field: "id"}]) { id total } orders_aggregation { _rows_count total { sum } } } }'],
  ['N:1, 2000 orders',
    '{ one_orders(limit: 2000, order_by: [{field: "id"}]) { id total customer { name } } }',
    '{ sales_orders(limit: 2000, order_by: [{field: "id"}]) { id total customer { name } } }'],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const [label, within, across] of pairs) {
    console.log(`\n${label}`);
    for (const [kind, q] of [['within one source', within], ['across two sources', across]]) {
      await query(q); // warm: plan cache, connections
      const before = await statements();
      const times = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await query(q);
        times.push(performance.now() - t);
      }
      const after = await statements();
      const per = Object.fromEntries(Object.entries(after).map(([s, n]) => [s, (n - (before[s] ?? 0)) / RUNS]).filter(([, n]) => n > 0));
      console.log(`  ${kind.padEnd(20)} median ${median(times).toFixed(1)} ms over ${RUNS} runs; statements per request: ${JSON.stringify(per)}`);
    }
  }
} finally {
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.on('exit', r));
  await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
  await admin.end();
}
