// Benchmark data: the TPC-H-shaped PostgreSQL database (loaded once per scale factor by the shared
// generator) and a DuckDB file holding the same rows, built through CSV.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { DuckDBInstance } from '@duckdb/node-api';

export const BENCH_DB = 'svc_bench_tpch';
const MARKER = 'svc_bench_marker';

/** Column types of the generator's tables, in column order (PostgreSQL type → DuckDB type). */
export const TABLES = {
  region: [['r_regionkey', 'INTEGER'], ['r_name', 'VARCHAR'], ['r_comment', 'VARCHAR']],
  nation: [['n_nationkey', 'INTEGER'], ['n_name', 'VARCHAR'], ['n_regionkey', 'INTEGER'], ['n_comment', 'VARCHAR']],
  part: [['p_partkey', 'INTEGER'], ['p_name', 'VARCHAR'], ['p_mfgr', 'VARCHAR'], ['p_brand', 'VARCHAR'], ['p_type', 'VARCHAR'],
    ['p_size', 'INTEGER'], ['p_container', 'VARCHAR'], ['p_retailprice', 'DECIMAL(15,2)'], ['p_comment', 'VARCHAR']],
  supplier: [['s_suppkey', 'INTEGER'], ['s_name', 'VARCHAR'], ['s_address', 'VARCHAR'], ['s_nationkey', 'INTEGER'],
    ['s_phone', 'VARCHAR'], ['s_acctbal', 'DECIMAL(15,2)'], ['s_comment', 'VARCHAR']],
  partsupp: [['ps_partkey', 'INTEGER'], ['ps_suppkey', 'INTEGER'], ['ps_availqty', 'INTEGER'], ['ps_supplycost', 'DECIMAL(15,2)'],
    ['ps_comment', 'VARCHAR']],
  customer: [['c_custkey', 'INTEGER'], ['c_name', 'VARCHAR'], ['c_address', 'VARCHAR'], ['c_nationkey', 'INTEGER'],
    ['c_phone', 'VARCHAR'], ['c_acctbal', 'DECIMAL(15,2)'], ['c_mktsegment', 'VARCHAR'], ['c_comment', 'VARCHAR']],
  orders: [['o_orderkey', 'INTEGER'], ['o_custkey', 'INTEGER'], ['o_orderstatus', 'VARCHAR'], ['o_totalprice', 'DECIMAL(15,2)'],
    ['o_orderdate', 'DATE'], ['o_orderpriority', 'VARCHAR'], ['o_clerk', 'VARCHAR'], ['o_shippriority', 'INTEGER'], ['o_comment', 'VARCHAR']],
  lineitem: [['l_orderkey', 'INTEGER'], ['l_partkey', 'INTEGER'], ['l_suppkey', 'INTEGER'], ['l_linenumber', 'INTEGER'],
    ['l_quantity', 'DECIMAL(15,2)'], ['l_extendedprice', 'DECIMAL(15,2)'], ['l_discount', 'DECIMAL(15,2)'], ['l_tax', 'DECIMAL(15,2)'],
    ['l_returnflag', 'VARCHAR'], ['l_linestatus', 'VARCHAR'], ['l_shipdate', 'DATE'], ['l_commitdate', 'DATE'], ['l_receiptdate', 'DATE'],
    ['l_shipinstruct', 'VARCHAR'], ['l_shipmode', 'VARCHAR'], ['l_comment', 'VARCHAR']],
};

/** Primary keys, declared in DuckDB as in PostgreSQL. */
const PKS = {
  region: ['r_regionkey'], nation: ['n_nationkey'], part: ['p_partkey'], supplier: ['s_suppkey'],
  partsupp: ['ps_partkey', 'ps_suppkey'], customer: ['c_custkey'], orders: ['o_orderkey'], lineitem: ['l_orderkey', 'l_linenumber'],
};

/** The admin URL and the URL of the benchmark database (same server, database name replaced). */
export function pgUrls(db = BENCH_DB) {
  const admin = process.env.SVC_BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const u = new URL(admin);
  u.pathname = `/${db}`;
  return { admin, bench: u.toString() };
}

/** The shared folder: beside the repository (../shared), or SVC_SHARED_DIR. */
export function sharedGenerator(repo) {
  const candidates = [];
  if (process.env.SVC_SHARED_DIR) candidates.push(join(resolve(process.env.SVC_SHARED_DIR), 'bench', 'tpch-pg.sql'));
  candidates.push(resolve(repo, '..', 'shared', 'bench', 'tpch-pg.sql'));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`the data generator was not found (looked at ${candidates.join(', ')}); set SVC_SHARED_DIR`);
  return found;
}

function sfTag(sf) {
  return String(Number(sf));
}

async function withPg(url, fn) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.error) throw new Error(`${what}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join('\n')}`);
  return r.stdout;
}

/**
 * Creates and loads the PostgreSQL database unless it already holds data of this scale factor.
 * `db` / `owner` let the peers kit load its own database (`tpch`, owned by the role `bench`).
 */
export async function preparePostgres({ repo, sf, log, db = BENCH_DB, owner }) {
  const { admin, bench } = pgUrls(db);
  const exists = await withPg(admin, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount > 0);
  if (!exists) {
    log(`creating database ${db}`);
    await withPg(admin, (c) => c.query(`CREATE DATABASE ${db}${owner ? ` OWNER ${owner}` : ''}`));
  }
  const loaded = await withPg(bench, async (c) => {
    const t = await c.query(`SELECT to_regclass($1) IS NOT NULL AS ok`, [MARKER]);
    if (!t.rows[0].ok) return null;
    return (await c.query(`SELECT sf FROM ${MARKER} LIMIT 1`)).rows[0]?.sf ?? null;
  });
  if (loaded === sfTag(sf)) {
    log(`PostgreSQL ${db} already holds sf ${loaded}; not reloading`);
    return { url: bench, reloaded: false };
  }
  const generator = sharedGenerator(repo);
  log(`loading ${db} with sf ${sf} from ${generator} (about 20 s for sf 0.1)`);
  const t0 = Date.now();
  await withPg(bench, (c) => c.query(`DROP TABLE IF EXISTS ${MARKER}`));
  run('psql', ['-X', '-q', '-v', `sf=${sf}`, '-v', 'ON_ERROR_STOP=1', '-f', generator, bench], 'psql (data generator)');
  await withPg(bench, async (c) => {
    await c.query(`CREATE TABLE ${MARKER} (sf text NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now())`);
    await c.query(`INSERT INTO ${MARKER} (sf) VALUES ($1)`, [sfTag(sf)]);
  });
  log(`loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { url: bench, reloaded: true };
}

/** The DuckDB file of this scale factor, built from CSV exports of the PostgreSQL tables. */
export function duckPath(repo, sf) {
  return join(repo, 'bench', '.data', `tpch-${sfTag(sf)}.duckdb`);
}

export async function prepareDuckDb({ repo, sf, pgUrl, log, force }) {
  const file = duckPath(repo, sf);
  if (existsSync(file) && !force) {
    log(`DuckDB file ${file} present; reusing it`);
    return file;
  }
  const dir = dirname(file);
  const csvDir = join(dir, `csv-${sfTag(sf)}`);
  mkdirSync(csvDir, { recursive: true });
  log(`exporting tables to CSV in ${csvDir}`);
  for (const t of Object.keys(TABLES)) {
    const cols = TABLES[t].map(([c]) => c).join(', ');
    run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (SELECT ${cols} FROM ${t}) TO '${join(csvDir, `${t}.csv`)}' WITH (FORMAT csv, HEADER)`, pgUrl], `export ${t}`);
  }
  const tmp = `${file}.building`;
  rmSync(tmp, { force: true });
  rmSync(`${tmp}.wal`, { force: true });
  log(`building ${file}`);
  const instance = await DuckDBInstance.create(tmp);
  const c = await instance.connect();
  try {
    for (const [t, cols] of Object.entries(TABLES)) {
      const defs = cols.map(([n, ty]) => `${n} ${ty}${PKS[t].includes(n) || !nullable(t, n) ? ' NOT NULL' : ''}`).join(', ');
      await c.run(`CREATE TABLE ${t} (${defs}, PRIMARY KEY (${PKS[t].join(', ')}))`);
      const colSpec = cols.map(([n, ty]) => `'${n}': '${ty}'`).join(', ');
      await c.run(`INSERT INTO ${t} SELECT * FROM read_csv('${join(csvDir, `${t}.csv`)}', header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', nullstr = '', allow_quoted_nulls = false, columns = {${colSpec}})`);
    }
    await c.run('CHECKPOINT');
  } finally {
    c.closeSync();
    instance.closeSync?.();
  }
  renameSync(tmp, file);
  rmSync(csvDir, { recursive: true, force: true });
  return file;
}

// Comments and a few descriptive columns may be NULL in the generator's DDL; everything else is NOT NULL.
function nullable(table, col) {
  return /_comment$|^s_address$|^s_phone$|^c_address$|^c_phone$/.test(col);
}

/** Row counts per table on both engines, to prove they hold the same rows. */
export async function rowCounts({ pgUrl, duckFile }) {
  const pgCounts = await withPg(pgUrl, async (c) => {
    const out = {};
    for (const t of Object.keys(TABLES)) out[t] = Number((await c.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
    return out;
  });
  let duckCounts = null;
  if (duckFile) {
    const inst = await DuckDBInstance.create(duckFile, { access_mode: 'READ_ONLY' });
    const c = await inst.connect();
    duckCounts = {};
    for (const t of Object.keys(TABLES)) duckCounts[t] = Number((await c.runAndReadAll(`SELECT count(*) FROM ${t}`)).getRows()[0][0]);
    c.closeSync();
    inst.closeSync?.();
  }
  return { pg: pgCounts, duckdb: duckCounts };
}
