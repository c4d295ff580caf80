#!/usr/bin/env node
// `node bench/duckdb-statement.mjs`: CPU per execution (µs, the whole process: DuckDB's threads and
// the main thread) of DuckDB Q0's point read in the shapes issue 30 weighed, on the bench file
// (`npm run bench` builds it), one connection, threads 1 as svc sets them on 2 CPUs. Rounds are
// interleaved; medians are printed. Shapes:
// - svc:       svc's statement, the key bound as a parameter. DuckDB 1.5 binds and plans it again on
//              every execution (PreparedStatement::CanCachePlan refuses a plan that reads a table).
// - literal:   the same statement with the key written into it: its plan is kept. Reference only:
//              svc never writes a value into SQL text.
// - select1:   `SELECT 1`: what any statement costs through the driver.
// - tablefn:   no parameter, the key read from a table function svc would register: the plan is kept,
//              but DuckDB calls the function's init and main (twice) on the Node thread per execution.
// - temptable: no parameter, the key appended to the connection's temporary table, read by a kept
//              plan, deleted after: an appender flush and a second statement per execution.
// Environment: BENCH_SF (default 0.1), STATEMENT_RUNS (per round, default 400), STATEMENT_ROUNDS (default 5),
// STATEMENT_SHAPES (comma-separated, default all).
import { execSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, DuckDBTableFunction, INTEGER } from '@duckdb/node-api';
import { duckPath } from './lib/data.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.STATEMENT_RUNS ?? 400);
const rounds = Number(process.env.STATEMENT_ROUNDS ?? 5);
const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const c = await instance.connect();
await c.run(`ATTACH '${duckPath(repo, Number(process.env.BENCH_SF ?? 0.1))}' AS tpch_duck (READ_ONLY)`);
const q0 = (key) => `SELECT to_json({'r_regionkey': "t0"."r_regionkey", 'r_name': "t0"."r_name", 'r_comment': "t0"."r_comment"}) AS result FROM "tpch_duck"."main"."region" AS "t0" WHERE "t0"."r_regionkey" = ${key} LIMIT 1`;
// svc's read of the one-row result (DuckDbSource.queryText).
const read = async (p) => {
  const r = await p.run();
  const chunk = r.chunkCount ? r.getChunk(0) : null;
  return chunk?.rowCount ? String(chunk.getColumnVector(0).getItem(0)) : null;
};

const shapes = {};
{
  const p = await c.prepare(q0('CAST($1 AS INTEGER)'));
  shapes.svc = (key) => (p.bind([key]), read(p));
}
{
  const byKey = new Map();
  shapes.literal = async (key) => {
    if (!byKey.has(key)) byKey.set(key, await c.prepare(q0(String(key))));
    return read(byKey.get(key));
  };
}
{
  const p = await c.prepare('SELECT 1');
  shapes.select1 = () => read(p);
}
{
  let current;
  const fn = DuckDBTableFunction.create({
    name: 'bench_key',
    bindFunction: (info) => info.addResultColumn('v', INTEGER),
    initFunction: (info) => info.setInitData({ done: false }),
    mainFunction: (info, out) => {
      const state = info.initData;
      out.rowCount = state.done ? 0 : 1;
      if (!state.done) out.setColumnValues(0, [current]);
      state.done = true;
    },
  });
  c.registerTableFunction(fn);
  const p = await c.prepare(q0('(SELECT v FROM bench_key())'));
  shapes.tablefn = (key) => ((current = key), read(p));
}
{
  await c.run('CREATE TEMP TABLE bench_key_t (v INTEGER)');
  const appender = await c.createAppender('bench_key_t', null, 'temp');
  const p = await c.prepare(q0('(SELECT v FROM temp.main.bench_key_t)'));
  const clear = await c.prepare('DELETE FROM temp.main.bench_key_t');
  shapes.temptable = async (key) => {
    appender.appendInteger(key);
    appender.endRow();
    appender.flushSync();
    try {
      return await read(p);
    } finally {
      await clear.run();
    }
  };
}

const names = process.env.STATEMENT_SHAPES ? process.env.STATEMENT_SHAPES.split(',') : Object.keys(shapes);
// Every shape answers the same text for the same key (select1 aside).
for (const key of [1, 3]) {
  const answers = new Set();
  for (const n of names.filter((x) => x !== 'select1')) answers.add(await shapes[n](key));
  if (answers.size > 1) throw new Error(`shapes disagree for key ${key}: ${[...answers].join(' | ')}`);
}
const load = () => execSync('uptime').toString().trim().replace(/.*load average: /, '');
console.log(`load before: ${load()}`);
const cpu = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < rounds; round++) {
  for (const n of names) {
    for (let i = 0; i < 50; i++) await shapes[n](i % 5);
    const before = process.cpuUsage();
    for (let i = 0; i < runs; i++) await shapes[n](i % 5);
    const used = process.cpuUsage(before);
    cpu[n].push((used.user + used.system) / runs);
  }
}
console.log(`load after: ${load()}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const n of names) console.log(`${n.padEnd(10)} ${median(cpu[n]).toFixed(0).padStart(5)} µs CPU per execution (rounds: ${cpu[n].map((x) => x.toFixed(0)).join(' ')})`);
c.closeSync();
instance.closeSync();
