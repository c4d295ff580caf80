#!/usr/bin/env node
// `npm run bench`: TPC-H-shaped workloads Q0–Q3 through svc and as raw SQL, on DuckDB and PostgreSQL,
// in one run on this machine. See docs/bench.md.
//
// Environment: BENCH_ONLY=duckdb|postgres, BENCH_CASES=Q0,Q1, BENCH_DURATION (s, default 10),
// BENCH_WARMUP (s, default 2), BENCH_SF (default 0.1), BENCH_CONNECTIONS (default 10),
// SVC_BENCH_PG_URL (admin connection), SVC_SHARED_DIR (where bench/tpch-pg.sql lives when ../shared is absent).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { differences, unprefix } from './lib/compare.mjs';
import { duckPath, preparePostgres, prepareDuckDb, rowCounts } from './lib/data.mjs';
import { cpuByComm, cpuDelta, cpuSeconds, freePort, logTail, startChild, stopChild, waitHealthy } from './lib/proc.mjs';
import { CASES, DESCRIPTIONS, ENGINES, variants } from './lib/workloads.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

// ------------------------------------------------------------------ options
function option(name, fallback) {
  const v = process.env[name];
  return v === undefined || v === '' ? fallback : v;
}
const SF = Number(option('BENCH_SF', '0.1'));
const DURATION = Number(option('BENCH_DURATION', '10'));
const WARMUP = Number(option('BENCH_WARMUP', '2'));
const CONNECTIONS = Number(option('BENCH_CONNECTIONS', '10'));
const ONLY = option('BENCH_ONLY', '');
const engines = ONLY ? ONLY.split(',').map((s) => s.trim()) : ['duckdb', 'postgres'];
const cases = option('BENCH_CASES', CASES.join(',')).split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
for (const e of engines) if (!ENGINES[e]) fatal(`BENCH_ONLY: unknown engine "${e}" (duckdb or postgres)`);
for (const c of cases) if (!CASES.includes(c)) fatal(`BENCH_CASES: unknown case "${c}" (${CASES.join(', ')})`);
if (!(SF > 0) || !(DURATION > 0) || !(WARMUP >= 0) || !(CONNECTIONS > 0)) fatal('BENCH_SF, BENCH_DURATION and BENCH_CONNECTIONS must be positive numbers');

function fatal(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}
const log = (msg) => console.log(`[bench] ${msg}`);

// Targets of the issue. Printed next to the ratios; a miss never fails the run.
// Issue 16's targets, with the earlier DuckDB Q3 one.
const TARGETS = [
  { engine: 'postgres', case: 'Q1', label: 'Q1 PostgreSQL throughput >= 0.8x raw', metric: 'ratio', ok: (v) => v >= 0.8, show: '>=0.80x' },
  { engine: 'postgres', case: 'Q0', label: 'Q0 PostgreSQL throughput >= 0.5x raw', metric: 'ratio', ok: (v) => v >= 0.5, show: '>=0.50x' },
  { engine: 'postgres', case: 'Q3', label: 'Q3 PostgreSQL throughput within 2% of raw', metric: 'ratio', ok: (v) => v >= 0.98, show: '>=0.98x' },
  { engine: 'duckdb', case: 'Q1', label: 'Q1 DuckDB throughput >= 0.9x raw', metric: 'ratio', ok: (v) => v >= 0.9, show: '>=0.90x' },
  { engine: 'duckdb', case: 'Q3', label: 'Q3 DuckDB throughput within 10% of raw', metric: 'ratio', ok: (v) => v >= 0.9, show: '>=0.90x' },
  { engine: 'duckdb', case: 'Q0', label: 'Q0 DuckDB svc CPU per request < 0.5 ms', metric: 'cpu', ok: (v) => v < 0.5, show: 'cpu<0.5ms' },
];
const targetsFor = (engine, name) => TARGETS.filter((t) => t.case === name && (t.engine === '*' || t.engine === engine));

// ------------------------------------------------------------------ measurement helpers
async function fetchJson(url, init) {
  const r = await fetch(url, init);
  const text = await r.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: `HTTP ${r.status}: ${text.slice(0, 300)}` };
  }
  return { status: r.status, body };
}

/** One autocannon run; CPU of the watched pids (and of PostgreSQL server processes) over the run. */
async function load({ url, method = 'GET', body, pids, duration }) {
  const opts = {
    url, method, connections: CONNECTIONS, duration, timeout: 60,
    headers: body ? { 'content-type': 'application/json' } : {},
    ...(body ? { body } : {}),
  };
  const before = pids.map(cpuSeconds);
  const pgBefore = cpuByComm('postgres');
  const t0 = process.hrtime.bigint();
  const r = await autocannon(opts);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const after = pids.map(cpuSeconds);
  const pgAfter = cpuByComm('postgres');
  const ok = r['2xx'] ?? 0;
  const total = r.requests.total ?? ok;
  const cpu = before.every((v, i) => v !== null && after[i] !== null) ? after.reduce((s, v, i) => s + v - before[i], 0) : null;
  return {
    requests: total,
    ok,
    errors: (r.errors ?? 0) + (r.timeouts ?? 0) + (r.non2xx ?? 0),
    rps: total / (r.duration || wall),
    p50: total ? r.latency.p50 : null,
    p99: total ? r.latency.p99 : null,
    bytesPerReq: total ? r.throughput.total / total : 0,
    cpuMsPerReq: cpu !== null && total ? (cpu * 1000) / total : null,
    pgCpuMsPerReq: total ? (cpuDelta(pgBefore, pgAfter) * 1000) / total : null,
  };
}

function runPgbench(pgUrl, sql, file) {
  writeFileSync(file, `${sql};\n`);
  const args = ['-n', '-M', 'prepared', '-c', String(CONNECTIONS), '-j', String(Math.min(CONNECTIONS, cpus().length)),
    '-T', String(Math.max(1, Math.round(DURATION))), '-f', file, pgUrl];
  const r = spawnSync('pgbench', args, { encoding: 'utf8' });
  if (r.error) return { error: r.error.message };
  const out = `${r.stdout}\n${r.stderr}`;
  const tps = out.match(/tps = ([\d.]+) \(without initial connection time\)/) ?? out.match(/tps = ([\d.]+)/);
  const lat = out.match(/latency average = ([\d.]+) ms/);
  if (r.status !== 0 || !tps) return { error: out.trim().split('\n').filter((l) => /error|fatal/i.test(l)).slice(0, 2).join(' ') || `exit ${r.status}` };
  return { tps: Number(tps[1]), latencyAvgMs: lat ? Number(lat[1]) : null };
}

// ------------------------------------------------------------------ the run
const started = new Date();
const work = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const children = [];
let interrupted = false;
async function cleanup() {
  for (const c of children) await stopChild(c);
  rmSync(work, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nbench: ${sig}, stopping children`);
    cleanup().finally(() => process.exit(130));
  });
}

async function main() {
  const entry = join(repo, 'dist', 'src', 'main.js');
  if (!existsSync(entry)) fatal(`${entry} is missing: run "npm run build" first (npm run bench does)`);
  log(`sf ${SF}, engines ${engines.join('+')}, cases ${cases.join(',')}, ${DURATION} s per case after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ${cpus().length} CPUs`);

  // 1. Data. PostgreSQL is the origin of the rows, so it is prepared even for BENCH_ONLY=duckdb
  //    (unless the DuckDB file already exists).
  let pgUrl = null;
  let duckFile = null;
  const dataNotes = [];
  const needPg = engines.includes('postgres') || !existsSync(duckPath(repo, SF));
  if (needPg) pgUrl = (await preparePostgres({ repo, sf: SF, log })).url;
  if (engines.includes('duckdb')) duckFile = await prepareDuckDb({ repo, sf: SF, pgUrl, log });
  if (pgUrl && duckFile) {
    const counts = await rowCounts({ pgUrl, duckFile });
    const diff = Object.keys(counts.pg).filter((t) => counts.pg[t] !== counts.duckdb[t]);
    if (diff.length) {
      dataNotes.push(`row counts differ between PostgreSQL and DuckDB for ${diff.join(', ')}; delete ${duckFile} to rebuild it`);
      log(`WARNING: ${dataNotes.at(-1)}`);
    } else log(`both engines hold the same row counts (lineitem ${counts.pg.lineitem})`);
  }
  const pgBenchUrl = pgUrl ?? new URL('/svc_bench_tpch', option('SVC_BENCH_PG_URL', 'postgres://postgres@127.0.0.1:5432/postgres')).toString();

  // 2. svc, serving bench/catalogs (both sources; a source that cannot load does not stop svc).
  const svcPort = await freePort();
  const svcEnv = {
    CATALOGS_DIR: join(repo, 'bench', 'catalogs'),
    CORE_DB_PATH: join(work, 'core.duckdb'),
    DB_PATH: '',
    BIND: `127.0.0.1:${svcPort}`,
    LOG_LEVEL: 'warn',
    // The load generator is one caller with 10 connections (MAX_REQUESTS_PER_CALLER would refuse 6 of them).
    MAX_REQUESTS_PER_CALLER: '0',
    // BENCH_ONLY=postgres has no DuckDB file: its source stays unloaded rather than stopping svc.
    STRICT_SOURCES: 'false',
    ALLOW_PARALLEL: 'true',
    ADMIN_UI: 'false',
    CONFIG_FILE: '',
    SVC_BENCH_DUCKDB_PATH: duckFile ?? duckPath(repo, SF),
    SVC_BENCH_PG_TPCH_URL: pgBenchUrl,
  };
  log(`starting svc on 127.0.0.1:${svcPort}`);
  const svc = startChild({ name: 'svc', cmd: process.execPath, args: [entry], env: svcEnv, cwd: work, logFile: join(work, 'svc.log') });
  children.push(svc);
  const health = await waitHealthy(`http://127.0.0.1:${svcPort}/health`, svc);
  log(`svc ready: ${health}`);
  const svcUrl = `http://127.0.0.1:${svcPort}/query`;

  const results = [];
  for (const engine of engines) {
    // 3. The raw endpoint of this engine, as its own process.
    let raw = null;
    let rawError = null;
    try {
      const port = await freePort();
      raw = startChild({
        name: `raw-${engine}`, cmd: process.execPath, args: [join(here, 'raw-server.mjs')], cwd: repo, logFile: join(work, `raw-${engine}.log`),
        env: { RAW_ENGINE: engine, RAW_PORT: String(port), RAW_DUCKDB_PATH: duckFile ?? '', RAW_PG_URL: pgBenchUrl },
      });
      children.push(raw);
      raw.url = `http://127.0.0.1:${port}`;
      await waitHealthy(`${raw.url}/health`, raw);
    } catch (e) {
      rawError = e.message.split('\n')[0];
      log(`raw ${engine} endpoint failed: ${e.message}`);
    }

    for (const name of cases) {
      const res = { engine, case: name, description: DESCRIPTIONS[name], variant: null, note: '', svc: null, raw: null, pgbench: null, correctness: null, svcError: null, rawError };
      results.push(res);
      log(`${engine} ${name}: ${DESCRIPTIONS[name]}`);
      try {
        await runCase(res, { engine, name, svc, svcUrl, raw, pgUrl: pgBenchUrl });
      } catch (e) {
        res.svcError = res.svcError ?? `harness error: ${e.message}`;
        log(`  ${engine} ${name} failed: ${e.stack ?? e.message}`);
      }
    }
    await stopChild(raw);
  }
  await stopChild(svc);

  // 4. Report.
  const report = {
    date: started.toISOString(),
    sf: SF,
    duration_s: DURATION,
    warmup_s: WARMUP,
    connections: CONNECTIONS,
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
    commit: gitHead(),
    data_notes: dataNotes,
    results,
    targets: evaluateTargets(results),
  };
  printTable(report);
  const outDir = join(here, 'results');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `${started.toISOString().replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
  writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`results written to ${outFile}`);
}

async function runCase(res, { engine, name, svc, svcUrl, raw, pgUrl }) {
  const prefix = ENGINES[engine].prefix;
  const vs = variants(engine, name);

  // Pick the first variant svc answers without errors; if none, the case is "not supported yet".
  let chosen = null;
  let svcData = null;
  const errors = [];
  if (!svc.alive()) errors.push(`svc is not running (exit ${svc.child.exitCode ?? svc.child.signalCode})`);
  else {
    for (const v of vs) {
      const logFrom = fileSize(svc.logFile);
      const { status, body } = await fetchJson(svcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: v.graphql }) });
      if (status === 200 && !body.errors?.length && body.data) {
        chosen = v;
        svcData = unprefix(body.data, prefix);
        break;
      }
      let msg = body.errors?.map((e) => e.message).join('; ') || body.error || `HTTP ${status}`;
      if (/internal|server error/i.test(msg)) {
        await new Promise((r) => setTimeout(r, 300)); // let the child's log reach the file
        const cause = lastLoggedError(svc.logFile, logFrom);
        if (cause) msg += ` [svc log: ${cause}]`;
      }
      errors.push(msg);
      res.variantErrors = { ...(res.variantErrors ?? {}), [v.id]: msg };
    }
  }
  if (!chosen) {
    // Report the blocking error: the one of the simplest (last) variant, which is what stops the case.
    res.svcError = errors.at(-1);
    log(`  svc: not supported yet: ${res.svcError}`);
  } else if (chosen !== vs[0]) {
    res.note = chosen.note;
    log(`  svc: using variant ${chosen.id} (${chosen.note}); the full form failed: ${errors[0]}`);
  }
  const v = chosen ?? vs[0];
  res.variant = v.id;

  // Raw answer and correctness check.
  let rawOk = false;
  if (raw?.url && raw.alive()) {
    const { status, body } = await fetchJson(`${raw.url}/${encodeURIComponent(v.id)}`);
    if (status === 200 && body.data) {
      rawOk = true;
      if (svcData) {
        const diffs = differences(svcData, body.data);
        res.correctness = diffs.length ? { ok: false, differences: diffs } : { ok: true };
        if (diffs.length) {
          log(`  MISMATCH between svc and raw (${diffs.length}${diffs.length >= 10 ? '+' : ''} differences):`);
          for (const d of diffs) log(`    ${d}`);
        } else log('  svc and raw hold the same rows');
      }
    } else {
      res.rawError = body.error ?? `HTTP ${status}`;
      log(`  raw failed: ${res.rawError}`);
    }
  } else if (raw && !raw.alive()) {
    res.rawError = `raw endpoint exited:\n${logTail(raw.logFile, 5)}`;
  }

  // Timing: svc, then raw (each after a warm-up), then pgbench for PostgreSQL.
  if (chosen && svc.alive()) {
    const body = JSON.stringify({ query: v.graphql });
    if (WARMUP > 0) await load({ url: svcUrl, method: 'POST', body, pids: [svc.pid], duration: WARMUP });
    res.svc = await load({ url: svcUrl, method: 'POST', body, pids: [svc.pid], duration: DURATION });
    log(`  svc: ${fmt(res.svc.rps, 0)} req/s, p50 ${fmt(res.svc.p50, 0)} ms, p99 ${fmt(res.svc.p99, 0)} ms, cpu ${fmt(res.svc.cpuMsPerReq, 3)} ms/req${res.svc.errors ? `, ${res.svc.errors} errors` : ''}`);
    if (!svc.alive()) res.svcError = `svc exited during the run:\n${logTail(svc.logFile, 5)}`;
  }
  if (rawOk) {
    const url = `${raw.url}/${encodeURIComponent(v.id)}`;
    if (WARMUP > 0) await load({ url, pids: [raw.pid], duration: WARMUP });
    res.raw = await load({ url, pids: [raw.pid], duration: DURATION });
    log(`  raw: ${fmt(res.raw.rps, 0)} req/s, p50 ${fmt(res.raw.p50, 0)} ms, p99 ${fmt(res.raw.p99, 0)} ms, cpu ${fmt(res.raw.cpuMsPerReq, 3)} ms/req${res.raw.errors ? `, ${res.raw.errors} errors` : ''}`);
  }
  if (engine === 'postgres') {
    res.pgbench = runPgbench(pgUrl, v.sql, join(work, `pgbench-${v.id}.sql`));
    log(`  pgbench -M prepared: ${res.pgbench.error ? `failed: ${res.pgbench.error}` : `${fmt(res.pgbench.tps, 0)} tps, latency avg ${res.pgbench.latencyAvgMs} ms`}`);
  }
  if (res.svc && res.raw) res.ratio = res.svc.rps / res.raw.rps;
  if (res.svc && res.pgbench?.tps) res.ratioPgbench = res.svc.rps / res.pgbench.tps;
}

/** The message of the last error svc logged (pino JSON lines), to explain an "internal error". */
function lastLoggedError(file, from) {
  let text = '';
  try {
    text = readFileSync(file).subarray(from).toString('utf8');
  } catch {
    return null;
  }
  const lines = text.trim().split('\n').reverse();
  for (const l of lines) {
    try {
      const j = JSON.parse(l);
      const m = j.err?.message ?? (j.level >= 50 ? j.msg : null);
      if (m) return `${j.err?.type ? `${j.err.type}: ` : ''}${m}`.slice(0, 200);
    } catch {
      // not a JSON line
    }
  }
  return null;
}

function evaluateTargets(results) {
  const out = [];
  for (const t of TARGETS) {
    for (const r of results.filter((x) => x.case === t.case && (t.engine === '*' || x.engine === t.engine))) {
      const value = t.metric === 'ratio' ? r.ratio : r.svc?.cpuMsPerReq;
      const exact = r.variant === variants(r.engine, r.case)[0].id;
      const status = value === undefined || value === null ? 'n/a' : t.ok(value) ? 'PASS' : 'MISS';
      out.push({ target: t.label, engine: r.engine, case: r.case, value: value ?? null, status, ...(exact ? {} : { note: `measured on variant ${r.variant}` }), ...(r.svcError ? { reason: r.svcError } : {}) });
    }
  }
  return out;
}

function fileSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function gitHead() {
  // Read, never run git: the HEAD ref of the checkout.
  try {
    const head = readFileSync(join(repo, '.git', 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    const file = join(repo, '.git', ref);
    if (existsSync(file)) return `${ref.replace('refs/heads/', '')}@${readFileSync(file, 'utf8').trim().slice(0, 12)}`;
    const packed = readFileSync(join(repo, '.git', 'packed-refs'), 'utf8').split('\n').find((l) => l.endsWith(` ${ref}`));
    return packed ? `${ref.replace('refs/heads/', '')}@${packed.slice(0, 12)}` : ref;
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ printing
function fmt(v, digits = 1) {
  if (v === null || v === undefined || Number.isNaN(v)) return '-';
  return v.toFixed(digits);
}

function printTable(report) {
  const rows = [];
  const head = ['engine', 'case', 'svc req/s', 'p50 ms', 'p99 ms', 'cpu ms/req', 'raw req/s', 'p50 ms', 'p99 ms', 'cpu ms/req', 'svc/raw', 'target', 'pgbench tps', 'rows'];
  const notes = [];
  for (const r of report.results) {
    const targets = targetsFor(r.engine, r.case).map((t) => {
      const v = t.metric === 'ratio' ? r.ratio : r.svc?.cpuMsPerReq;
      return `${t.show} ${v === undefined || v === null ? 'n/a' : t.ok(v) ? 'PASS' : 'MISS'}`;
    });
    const rowsCell = r.correctness ? (r.correctness.ok ? 'same' : 'DIFFER') : '-';
    const caseCell = r.note ? `${r.case}*` : r.case;
    if (r.note) notes.push(`${r.engine} ${r.case}*: ${r.note}`);
    const rawCells = r.raw
      ? [fmt(r.raw.rps, 0), fmt(r.raw.p50, 0), fmt(r.raw.p99, 0), fmt(r.raw.cpuMsPerReq, 3)]
      : [r.rawError ? 'error' : '-', '-', '-', '-'];
    if (!r.raw && r.rawError) notes.push(`${r.engine} ${r.case} raw: ${r.rawError.split('\n')[0]}`);
    const pgb = r.engine !== 'postgres' ? '' : r.pgbench?.tps ? fmt(r.pgbench.tps, 0) : r.pgbench?.error ? 'error' : '-';
    if (r.pgbench?.error) notes.push(`${r.engine} ${r.case} pgbench: ${r.pgbench.error}`);
    if (r.svc) {
      rows.push([r.engine, caseCell, fmt(r.svc.rps, 0), fmt(r.svc.p50, 0), fmt(r.svc.p99, 0), fmt(r.svc.cpuMsPerReq, 3), ...rawCells,
        r.ratio ? `${fmt(r.ratio, 2)}x` : '-', targets.join(' '), pgb, rowsCell]);
      if (r.svc.errors) notes.push(`${r.engine} ${r.case}: ${r.svc.errors} svc requests failed during the run`);
      if (r.svcError) notes.push(`${r.engine} ${r.case}: ${r.svcError.split('\n')[0]}`);
    } else {
      // The table names the blocking error without its leading field name; the note has it whole.
      const msg = (r.svcError ?? 'no answer').split('\n')[0];
      let cell = `not supported yet: ${msg.replace(/^"[^"]*": /, '').replace(/ \[svc log: .*\]$/, '')}`;
      if (cell.length > 72) cell = `${cell.slice(0, 69)}...`;
      rows.push([r.engine, caseCell, { span: cell }, ...rawCells, '-', targets.join(' '), pgb, rowsCell]);
      const all = Object.entries(r.variantErrors ?? {});
      notes.push(`${r.engine} ${r.case} svc: ${all.length > 1 ? all.map(([id, m]) => `${id}: ${m}`).join(' | ') : msg}`);
    }
  }
  // Column widths over the plain cells; a spanning cell covers the four svc columns (widening the
  // last of them when the message needs it).
  const widths = head.map((h) => h.length);
  for (const row of rows) {
    let i = 0;
    for (const cell of row) {
      if (typeof cell === 'object') i += 4;
      else widths[i] = Math.max(widths[i], String(cell).length), i++;
    }
  }
  for (const row of rows) {
    const span = row.find((c) => typeof c === 'object');
    if (!span) continue;
    const have = widths.slice(2, 6).reduce((a, b) => a + b, 0) + 3 * 3;
    if (span.span.length > have) widths[5] += span.span.length - have;
  }
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 12]);
  const pad = (s, i) => (numeric.has(i) ? String(s).padStart(widths[i]) : String(s).padEnd(widths[i]));
  const spanWidth = widths.slice(2, 6).reduce((a, b) => a + b, 0) + 3 * 3;
  const line = (row) => {
    const parts = [];
    let i = 0;
    for (const cell of row) {
      if (typeof cell === 'object') {
        const s = cell.span.length > spanWidth ? `${cell.span.slice(0, spanWidth - 3)}...` : cell.span;
        parts.push(s.padEnd(spanWidth));
        i += 4;
      } else parts.push(pad(cell, i++));
    }
    return parts.join(' | ');
  };
  const sep = widths.map((w) => '-'.repeat(w)).join('-+-');
  console.log('');
  console.log(`svc benchmark  ${report.date}  sf ${report.sf}  ${report.duration_s} s/case  ${report.connections} connections  ${report.machine.cpus} CPUs  ${report.commit ?? ''}`);
  console.log('(svc = GraphQL through svc; raw = the same SQL behind a minimal node:http endpoint; cpu = CPU of that server process per request)');
  console.log(line(head));
  console.log(sep);
  for (const row of rows) console.log(line(row));
  console.log('');
  for (const n of [...new Set(notes)]) console.log(`  note: ${n}`);
  for (const r of report.results.filter((x) => x.correctness && !x.correctness.ok)) {
    console.log(`  rows differ for ${r.engine} ${r.case}: ${r.correctness.differences.slice(0, 3).join('; ')}`);
  }
  for (const r of report.results.filter((x) => x.engine === 'postgres' && (x.svc || x.raw))) {
    console.log(`  PostgreSQL server CPU per request, ${r.case}: svc ${fmt(r.svc?.pgCpuMsPerReq, 3)} ms, raw ${fmt(r.raw?.pgCpuMsPerReq, 3)} ms`);
  }
  console.log('Targets (measured, not asserted):');
  for (const t of report.targets) {
    const v = t.value === null ? 'n/a' : t.target.includes('CPU') ? `${fmt(t.value, 3)} ms` : `${fmt(t.value, 2)}x`;
    console.log(`  ${t.status.padEnd(4)} ${t.target} [${t.engine}]: ${v}${t.note ? ` (${t.note})` : ''}${t.status === 'n/a' && t.reason ? ` (${t.reason.split('\n')[0]})` : ''}`);
  }
}

main()
  .catch((e) => {
    console.error(`bench: ${e.stack ?? e.message}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    if (!interrupted) await cleanup();
  });
