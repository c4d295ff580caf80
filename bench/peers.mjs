#!/usr/bin/env node
// `npm run bench:peers`: svc side by side with PostGraphile 5 and the hand-written endpoint of
// ../shared/bench/peers/ on the same TPC-H-shaped PostgreSQL data, in one run. See docs/bench.md "Peers".
//
// Environment: PEERS_CASES (default Q0,Q1,Q3), PEERS_ROUNDS (3), PEERS_DURATION (s per measurement, 10),
// PEERS_CONNECTIONS (10), PEERS_TIME_LIMIT (s for the whole run, 900), PEERS_PORT (first of four ports;
// default: free ports), PEERS_DIR (where the kit is copied and PostGraphile installed; bench/.data/peers),
// BENCH_SF (0.1), SVC_BENCH_PG_URL (admin connection), SVC_SHARED_DIR (where bench/peers lives), plus any
// svc setting passed through (e.g. LOG_LEVEL=info to measure the request log).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pgUrls, preparePostgres } from './lib/data.mjs';
import { cpuByComm, cpuDelta, cpuSeconds, clockTicks, freePort, startChild, stopChild, waitHealthy } from './lib/proc.mjs';
import { SYSTEMS, extract, sameRows } from './lib/peers-cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const option = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);
const CASES = option('PEERS_CASES', 'Q0,Q1,Q3').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
const ROUNDS = Number(option('PEERS_ROUNDS', '3'));
const DURATION = Number(option('PEERS_DURATION', '10'));
const CONNECTIONS = Number(option('PEERS_CONNECTIONS', '10'));
const LIMIT_S = Number(option('PEERS_TIME_LIMIT', '900'));
const SF = Number(option('BENCH_SF', '0.1'));
const KIT = resolve(option('PEERS_DIR', join(repo, 'bench', '.data', 'peers')));
const log = (msg) => console.log(`[peers] ${msg}`);
function fatal(msg) {
  console.error(`bench:peers: ${msg}`);
  process.exit(2);
}
for (const c of CASES) if (!['Q0', 'Q1', 'Q3'].includes(c)) fatal(`PEERS_CASES: unknown case "${c}" (Q0, Q1, Q3)`);
if (!(ROUNDS >= 1) || !(DURATION > 0) || !(CONNECTIONS > 0) || !(LIMIT_S > 0)) fatal('PEERS_ROUNDS, PEERS_DURATION, PEERS_CONNECTIONS and PEERS_TIME_LIMIT must be positive');
const deadline = Date.now() + LIMIT_S * 1000;

// ------------------------------------------------------------------ setup (idempotent)
function sh(cmd, args, what, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.error || r.status !== 0) throw new Error(`${what} failed: ${(r.error?.message ?? `${r.stderr}${r.stdout}`).trim().split('\n').slice(-5).join('\n')}`);
  return r.stdout;
}
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

function ensureWrk() {
  if (has('wrk')) return;
  if (process.getuid?.() !== 0) fatal('wrk is missing: install it (Debian: apt-get install -y wrk) or run this as root, which installs it');
  log('installing wrk from Debian (apt-get install -y wrk)');
  const r = spawnSync('apt-get', ['install', '-y', '-q', 'wrk'], { encoding: 'utf8' });
  if (r.status !== 0) sh('sh', ['-c', 'apt-get update -q && apt-get install -y -q wrk'], 'apt-get install wrk');
}

function sharedKit() {
  const dirs = [];
  if (process.env.SVC_SHARED_DIR) dirs.push(join(resolve(process.env.SVC_SHARED_DIR), 'bench', 'peers'));
  dirs.push(resolve(repo, '..', 'shared', 'bench', 'peers'));
  const found = dirs.find((d) => existsSync(join(d, 'baseline-server.mjs')));
  if (!found) fatal(`the peers kit was not found (looked at ${dirs.join(', ')}); set SVC_SHARED_DIR`);
  return found;
}

/** The kit copied to KIT (a gitignored folder), PostGraphile installed there by its own package.json. */
function prepareKit() {
  const from = sharedKit();
  mkdirSync(KIT, { recursive: true });
  for (const f of ['baseline-server.mjs', 'graphile.config.mjs', 'node20-polyfill.cjs', 'package.json', 'post.lua', 'q1-pgl.sql', 'q1-json.sql']) {
    rmSync(join(KIT, f), { force: true });
    cpSync(join(from, f), join(KIT, f));
  }
  if (!existsSync(join(KIT, 'node_modules', 'postgraphile', 'package.json'))) {
    log(`installing PostGraphile and the kit's dependencies in ${KIT} (npm install, about a minute)`);
    // PostGraphile 5 declares Node >= 22; the kit runs it on Node 20 with node20-polyfill.cjs. `npm run`
    // hands the repository's engine-strict (.npmrc) down as npm_config_engine_strict: not for the kit.
    sh('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], 'npm install (peers kit)', { cwd: KIT, env: { ...process.env, npm_config_engine_strict: 'false' } });
  }
  return from;
}

async function ensureRole(adminUrl) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query(`SELECT 1 FROM pg_roles WHERE rolname = 'bench'`);
    if (!r.rowCount) {
      log('creating role bench (password bench)');
      await c.query(`CREATE ROLE bench LOGIN SUPERUSER PASSWORD 'bench'`);
    }
  } finally {
    await c.end();
  }
}

// ------------------------------------------------------------------ measurement
/** wrk's latency ("812.00us", "1.23ms", "2.01s") in ms. */
function wrkMs(s) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s ?? '');
  if (!m) return null;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[m[2]];
}
function machineBusyTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return f[0] + f[1] + f[2] + f[5] + f[6] + f[7]; // user nice system irq softirq steal
}

function wrk(url, bodyFile, seconds, latency) {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, ...(latency ? ['--latency'] : []), '-s', join(KIT, 'post.lua'), url, '--', bodyFile];
  const r = spawnSync('wrk', args, { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

function measure(sys, c) {
  const s0 = cpuSeconds(sys.proc.pid);
  const pg0 = cpuByComm('postgres');
  const m0 = machineBusyTicks();
  const out = wrk(sys.url(c), sys.body(c), DURATION, true);
  const s1 = cpuSeconds(sys.proc.pid);
  const pg1 = cpuByComm('postgres');
  const m1 = machineBusyTicks();
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: (.*)/.exec(out)?.[1] ?? null;
  const per = (sec) => (requests ? (sec * 1000) / requests : null);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    requests,
    p50: wrkMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
    p99: wrkMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
    serverMs: s0 !== null && s1 !== null ? per(s1 - s0) : null,
    pgMs: per(cpuDelta(pg0, pg1)),
    machineMs: per((m1 - m0) / clockTicks()),
    non2xx,
    ...(errors ? { socketErrors: errors } : {}),
  };
}

// ------------------------------------------------------------------ the run
const work = mkdtempSync(join(tmpdir(), 'svc-peers-'));
const children = [];
let stopping = false;
async function cleanup() {
  for (const c of children.reverse()) await stopChild(c);
  rmSync(work, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\nbench:peers: ${sig}, stopping what it started`);
    cleanup().finally(() => process.exit(130));
  });
}

async function ports() {
  const base = Number(option('PEERS_PORT', '0'));
  if (base) return [base, base + 1, base + 2];
  return [await freePort(), await freePort(), await freePort()];
}

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await r.text();
  try {
    return JSON.parse(text);
  } catch {
    return { error: `HTTP ${r.status}: ${text.slice(0, 200)}` };
  }
}

async function main() {
  const entry = join(repo, 'dist', 'src', 'main.js');
  if (!existsSync(entry)) fatal(`${entry} is missing: run "npm run build" first (npm run bench:peers does)`);
  ensureWrk();
  const shared = prepareKit();
  const { admin } = pgUrls('tpch');
  await ensureRole(admin);
  await preparePostgres({ repo, sf: SF, log, db: 'tpch', owner: 'bench' });
  const dbUrl = 'postgres://bench:bench@127.0.0.1:5432/tpch';

  // Request bodies: PostGraphile's documents from the kit, svc's from its svc/ folder.
  const bodies = {};
  for (const q of ['q0', 'q1', 'q3-nodistinct']) bodies[`pgl-${q}`] = readFileSync(join(shared, `${q}.graphql`), 'utf8');
  for (const q of ['q0', 'q1', 'q3']) bodies[`svc-${q}`] = readFileSync(join(shared, 'svc', `${q}.graphql`), 'utf8');
  const bodyFile = (name) => {
    const f = join(work, `${name}.json`);
    if (!existsSync(f)) writeFileSync(f, name === 'empty' ? '{}' : JSON.stringify({ query: bodies[name] }));
    return f;
  };

  // Servers: PostGraphile, the hand-written endpoint, svc (only the tpch_pg catalog, on the tpch database).
  const [pglPort, basePort, svcPort] = await ports();
  const pgl = startChild({
    name: 'postgraphile', cmd: process.execPath, cwd: KIT, logFile: join(work, 'pgl.log'),
    args: ['-r', './node20-polyfill.cjs', join('node_modules', 'postgraphile', 'dist', 'cli-run.js'), '-C', 'graphile.config.mjs'],
    env: { NODE_ENV: 'production', PORT: String(pglPort), DATABASE_URL: dbUrl },
  });
  children.push(pgl);
  const base = startChild({
    name: 'hand-written', cmd: process.execPath, cwd: KIT, logFile: join(work, 'base.log'),
    args: ['baseline-server.mjs'], env: { PORT: String(basePort), DATABASE_URL: dbUrl },
  });
  children.push(base);
  const catalogs = join(work, 'catalogs');
  mkdirSync(catalogs);
  // A copy, not a link: svc's catalog walk does not follow symbolic links.
  cpSync(join(repo, 'bench', 'catalogs', 'tpch_pg'), join(catalogs, 'tpch_pg'), { recursive: true });
  const svc = startChild({
    name: 'svc', cmd: process.execPath, args: [entry], cwd: work, logFile: join(work, 'svc.log'),
    env: {
      CATALOGS_DIR: catalogs, CORE_DB_PATH: join(work, 'core.duckdb'), DB_PATH: '', BIND: `127.0.0.1:${svcPort}`,
      LOG_LEVEL: option('LOG_LEVEL', 'warn'), MAX_REQUESTS_PER_CALLER: '0', ALLOW_PARALLEL: 'true', ADMIN_UI: 'false', CONFIG_FILE: '', SVC_BENCH_PG_TPCH_URL: dbUrl,
    },
  });
  children.push(svc);
  await waitHealthy(`http://127.0.0.1:${svcPort}/health`, svc);
  for (let i = 0; ; i++) {
    const r = await post(`http://127.0.0.1:${pglPort}/graphql`, '{"query":"{__typename}"}').catch((e) => ({ error: e.message }));
    if (r.data) break;
    if (!pgl.alive() || i > 300) throw new Error(`PostGraphile did not start: ${readFileSync(pgl.logFile, 'utf8').slice(-600)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await waitHealthy(`http://127.0.0.1:${basePort}/q0/rows`, base);
  log(`servers ready: PostGraphile :${pglPort}, hand-written :${basePort}, svc :${svcPort} (LOG_LEVEL=${option('LOG_LEVEL', 'warn')})`);
  // svc keeps working for a while after /health answers (the catalog's schema written to the core
  // database): measured from then, its first round would carry that work.
  log(`svc settled after ${(await settle(svc.pid)).toFixed(1)} s (under 5% of a core for a second)`);

  const systems = SYSTEMS({ pglPort, basePort, svcPort, bodyFile }).map((s) => ({ ...s, proc: { svc, pgl, rows: base, json: base }[s.id] }));

  // Same rows first: every system's answer reduced to the same tuples.
  const correctness = {};
  for (const c of CASES) {
    const answers = {};
    for (const s of systems) {
      const body = readFileSync(s.body(c), 'utf8');
      const r = await post(s.url(c), body);
      answers[s.id] = r.errors || r.error ? { error: JSON.stringify(r.errors ?? r.error).slice(0, 300) } : extract(c, s.id, r);
    }
    const ref = answers.rows;
    correctness[c] = Object.fromEntries(systems.map((s) => [s.id, answers[s.id].error ? 'error' : sameRows(answers[s.id], ref) ? 'same' : 'DIFFER']));
    log(`${c}: rows against the hand-written rows endpoint: ${systems.map((s) => `${s.id} ${correctness[c][s.id]}`).join(', ')}`);
    for (const s of systems) if (answers[s.id].error) log(`  ${c} ${s.id} answered an error, not measured: ${answers[s.id].error}`);
  }
  // A system that answers an error is not measured (its req/s would be the error's).
  const measured = (c, s) => correctness[c][s.id] !== 'error';

  // Warm-up, then interleaved rounds: per round, per case, every system in turn.
  for (const c of CASES) for (const s of systems) if (measured(c, s)) wrk(s.url(c), s.body(c), 3, false);
  const rounds = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const need = CASES.length * systems.length * (DURATION + 1) * 1000;
    if (Date.now() + need > deadline) {
      log(`stopping before round ${r}: PEERS_TIME_LIMIT=${LIMIT_S}s would be passed`);
      break;
    }
    const round = { round: r, load: loadavg().map((x) => x.toFixed(2)).join(' '), figures: {} };
    log(`round ${r}/${ROUNDS}, load average ${round.load}`);
    for (const c of CASES) {
      round.figures[c] = {};
      for (const s of systems) {
        if (!measured(c, s)) continue;
        const m = measure(s, c);
        round.figures[c][s.id] = m;
        log(`  ${c} ${s.label.padEnd(24)} ${m.rps.toFixed(0).padStart(6)} req/s p50 ${fmt(m.p50, 2)} ms p99 ${fmt(m.p99, 2)} ms cpu/req server ${fmt(m.serverMs, 3)} pg ${fmt(m.pgMs, 3)} machine ${fmt(m.machineMs, 3)}${m.non2xx ? ` non-2xx ${m.non2xx}` : ''}`);
      }
    }
    round.loadAfter = loadavg().map((x) => x.toFixed(2)).join(' ');
    rounds.push(round);
  }
  const report = { date: new Date().toISOString(), sf: SF, connections: CONNECTIONS, duration_s: DURATION, cpus: cpus().length, logLevel: option('LOG_LEVEL', 'warn'), correctness, rounds };
  print(report, systems);
  const outDir = join(here, 'results');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `peers-${report.date.replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
  writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`results written to ${outFile}`);
}

/** Waits (at most 60 s) until `pid` uses under 5% of a core over a second; returns the seconds waited. */
async function settle(pid) {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 1000));
    const after = cpuSeconds(pid);
    if (before === null || after === null || after - before < 0.05) break;
  }
  return (Date.now() - started) / 1000;
}

function fmt(v, d = 1) {
  return v === null || v === undefined || Number.isNaN(v) ? '-' : v.toFixed(d);
}
const median = (xs) => {
  const v = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!v.length) return null;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

function print(report, systems) {
  console.log('');
  console.log(`svc vs peers  ${report.date}  sf ${report.sf}  c=${report.connections}  ${report.duration_s} s per measurement  ${report.rounds.length} interleaved rounds  ${report.cpus} CPUs  svc LOG_LEVEL=${report.logLevel}`);
  console.log('(medians over the rounds; cpu = CPU ms per request of the server process, of all postgres processes, of the whole machine)');
  for (const r of report.rounds) console.log(`  round ${r.round}: load average ${r.load} -> ${r.loadAfter}`);
  const head = ['case', 'system', 'req/s', 'p50 ms', 'p99 ms', 'server cpu', 'pg cpu', 'machine cpu', 'rows'];
  const rows = [];
  for (const c of CASES) {
    for (const s of systems) {
      const all = report.rounds.map((r) => r.figures[c]?.[s.id]).filter(Boolean);
      const m = (k) => median(all.map((x) => x[k]));
      rows.push([c, s.label, fmt(m('rps'), 0), fmt(m('p50'), 2), fmt(m('p99'), 2), fmt(m('serverMs'), 3), fmt(m('pgMs'), 3), fmt(m('machineMs'), 3), report.correctness[c]?.[s.id] ?? '-']);
    }
  }
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((x, i) => (i >= 2 && i <= 7 ? String(x).padStart(w[i]) : String(x).padEnd(w[i]))).join(' | ');
  console.log(line(head));
  console.log(w.map((x) => '-'.repeat(x)).join('-+-'));
  for (const r of rows) console.log(line(r));
  console.log('');
  console.log('Ratios of throughput, same round (per round, then the median):');
  for (const c of CASES) {
    for (const [other, label] of [['pgl', 'PostGraphile'], ['rows', 'hand-written rows'], ['json', 'hand-written JSON']]) {
      const per = report.rounds.map((r) => (r.figures[c]?.svc && r.figures[c]?.[other]?.rps ? r.figures[c].svc.rps / r.figures[c][other].rps : null));
      console.log(`  ${c} svc / ${label.padEnd(18)} ${per.map((x) => `${fmt(x, 2)}x`).join('  ')}   median ${fmt(median(per), 2)}x`);
    }
    const pgRatio = median(report.rounds.map((r) => (r.figures[c]?.svc?.pgMs && r.figures[c]?.rows?.pgMs ? r.figures[c].svc.pgMs / r.figures[c].rows.pgMs : null)));
    console.log(`  ${c} PostgreSQL CPU per request, svc / hand-written rows: ${fmt(pgRatio, 2)}x`);
  }
  console.log('Targets of issue 30 (measured, not asserted): Q1 >= 0.8x rows and >= 3x PostGraphile; Q0 >= 0.6x rows and >= 2.5x PostGraphile;');
  console.log('  PostgreSQL CPU per Q1 request within 1.2x of the rows statement.');
}

main()
  .catch((e) => {
    console.error(`bench:peers: ${e.stack ?? e.message}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    if (!stopping) await cleanup();
  });
