#!/usr/bin/env node
// `node bench/profile.mjs [engine] [case]`: svc under `node --cpu-prof`, loaded with one workload of
// bench/lib/workloads.mjs, and its CPU self time grouped by package (bench/lib/cpu-profile.mjs).
// Needs the data `npm run bench` prepares (run it once first) and `npm run build`.
//
// Environment: PROFILE_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_SF (default 0.1),
// PROFILE_OUT (directory for the .cpuprofile, default a temporary one), SVC_BENCH_PG_URL,
// SVC_BENCH_PG_TPCH_URL (another database, e.g. the peers kit's tpch), LOG_LEVEL (default warn),
// PROFILE_CHECKOUT (another checkout whose dist/ is profiled, e.g. main's build for a before/after table).
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { byPackage, printByPackage } from './lib/cpu-profile.mjs';
import { duckPath } from './lib/data.mjs';
import { cpuSeconds, freePort, startChild, stopChild, waitHealthy } from './lib/proc.mjs';
import { ENGINES, variants } from './lib/workloads.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const engine = process.argv[2] ?? 'postgres';
const name = (process.argv[3] ?? 'Q1').toUpperCase();
const duration = Number(process.env.PROFILE_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const sf = Number(process.env.BENCH_SF ?? 0.1);
if (!ENGINES[engine]) throw new Error(`unknown engine "${engine}"`);

const out = process.env.PROFILE_OUT ?? mkdtempSync(join(tmpdir(), 'svc-profile-'));
mkdirSync(out, { recursive: true });
const port = await freePort();
const pgAdmin = process.env.SVC_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const svc = startChild({
  name: 'svc', cmd: process.execPath, args: ['--cpu-prof', `--cpu-prof-dir=${out}`, join(resolve(process.env.PROFILE_CHECKOUT || repo), 'dist', 'src', 'main.js')], cwd: out, logFile: join(out, 'svc.log'),
  env: {
    CATALOGS_DIR: join(repo, 'bench', 'catalogs'), CORE_DB_PATH: join(out, 'core.duckdb'), DB_PATH: '', BIND: `127.0.0.1:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn', MAX_REQUESTS_PER_CALLER: '0', ALLOW_PARALLEL: 'true', ADMIN_UI: 'false', CONFIG_FILE: '',
    SVC_BENCH_DUCKDB_PATH: duckPath(repo, sf), SVC_BENCH_PG_TPCH_URL: process.env.SVC_BENCH_PG_TPCH_URL || new URL('/svc_bench_tpch', pgAdmin).toString(),
  },
});
const window = { from: 0, to: Infinity };
let requests = 0;
try {
  await waitHealthy(`http://127.0.0.1:${port}/health`, svc);
  const body = JSON.stringify({ query: variants(engine, name)[0].graphql });
  const url = `http://127.0.0.1:${port}/query`;
  const opts = { url, method: 'POST', body, headers: { 'content-type': 'application/json' }, connections };
  await autocannon({ ...opts, duration: 2 });
  const cpu0 = cpuSeconds(svc.pid);
  const us = () => Number(process.hrtime.bigint() / 1000n);
  window.from = us();
  const r = await autocannon({ ...opts, duration });
  window.to = us();
  const cpu = cpuSeconds(svc.pid) - cpu0;
  requests = r.requests.total;
  console.log(`${engine} ${name}: ${Math.round(r.requests.average)} req/s, svc cpu ${((cpu * 1000) / r.requests.total).toFixed(3)} ms/req, ${r.non2xx} non-2xx`);
} finally {
  await stopChild(svc);
}
// Worker threads (jq's pool) write their own profiles; the main thread's is thread 0.
const file = readdirSync(out).filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)).map((f) => join(out, f)).at(-1);
if (!file || !existsSync(file)) throw new Error(`no .cpuprofile in ${out} (see ${join(out, 'svc.log')})`);
console.log(`profile: ${file}`);
printByPackage(byPackage(file, window), 25, requests);
// The same, svc's code split by layer and node's by module (PROFILE_LAYERS=0 to skip).
if (process.env.PROFILE_LAYERS !== '0') {
  console.log('by layer:');
  printByPackage(byPackage(file, window, { layers: true }), 0, requests);
}
