#!/usr/bin/env node
// `npm run bench:fairness` (issues 15 and 31): while anonymous clients send an expensive or abusive
// request in a loop, does a plain `{ shop_tags { id } }` from a signed-in client (an API key) keep
// its latency? Starts the built server on loopback over the example catalog (DuckDB, 4 connections,
// QUERY_TIMEOUT=5s as in the red team's run), measures the probe alone, then under each attack with
// more attackers than the pool has connections (default 8), and prints p50/p99, the ratio to the
// probe alone (target: p99 within 3x), and what the server does once the attackers have stopped:
// its RSS and CPU over the next seconds (does it go idle?). At the end it sends SIGTERM and times
// the exit. Bounded in time: FAIRNESS_DURATION seconds (default 5) per phase plus 3 s after each,
// 9 phases: about two minutes.
//
// The attackers run in a child process of their own (FAIRNESS_ATTACKER_NICE: its CPU priority, default 0),
// each with its own connection, so building and sending their large bodies does not delay the measuring
// loop. Environment: FAIRNESS_DURATION, FAIRNESS_ATTACKERS
// (concurrent anonymous attackers, default 8), FAIRNESS_ONLY (comma list of attack names).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { clockTicks, cpuSeconds, freePort, logTail, startChild, stopChild, waitHealthy } from './lib/proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const DURATION = Number(process.env.FAIRNESS_DURATION ?? '5');
const ATTACKERS = Number(process.env.FAIRNESS_ATTACKERS ?? '8');
const NICE = Number(process.env.FAIRNESS_ATTACKER_NICE ?? '0');
/**
 * Loopback addresses the attackers send from (127.0.0.1 ...): 1, they are one anonymous caller
 * (ANONYMOUS_MAX_REQUESTS_PER_ADDRESS: one of them runs at once); as many as attackers, each is a caller of its own.
 */
const ADDRESSES = Number(process.env.FAIRNESS_ADDRESSES ?? '1');
const ONLY = (process.env.FAIRNESS_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
if (!(DURATION > 0) || !(ATTACKERS >= 1) || !(ADDRESSES >= 1 && ADDRESSES <= 250) || !(Number.isInteger(NICE) && NICE >= 0 && NICE <= 19)) {
  console.error('fairness: FAIRNESS_DURATION, FAIRNESS_ATTACKERS and FAIRNESS_ADDRESSES (at most 250) must be positive, FAIRNESS_ATTACKER_NICE 0 to 19');
  process.exit(2);
}

const PLAIN = JSON.stringify({ query: '{ shop_tags { id } }' });
/** The probe signs in (a role of its own for admission); the attackers are anonymous. */
const PROBE_HEADERS = { 'content-type': 'application/json', 'x-svc-api-key': 'fairness-probe' };
/** The server's default (src/config/schema.ts, built into dist/): the bench runs it. */
const { settingsShape } = await import(join(repo, 'dist', 'src', 'config', 'schema.js'));
/**
 * The token limit the anonymous attackers have: the smaller of MAX_TOKENS and ANONYMOUS_MAX_TOKENS
 * (0: MAX_TOKENS alone), as the server applies them. The documents "at MAX_TOKENS" are at this one:
 * a longer one is refused before it is parsed.
 */
const MAX_TOKENS = settingsShape.MAX_TOKENS.parse(process.env.MAX_TOKENS);
const ANONYMOUS_MAX_TOKENS = settingsShape.ANONYMOUS_MAX_TOKENS?.parse(process.env.ANONYMOUS_MAX_TOKENS) ?? 0;
const ATTACKER_TOKENS = ANONYMOUS_MAX_TOKENS > 0 && (MAX_TOKENS === 0 || ANONYMOUS_MAX_TOKENS < MAX_TOKENS) ? ANONYMOUS_MAX_TOKENS : MAX_TOKENS;
/**
 * The server's memory bounds (issue 31: RSS stays under them): DuckDB's memory_limit and the Node heap
 * (--max-old-space-size). Their sum is the bound each phase's RSS peak is printed against.
 */
const DUCKDB_MB = Number(process.env.FAIRNESS_DUCKDB_MB ?? '1024');
const HEAP_MB = Number(process.env.FAIRNESS_HEAP_MB ?? '1024');
const BOUND_MB = DUCKDB_MB + HEAP_MB;

/** The attacks of issue 15, each one request body (sent again and again) and its path. */
function attacks() {
  const fragments = Array.from({ length: 22 }, (_, i) => (i === 21 ? 'fragment F21 on Query { shop_tags { id } }' : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`));
  const query = (q, variables) => JSON.stringify({ query: q, ...(variables ? { variables } : {}) });
  let deep = '{id: {eq: 1}}';
  for (let i = 0; i < 10_000; i++) deep = `{_and: [${deep}]}`;
  // 16 tokens around the filters, 9 in each: a document just under the limit.
  const orAtLimit = `{ shop_tags(filter: {_or: [${'{id: {eq: 1}} '.repeat(Math.floor((ATTACKER_TOKENS - 16) / 9))}]}) { id } }`;
  const ids200k = Array.from({ length: 200_000 }, (_, i) => i);
  return [
    // Issue 31: slow statements holding every DuckDB connection until QUERY_TIMEOUT.
    { name: 'slow-series-8x', path: '/query', body: query('{ function { shop_series(start: 1, stop: 2000000000) { generate_series } } }') },
    { name: 'ipc-slow-series', path: '/ipc', body: query('{ function { shop_series(start: 1, stop: 2000000000) { generate_series } } }') },
    { name: 'ipc-flood', path: '/ipc', body: query('{ shop_customers { id name orders { id items { line } } } }') },
    { name: 'document-at-MAX_TOKENS', path: '/query', body: query(orAtLimit) },
    // The same, each request a new text (a comment line with a counter) as an attacker would send: the
    // server's caches of parsed and checked documents do not help, every one is parsed and validated.
    { name: 'documents-at-MAX_TOKENS-unique', path: '/query', body: query(orAtLimit), unique: true },
    { name: 'in-list-200k-variables', path: '/query', body: query('query($ids: [Int!]) { shop_orders(filter: {id: {in: $ids}}) { id } }', { ids: ids200k }) },
    { name: 'fragments-22-levels', path: '/query', body: query(`query { ...F0 }\n${fragments.join('\n')}`) },
    { name: 'aliases-5000-root', path: '/query', body: query(`{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: shop_tags { id }`).join(' ')} }`) },
    { name: 'and-10000-deep', path: '/query', body: query(`{ shop_tags(filter: ${deep}) { id } }`) },
    {
      name: 'jq-querySvc-5000',
      path: '/jq-query',
      body: JSON.stringify({ jq: '[range(5000) | querySvc("query($id: Int!) { shop_tags_by_pk(id: $id) { id } }"; {id: .})] | length', query: { query: '{ shop_tags { id } }' } }),
    },
  ].filter((a) => !ONLY.length || ONLY.includes(a.name));
}

// The attackers: one child process running every attacking client, each sending its body in a loop until told
// to stop and counting answers by status. FAIRNESS_ATTACKER_NICE (default 0) lowers its CPU priority: on a
// two-core machine the attackers' own CPU (building and reading megabyte bodies) is taken from the server and
// the probe, which an attacker on another machine does not do; at 19 they send only what CPU the server leaves
// them, so read the count of answers they received beside the ratio.
const ATTACKER = `
const http = require('node:http');
let stop = false;
const loop = async ({ url, body: text, unique }, localAddress) => {
  const statuses = {};
  let first;
  // From an address of its own (node:http: fetch cannot pick the local address), else fetch.
  const agent = localAddress && new http.Agent({ keepAlive: true, localAddress });
  // A new text each time when asked (a comment line before the document): no cache of the server answers it.
  let sent = 0;
  const body = () => (unique ? text.replace('{"query":"', '{"query":"# ' + sent++ + '\\\\n') : text);
  const post = () => new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, text: async () => Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body());
  });
  while (!stop) {
    try {
      const r = agent ? await post() : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body() });
      const answer = await r.text();
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      first ??= answer.slice(0, 160);
    } catch (e) {
      statuses.error = (statuses.error ?? 0) + 1;
      first ??= String(e.message);
    }
  }
  return { statuses, first };
};
process.once('message', (attack) => {
  process.once('message', () => { stop = true; });
  const loops = Array.from({ length: attack.count }, (_, i) => loop(attack, attack.addresses > 1 ? '127.0.0.' + (1 + (i % attack.addresses)) : undefined));
  Promise.all(loops).then((results) => {
    const statuses = {};
    for (const r of results) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    process.send({ statuses, first: results[0]?.first ?? '' }, () => process.exit(0));
  });
});
`;

function startAttack(url, body, unique = false) {
  const child = spawn(process.execPath, ['-e', ATTACKER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (NICE) setPriority(child.pid, NICE);
  child.send({ url, body, unique, count: ATTACKERS, addresses: ADDRESSES });
  return async () => {
    const result = new Promise((res) => child.once('message', res));
    child.send('stop');
    const answer = await result;
    await new Promise((res) => (child.exitCode === null ? child.once('exit', res) : res()));
    return answer;
  };
}

/** The plain query, one after another, for `seconds`; latencies in ms. */
async function measure(url, seconds) {
  const latencies = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    const r = await fetch(url, { method: 'POST', headers: PROBE_HEADERS, body: PLAIN });
    const text = await r.text();
    latencies.push(performance.now() - t0);
    if (r.status !== 200 || !text.includes('"shop_tags"')) failed++;
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { n: latencies.length, failed, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? NaN };
}

/** Server RSS (MB) from /proc, or NaN once it is gone. */
function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples the server's RSS every 50 ms until the function returned is called; that gives the peak (MB). */
function rssPeak(pid) {
  let peak = rssMb(pid);
  const timer = setInterval(() => { peak = Math.max(peak, rssMb(pid) || 0); }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb(pid) || 0);
  };
}

/**
 * CPU seconds of the server's main thread (the event loop every request shares), from its task's stat
 * (utime + stime, as cpuSeconds reads the whole process's), or null once it is gone.
 */
function mainThreadSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / clockTicks();
  } catch {
    return null;
  }
}

/** The server's CPU share (of one core) while `run` runs: all its threads, and the main thread alone. */
async function cpuWhile(pid, run) {
  const t0 = performance.now();
  const all0 = cpuSeconds(pid);
  const main0 = mainThreadSeconds(pid);
  const result = await run();
  const s = (performance.now() - t0) / 1000;
  const all1 = cpuSeconds(pid);
  const main1 = mainThreadSeconds(pid);
  return { result, cpuAll: all0 === null || all1 === null ? NaN : (all1 - all0) / s, cpuMain: main0 === null || main1 === null ? NaN : (main1 - main0) / s };
}

/** The server's CPU share (of one core) over `ms`, once the attackers have stopped: is it idle? */
async function after(pid, ms) {
  const c0 = cpuSeconds(pid);
  await new Promise((r) => setTimeout(r, ms));
  const c1 = cpuSeconds(pid);
  return { cpu: c0 === null || c1 === null ? NaN : (c1 - c0) / (ms / 1000), rss: rssMb(pid) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fairness-'));
  const port = Number(process.env.FAIRNESS_PORT) || await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = join(dir, 'svc.yaml');
  writeFileSync(config, 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - {key: "fairness-probe", role: admin, username: probe}\n');
  const server = startChild({
    name: 'svc',
    cmd: process.execPath,
    args: [`--max-old-space-size=${HEAP_MB}`, join(repo, 'dist', 'src', 'main.js')],
    cwd: dir,
    env: {
      BIND: `127.0.0.1:${port}`, CATALOGS_DIR: join(repo, 'catalogs'), CORE_DB_PATH: join(dir, 'core.duckdb'), LOG_LEVEL: 'warn', CONFIG_FILE: config,
      QUERY_TIMEOUT: process.env.QUERY_TIMEOUT ?? '5s', DUCKDB_MEMORY_LIMIT: `${DUCKDB_MB}MB`,
      // The server's default (docs/configuration.md), which bench/lib/proc.mjs turns off for throughput benches.
      MAX_REQUESTS_PER_CALLER: process.env.MAX_REQUESTS_PER_CALLER ?? '4',
      ANONYMOUS_MAX_REQUESTS: process.env.ANONYMOUS_MAX_REQUESTS ?? '4',
      ANONYMOUS_MAX_REQUESTS_PER_ADDRESS: process.env.ANONYMOUS_MAX_REQUESTS_PER_ADDRESS ?? '1',
      ANONYMOUS_REFUSAL_HOLD: process.env.ANONYMOUS_REFUSAL_HOLD ?? '250ms',
      MAX_TOKENS: String(MAX_TOKENS),
      ANONYMOUS_MAX_TOKENS: String(ANONYMOUS_MAX_TOKENS),
      ANONYMOUS_SOURCE_SHARE: process.env.ANONYMOUS_SOURCE_SHARE ?? '0.25',
      ANONYMOUS_MAX_RESPONSE_ROWS: process.env.ANONYMOUS_MAX_RESPONSE_ROWS ?? '10000',
      ANONYMOUS_MAX_RESPONSE_BYTES: process.env.ANONYMOUS_MAX_RESPONSE_BYTES ?? String(8 * 1024 * 1024),
    },
    logFile: join(dir, 'svc.log'),
  });
  const rows = [];
  let stopped = '';
  try {
    await waitHealthy(`${base}/health`, server);
    await measure(`${base}/query`, 1); // warm-up
    const { result: alone, cpuAll, cpuMain } = await cpuWhile(server.pid, () => measure(`${base}/query`, DURATION));
    const idle = await after(server.pid, 1000);
    rows.push({ phase: 'probe alone', ...alone, cpuAll, cpuMain, attacker: '', rssDuring: idle.rss, rssPeak: idle.rss, cpuAfter: idle.cpu, rssAfter: idle.rss });
    console.log(`[fairness] probe alone: ${alone.n} requests, p50 ${alone.p50.toFixed(2)} ms, p99 ${alone.p99.toFixed(2)} ms, RSS ${idle.rss.toFixed(0)} MB`);
    for (const a of attacks()) {
      const peak = rssPeak(server.pid);
      const stopAttack = startAttack(`${base}${a.path}`, a.body, a.unique);
      await new Promise((r) => setTimeout(r, 300));
      const { result: loaded, cpuAll, cpuMain } = await cpuWhile(server.pid, () => measure(`${base}/query`, DURATION));
      const rssDuring = rssMb(server.pid);
      const attacker = await stopAttack();
      if (!server.alive()) throw new Error(`the server died during ${a.name}:\n${logTail(server.logFile)}`);
      // Statements the attackers left behind: does the server go idle once they have gone?
      await new Promise((r) => setTimeout(r, 1000));
      const quiet = await after(server.pid, 2000);
      const rssTop = peak();
      const answers = Object.entries(attacker.statuses).map(([k, v]) => `${v}x${k}`).join(' ');
      rows.push({ phase: a.name, ...loaded, cpuAll, cpuMain, rssDuring, rssPeak: rssTop, cpuAfter: quiet.cpu, rssAfter: quiet.rss, attacker: `${answers}: ${attacker.first.replace(/\s+/g, ' ').slice(0, 110)}` });
      console.log(`[fairness] ${a.name}: p99 ${loaded.p99.toFixed(2)} ms (${(loaded.p99 / alone.p99).toFixed(1)}x), RSS ${rssDuring.toFixed(0)} MB (peak ${rssTop.toFixed(0)} of ${BOUND_MB}), CPU after ${(quiet.cpu * 100).toFixed(0)}%, attackers got ${answers}`);
    }
    // A slow statement running when SIGTERM comes: how long until the process has gone?
    const slow = startAttack(`${base}/query`, JSON.stringify({ query: '{ function { shop_series(start: 1, stop: 2000000000) { generate_series } } }' }));
    await new Promise((r) => setTimeout(r, 1000));
    const t0 = performance.now();
    server.child.kill('SIGTERM');
    const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('still running after 60 s'), 60_000))]);
    stopped = `SIGTERM with attackers running: exit ${code} after ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    await slow().catch(() => undefined);
  } finally {
    await stopChild(server);
    rmSync(dir, { recursive: true, force: true });
  }
  const unloaded = rows[0].p99;
  console.log(`\nprobe: { shop_tags { id } } with an API key, one after another; ${ATTACKERS} anonymous attackers from ${ADDRESSES} address(es) at nice ${NICE}, ${DURATION} s per phase; QUERY_TIMEOUT ${process.env.QUERY_TIMEOUT ?? '5s'}, MAX_REQUESTS_PER_CALLER ${process.env.MAX_REQUESTS_PER_CALLER ?? '4'}, ANONYMOUS_MAX_REQUESTS_PER_ADDRESS ${process.env.ANONYMOUS_MAX_REQUESTS_PER_ADDRESS ?? '1'}, ANONYMOUS_REFUSAL_HOLD ${process.env.ANONYMOUS_REFUSAL_HOLD ?? '250ms'}, documents at ${ATTACKER_TOKENS} tokens (MAX_TOKENS ${MAX_TOKENS}, ANONYMOUS_MAX_TOKENS ${ANONYMOUS_MAX_TOKENS}), 4 DuckDB connections; memory bound ${BOUND_MB} MB = DUCKDB_MEMORY_LIMIT ${DUCKDB_MB} MB + Node heap ${HEAP_MB} MB\n`);
  console.log('| phase | probe requests | failed | p50 ms | p99 ms | p99 / alone | within 3x | server CPU during: all / main thread (1 core) | RSS during MB | RSS peak MB / bound | CPU after (1 core) | RSS after MB | the attackers received |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = r.p99 / unloaded;
    console.log(`| ${r.phase} | ${r.n} | ${r.failed} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${ratio.toFixed(1)}x | ${ratio <= 3 ? 'yes' : 'NO'} | ${(r.cpuAll * 100).toFixed(0)}% / ${(r.cpuMain * 100).toFixed(0)}% | ${r.rssDuring.toFixed(0)} | ${r.rssPeak.toFixed(0)} / ${BOUND_MB}${r.rssPeak > BOUND_MB ? ' OVER' : ''} | ${(r.cpuAfter * 100).toFixed(0)}% | ${r.rssAfter.toFixed(0)} | ${r.attacker.replaceAll('|', '/')} |`);
  }
  console.log(`\n${stopped}`);
}

main().catch((e) => {
  console.error(`fairness: ${e.message}`);
  process.exit(1);
});
