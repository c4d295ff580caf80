// svc built in dist/ as a child process for the multi-source benchmarks: started on a free port with
// the given environment, asked until it answers `readyQuery`, then measured through `measure`
// (median time of N runs and statements per source per request, read from /metrics).
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './proc.mjs';

export async function startSvcProcess({ dir, env, readyQuery = '{ __typename }' }) {
  const port = await freePort();
  const out = openSync(join(dir, 'svc.log'), 'w');
  const child = spawn('node', ['dist/src/main.js'], {
    detached: true, stdio: ['ignore', out, out],
    env: { ...process.env, BIND: `127.0.0.1:${port}`, LOG_LEVEL: 'warn', MAX_REQUESTS_PER_CALLER: '0', CORE_DB_PATH: join(dir, 'core.duckdb'), CACHE_L1_ENABLED: 'false', ...env },
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
      await query(readyQuery);
      break;
    } catch (e) {
      if (i > 600) throw new Error(`no answer (${e.message}); see ${join(dir, 'svc.log')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const statements = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const m = {};
    for (const [, src, n] of text.matchAll(/^svc_statements_total\{source="([^"]+)"\} (\d+)/gm)) m[src] = Number(n);
    return m;
  };
  /** Median ms of `runs` requests of `q` after one warm-up, and statements per source per request. */
  const measure = async (q, runs) => {
    await query(q); // warm: plan cache, connections
    const before = await statements();
    const times = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await query(q);
      times.push(performance.now() - t);
    }
    const after = await statements();
    const perRequest = Object.fromEntries(Object.entries(after).map(([s, n]) => [s, (n - (before[s] ?? 0)) / runs]).filter(([, n]) => n > 0));
    return { median: [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)], perRequest };
  };
  const stop = async () => {
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => child.on('exit', r));
  };
  return { base, query, measure, stop };
}
