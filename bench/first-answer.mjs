#!/usr/bin/env node
// Time to first answer: runs a start command (default `npm start`) on a free port and reports the
// seconds until GET /health answers and until POST /query answers a real query of the example shop
// (rows read from its DuckDB file, no errors), then how long each of the next 19 answers took (work
// the server still did after /health would slow them). Used for docs/operations.md "Starting" and
// the README's quick start.
//
//   node bench/first-answer.mjs            # npm start
//   node bench/first-answer.mjs node dist/src/main.js
//   FIRST_ANSWER_QUERY='{ __typename }' node bench/first-answer.mjs   # another query
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './lib/proc.mjs';

const QUERY = process.env.FIRST_ANSWER_QUERY ?? '{ shop_customers(limit: 1) { name } }';
const [cmd, ...args] = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'start'];
const port = Number(process.env.FIRST_ANSWER_PORT) || (await freePort());
const dir = mkdtempSync(join(tmpdir(), 'svc-first-answer-'));
const started = performance.now();
// Own process group, so that stopping `npm start` stops the server it started too.
const out = openSync(join(dir, 'svc.log'), 'w');
const child = spawn(cmd, args, {
  detached: true,
  stdio: ['ignore', out, out],
  env: { MAX_REQUESTS_PER_CALLER: '0', ...process.env, BIND: `127.0.0.1:${port}`, LOG_LEVEL: 'warn' },
});
let exited = false;
const done = new Promise((resolve) => child.on('exit', () => resolve((exited = true))));

const post = () => fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY }) })
  .then(async (r) => (r.ok ? r.json() : {}));
let health = null;
let seconds = null;
// GET /health first (the listener is open and the start-up work done), then the query.
while (!exited && performance.now() - started < 180_000) {
  try {
    if (health === null && (await fetch(`http://127.0.0.1:${port}/health`)).ok) health = (performance.now() - started) / 1000;
    if (health !== null) {
      const body = await post();
      if (body.data && !body.errors) {
        seconds = (performance.now() - started) / 1000;
        break;
      }
    }
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, health === null ? 20 : 50));
}
// The next 19 answers one after the other: whatever the server still did after /health would show here.
const next = [];
for (let i = 0; seconds !== null && !exited && i < 19; i++) {
  const t = performance.now();
  await post();
  next.push(performance.now() - t);
}
if (!exited) process.kill(-child.pid, 'SIGTERM');
await done;
if (seconds === null) {
  console.error(`first-answer: no answer (log: ${join(dir, 'svc.log')})`);
  process.exit(1);
}
console.log(`${[cmd, ...args].join(' ')}: /health after ${health.toFixed(2)} s, first answer after ${seconds.toFixed(2)} s; the next 19 answers took ${next.map((ms) => ms.toFixed(0)).join(' ')} ms`);
