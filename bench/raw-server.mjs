// The raw-SQL baseline: a minimal node:http endpoint that runs one prepared statement per route and
// returns the JSON document the database built, as `{"data": ...}`. Run as its own process so its
// CPU can be measured apart from the load generator.
//
//   RAW_ENGINE=duckdb   RAW_DUCKDB_PATH=bench/.data/tpch-0.1.duckdb   node bench/raw-server.mjs
//   RAW_ENGINE=postgres RAW_PG_URL=postgres://.../svc_bench_tpch      node bench/raw-server.mjs
// GET /health, GET /<case id> (Q0, Q1, Q2, Q3, Q3-nodistinct). Prints `listening <port>` when ready.
import { createServer } from 'node:http';
import { rawStatements } from './lib/workloads.mjs';

const engine = process.env.RAW_ENGINE;
const statements = rawStatements(engine);
const POOL = Number(process.env.RAW_POOL || (engine === 'duckdb' ? 4 : 10));

async function duckdbRunner() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(process.env.RAW_DUCKDB_PATH, { access_mode: 'READ_ONLY' });
  // A small pool of connections, each with every statement prepared once (as svc does, DuckDB's
  // default is one pool of 4 connections).
  const idle = [];
  for (let i = 0; i < POOL; i++) {
    const conn = await instance.connect();
    const prepared = {};
    for (const [id, sql] of Object.entries(statements)) prepared[id] = await conn.prepare(sql);
    idle.push(prepared);
  }
  const waiting = [];
  const acquire = () => (idle.length ? Promise.resolve(idle.pop()) : new Promise((r) => waiting.push(r)));
  const release = (c) => (waiting.length ? waiting.shift()(c) : idle.push(c));
  return async (id) => {
    const c = await acquire();
    try {
      const reader = await c[id].runAndReadAll();
      const v = reader.getRows()[0]?.[0];
      return v === null || v === undefined ? 'null' : String(v);
    } finally {
      release(c);
    }
  };
}

async function postgresRunner() {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: process.env.RAW_PG_URL, max: POOL });
  const text = (v) => v; // keep the JSON text as the database wrote it
  return async (id) => {
    const r = await pool.query({ name: id, text: statements[id], rowMode: 'array', types: { getTypeParser: () => text } });
    const v = r.rows[0]?.[0];
    return v === null || v === undefined ? 'null' : v;
  };
}

const run = engine === 'duckdb' ? await duckdbRunner() : engine === 'postgres' ? await postgresRunner() : null;
if (!run) {
  console.error(`RAW_ENGINE must be duckdb or postgres, not "${engine}"`);
  process.exit(2);
}

const server = createServer((req, res) => {
  const id = decodeURIComponent((req.url || '/').slice(1).split('?')[0]);
  if (id === 'health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (!Object.hasOwn(statements, id)) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown case"}');
    return;
  }
  req.resume();
  run(id).then(
    (json) => {
      const body = `{"data":${json}}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    },
    (e) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(e?.message ?? e) }));
    },
  );
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.RAW_PORT || 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
