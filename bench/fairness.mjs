#!/usr/bin/env node
// `npm run bench:fairness` (issue 15 item 8): while one client sends an expensive or abusive request
// in a loop, does a plain `{ shop_tags { id } }` from another client keep its latency? Starts the
// built server on loopback over the example catalog (DuckDB), measures the plain query alone, then
// under each attack, and prints p50/p99 and the ratio to the unloaded p99 (target: under 10x).
// Bounded in time: FAIRNESS_DURATION seconds (default 5) per phase, 8 phases.
//
// The attacker runs in a worker thread with its own connection, so building and sending its large
// bodies does not delay the measuring loop. Environment: FAIRNESS_DURATION, FAIRNESS_ATTACKERS
// (concurrent attacking connections, default 1), FAIRNESS_ONLY (comma list of attack names).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { freePort, logTail, startChild, stopChild, waitHealthy } from './lib/proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const DURATION = Number(process.env.FAIRNESS_DURATION ?? '5');
const ATTACKERS = Number(process.env.FAIRNESS_ATTACKERS ?? '1');
const ONLY = (process.env.FAIRNESS_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
if (!(DURATION > 0) || !(ATTACKERS >= 1)) {
  console.error('fairness: FAIRNESS_DURATION and FAIRNESS_ATTACKERS must be positive');
  process.exit(2);
}

const PLAIN = JSON.stringify({ query: '{ shop_tags { id } }' });

/** The attacks of issue 15, each one request body (sent again and again) and its path. */
function attacks() {
  const fragments = Array.from({ length: 22 }, (_, i) => (i === 21 ? 'fragment F21 on Query { shop_tags { id } }' : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`));
  const ids = Array.from({ length: 1_000_000 }, (_, i) => i);
  let deep = '{id: {eq: 1}}';
  for (let i = 0; i < 10_000; i++) deep = `{_and: [${deep}]}`;
  const query = (q, variables) => JSON.stringify({ query: q, ...(variables ? { variables } : {}) });
  return [
    { name: 'fragments-22-levels', path: '/query', body: query(`query { ...F0 }\n${fragments.join('\n')}`) },
    { name: 'aliases-5000-root', path: '/query', body: query(`{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: shop_tags { id }`).join(' ')} }`) },
    { name: 'aliases-1000-nested', path: '/query', body: query(`{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: shop_customers { orders { items { product { name } } } }`).join(' ')} }`) },
    { name: 'in-list-1M-variables', path: '/query', body: query('query($ids: [Int!]) { shop_orders(filter: {id: {in: $ids}}) { id } }', { ids }) },
    { name: 'in-list-1M-literal', path: '/query', body: query(`{ shop_orders(filter: {id: {in: [${ids.join(',')}]}}) { id } }`) },
    { name: 'and-10000-deep', path: '/query', body: query(`{ shop_tags(filter: ${deep}) { id } }`) },
    {
      name: 'jq-querySvc-5000',
      path: '/jq-query',
      body: JSON.stringify({ jq: '[range(5000) | querySvc("query($id: Int!) { shop_tags_by_pk(id: $id) { id } }"; {id: .})] | length', query: { query: '{ shop_tags { id } }' } }),
    },
  ].filter((a) => !ONLY.length || ONLY.includes(a.name));
}

// The attacking client: sends its body in a loop until told to stop; counts answers by status.
const ATTACKER = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => { stop = true; });
const statuses = {};
let first;
(async () => {
  while (!stop) {
    try {
      const r = await fetch(workerData.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: workerData.body });
      const text = await r.text();
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      first ??= text.slice(0, 160);
    } catch (e) {
      statuses.error = (statuses.error ?? 0) + 1;
      first ??= String(e.message);
    }
  }
  parentPort.postMessage({ statuses, first });
})();
`;

function startAttack(url, body) {
  const workers = Array.from({ length: ATTACKERS }, () => new Worker(ATTACKER, { eval: true, workerData: { url, body } }));
  return async () => {
    const results = await Promise.all(workers.map((w) => new Promise((res) => { w.once('message', res); w.postMessage('stop'); })));
    await Promise.all(workers.map((w) => w.terminate()));
    const statuses = {};
    for (const r of results) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    return { statuses, first: results[0]?.first ?? '' };
  };
}

/** The plain query, one after another, for `seconds`; latencies in ms. */
async function measure(url, seconds) {
  const latencies = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: PLAIN });
    const text = await r.text();
    latencies.push(performance.now() - t0);
    if (r.status !== 200 || !text.includes('"shop_tags"')) failed++;
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { n: latencies.length, failed, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? NaN };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fairness-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startChild({
    name: 'svc',
    cmd: process.execPath,
    args: [join(repo, 'dist', 'src', 'main.js')],
    cwd: dir,
    env: { BIND: `127.0.0.1:${port}`, CATALOGS_DIR: join(repo, 'catalogs'), CORE_DB_PATH: join(dir, 'core.duckdb'), LOG_LEVEL: 'warn', CONFIG_FILE: '' },
    logFile: join(dir, 'svc.log'),
  });
  const rows = [];
  try {
    await waitHealthy(`${base}/health`, server);
    await measure(`${base}/query`, 1); // warm-up
    const alone = await measure(`${base}/query`, DURATION);
    rows.push({ phase: 'unloaded', ...alone, attacker: '' });
    console.log(`[fairness] unloaded: ${alone.n} requests, p50 ${alone.p50.toFixed(2)} ms, p99 ${alone.p99.toFixed(2)} ms`);
    for (const a of attacks()) {
      const stopAttack = startAttack(`${base}${a.path}`, a.body);
      await new Promise((r) => setTimeout(r, 300));
      const loaded = await measure(`${base}/query`, DURATION);
      const attacker = await stopAttack();
      if (!server.alive()) throw new Error(`the server died during ${a.name}:\n${logTail(server.logFile)}`);
      const answers = Object.entries(attacker.statuses).map(([k, v]) => `${v}x${k}`).join(' ');
      rows.push({ phase: a.name, ...loaded, attacker: `${answers}: ${attacker.first.replace(/\s+/g, ' ').slice(0, 110)}` });
      console.log(`[fairness] ${a.name}: p99 ${loaded.p99.toFixed(2)} ms (${(loaded.p99 / alone.p99).toFixed(1)}x), attacker got ${answers}`);
    }
  } finally {
    await stopChild(server);
    rmSync(dir, { recursive: true, force: true });
  }
  const unloaded = rows[0].p99;
  console.log(`\nplain { shop_tags { id } } while one client (${ATTACKERS} connection${ATTACKERS > 1 ? 's' : ''}) attacks; ${DURATION} s per phase\n`);
  console.log('| phase | requests | failed | p50 ms | p99 ms | p99 / unloaded p99 | under 10x | the attacker received |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = r.p99 / unloaded;
    console.log(`| ${r.phase} | ${r.n} | ${r.failed} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${ratio.toFixed(1)}x | ${ratio < 10 ? 'yes' : 'NO'} | ${r.attacker.replaceAll('|', '/')} |`);
  }
}

main().catch((e) => {
  console.error(`fairness: ${e.message}`);
  process.exit(1);
});
