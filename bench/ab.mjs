#!/usr/bin/env node
// `node bench/ab.mjs <checkoutA> <checkoutB> [engine] [case]`: two builds of svc (each checkout's
// dist/) side by side on the bench data, loaded in alternating rounds with the same workload, and
// the raw endpoint in the same rounds. On a shared, noisy machine only figures of the same rounds
// compare; medians are printed. Needs the data `npm run bench` prepares.
// Environment: AB_ROUNDS (default 5), AB_SECONDS (per round and side, default 5), BENCH_CONNECTIONS (default 10),
// AB_ENV_A / AB_ENV_B (extra settings of one side, e.g. "LOG_LEVEL=info": one build, two settings),
// AB_ENV_C (a third side: B's build with these settings), SVC_BENCH_PG_TPCH_URL (another database, e.g. the peers kit's tpch).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { duckPath } from './lib/data.mjs';
import { cpuSeconds, freePort, startChild, stopChild, waitHealthy } from './lib/proc.mjs';
import { ENGINES, variants } from './lib/workloads.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const [a, b] = process.argv.slice(2, 4).map((p) => resolve(p));
const engine = process.argv[4] ?? 'postgres';
const name = (process.argv[5] ?? 'Q1').toUpperCase();
if (!a || !b || !ENGINES[engine]) throw new Error('usage: node bench/ab.mjs <checkoutA> <checkoutB> [duckdb|postgres] [Q0..Q3]');
const rounds = Number(process.env.AB_ROUNDS ?? 5);
const seconds = Number(process.env.AB_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const pgUrl = process.env.SVC_BENCH_PG_TPCH_URL || new URL('/svc_bench_tpch', process.env.SVC_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres').toString();

async function start(label, cmd, args, env) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `svc-ab-${label}-`));
  const child = startChild({ name: label, cmd: process.execPath, args: [...args], cwd: dir, logFile: join(dir, 'log'), env: { ...env(port, dir) } });
  await waitHealthy(`http://127.0.0.1:${port}/health`, child);
  return { label, child, port, samples: [] };
}

const svcEnv = (port, dir) => ({
  CATALOGS_DIR: join(repo, 'bench', 'catalogs'), CORE_DB_PATH: join(dir, 'core.duckdb'), DB_PATH: '', BIND: `127.0.0.1:${port}`, LOG_LEVEL: 'warn', MAX_REQUESTS_PER_CALLER: '0',
  ALLOW_PARALLEL: 'true', ADMIN_UI: 'false', CONFIG_FILE: '', SVC_BENCH_DUCKDB_PATH: duckPath(repo, 0.1), SVC_BENCH_PG_TPCH_URL: pgUrl,
});
const extra = (v) => Object.fromEntries((v ?? '').split(/\s+/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const servers = [
  await start('A', process.execPath, [join(a, 'dist', 'src', 'main.js')], (p, d) => ({ ...svcEnv(p, d), ...extra(process.env.AB_ENV_A) })),
  await start('B', process.execPath, [join(b, 'dist', 'src', 'main.js')], (p, d) => ({ ...svcEnv(p, d), ...extra(process.env.AB_ENV_B) })),
  // A third side, B's build with other settings (e.g. A warn, B info, C info with every line).
  ...(process.env.AB_ENV_C ? [await start('C', process.execPath, [join(b, 'dist', 'src', 'main.js')], (p, d) => ({ ...svcEnv(p, d), ...extra(process.env.AB_ENV_C) }))] : []),
  await start('raw', process.execPath, [join(here, 'raw-server.mjs')], (port) => ({ RAW_ENGINE: engine, RAW_PORT: String(port), RAW_DUCKDB_PATH: duckPath(repo, 0.1), RAW_PG_URL: pgUrl })),
];
const graphql = JSON.stringify({ query: variants(engine, name)[0].graphql });
const target = (s) => (s.label === 'raw'
  ? { url: `http://127.0.0.1:${s.port}/${name}`, method: 'GET' }
  : { url: `http://127.0.0.1:${s.port}/query`, method: 'POST', body: graphql, headers: { 'content-type': 'application/json' } });
try {
  for (const s of servers) await autocannon({ ...target(s), connections, duration: 2 });
  for (let r = 0; r < rounds; r++) {
    for (const s of servers) {
      const c0 = cpuSeconds(s.child.pid);
      const res = await autocannon({ ...target(s), connections, duration: seconds });
      s.samples.push({ rps: res.requests.average, cpu: ((cpuSeconds(s.child.pid) - c0) * 1000) / Math.max(1, res.requests.total), bad: res.non2xx + res.errors });
    }
  }
} finally {
  for (const s of servers) await stopChild(s.child);
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const raw = median(servers.at(-1).samples.map((x) => x.rps));
console.log(`${engine} ${name}, ${rounds} rounds of ${seconds} s, ${connections} connections (A = ${a}, B = ${b}):`);
for (const s of servers) {
  const rps = median(s.samples.map((x) => x.rps));
  console.log(`  ${s.label.padEnd(4)} ${rps.toFixed(0).padStart(6)} req/s  ${(rps / raw).toFixed(2)}x raw  cpu ${median(s.samples.map((x) => x.cpu)).toFixed(3)} ms/req  errors ${s.samples.reduce((n, x) => n + x.bad, 0)}  rounds: ${s.samples.map((x) => x.rps.toFixed(0)).join(' ')}`);
}
