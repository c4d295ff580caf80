#!/usr/bin/env node
// `node bench/pg-cost.mjs a.sql[=params.json] b.sql ...`: PostgreSQL CPU per execution of each
// statement, measured on the server process of one connection (/proc/<backend pid>/stat), so other
// load on the machine changes the wall time but not the figure. Each statement is prepared once and
// run PG_COST_RUNS times (default 1000) per round, rounds interleaved (PG_COST_ROUNDS, default 3);
// medians are printed. Parameters come from a JSON array file after `=`.
// Environment: PG_COST_URL (default the bench database, postgres://postgres@127.0.0.1:5432/svc_bench_tpch).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import pg from 'pg';
import { cpuSeconds } from './lib/proc.mjs';

const url = process.env.PG_COST_URL ?? 'postgres://postgres@127.0.0.1:5432/svc_bench_tpch';
const runs = Number(process.env.PG_COST_RUNS ?? 1000);
const rounds = Number(process.env.PG_COST_ROUNDS ?? 3);
const statements = process.argv.slice(2).map((arg, i) => {
  const [file, params] = arg.split('=');
  const sql = readFileSync(file, 'utf8').trim().replace(/;$/, '');
  return { name: basename(file), sql, params: params ? JSON.parse(readFileSync(params, 'utf8')) : [], stmt: `cost_${i}`, cpu: [], wall: [] };
});
if (!statements.length) throw new Error('usage: node bench/pg-cost.mjs a.sql[=params.json] ...');

const client = new pg.Client({ connectionString: url, application_name: 'svc-pg-cost' });
await client.connect();
const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
const text = { getTypeParser: () => (v) => v };
const run = (s) => client.query({ name: s.stmt, text: s.sql, values: s.params, types: text });
for (const s of statements) {
  // Warm-up: past the custom plans PostgreSQL makes for the first executions of a prepared statement.
  for (let i = 0; i < 20; i++) await run(s);
  s.bytes = String(Object.values((await run(s)).rows[0] ?? {})[0] ?? '').length;
}
for (let r = 0; r < rounds; r++) {
  for (const s of statements) {
    const c0 = cpuSeconds(pid);
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) await run(s);
    s.wall.push((performance.now() - t0) / runs);
    s.cpu.push(((cpuSeconds(pid) - c0) * 1000) / runs);
  }
}
await client.end();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`PostgreSQL CPU per execution (median and lowest of ${rounds} rounds of ${runs}; one connection; interference only adds, so the lowest is the steadier figure):`);
for (const s of statements) {
  console.log(`  ${s.name.padEnd(28)} cpu ${median(s.cpu).toFixed(3)} ms (min ${Math.min(...s.cpu).toFixed(3)})  wall ${median(s.wall).toFixed(3)} ms  result ${s.bytes} chars  [${s.cpu.map((c) => c.toFixed(3)).join(' ')}]`);
}
