#!/usr/bin/env node
// `node bench/big-answer.mjs [rows]`: the server's peak RSS while it answers one /query of a
// 1,000,000-row list (issue 30: under 2x the answer's JSON size). Builds a DuckDB file of
// `rows` rows (default 1,000,000) under bench/.data/, serves it as the source `big` from a
// catalog written beside it, sends one request, reads the answer as it streams in (never held
// whole by this client either), and prints the JSON size, the server's RSS before the request and
// its peak (VmHWM) after. Needs `npm run build`.
// Environment: BIG_CHECKOUT (another checkout's dist/ to measure), BIG_PORT (default a free one), BIG_ORDER
// (0: no order_by), BIG_ENV (extra settings of the server, e.g. "DUCKDB_THREADS=1"), BIG_SAVE (a file the first
// answer is written to, to compare two builds or settings byte for byte with `cmp`), BIG_NODE_ARGS (node's own
// flags for the server, e.g. "--max-semi-space-size=2"), BIG_DIR (the server's working directory, kept: a second run with the
// same one starts on the core database the first wrote, as a restarted server does; by default a new one each run).
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { freePort, startChild, stopChild, waitHealthy } from './lib/proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const rows = Number(process.argv[2] ?? 1_000_000);
const data = join(repo, 'bench', '.data');
mkdirSync(data, { recursive: true });
const file = join(data, `big-${rows}.duckdb`);
if (!existsSync(file)) {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  await c.run(`CREATE TABLE big_items (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, qty DECIMAL(15,2) NOT NULL, day DATE NOT NULL, note VARCHAR)`);
  await c.run(`INSERT INTO big_items SELECT i, 'item number ' || i, (i % 1000) / 10 + 0.25, DATE '2020-01-01' + (i % 1500)::INTEGER,
    'a comment of some length about row ' || (i * 7919 % 100003) FROM range(${rows}) t(i)`);
  await c.run('CHECKPOINT');
  c.closeSync();
  instance.closeSync();
}
const dir = process.env.BIG_DIR ? resolve(process.env.BIG_DIR) : mkdtempSync(join(tmpdir(), 'svc-big-'));
const catalog = join(dir, 'catalogs', 'big');
mkdirSync(catalog, { recursive: true });
writeFileSync(join(catalog, 'source.yaml'), `type: duckdb\npath: "${file}"\nprefix: big\nas_module: false\nread_only: true\n`);
writeFileSync(join(catalog, 'schema.graphql'), 'type big_items @table(name: "big_items") {\n  id: Int! @pk\n  name: String!\n  qty: Float!\n  day: Date!\n  note: String\n}\n');

const rss = (pid) => Object.fromEntries(readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').filter((l) => /^Vm(RSS|HWM):/.test(l)).map((l) => [l.split(':')[0], Number(l.split(/\s+/)[1]) * 1024]));
const port = Number(process.env.BIG_PORT) || await freePort();
const checkout = resolve(process.env.BIG_CHECKOUT || repo);
const svc = startChild({
  name: 'svc', cmd: process.execPath, args: [...(process.env.BIG_NODE_ARGS ?? '').split(/\s+/).filter(Boolean), join(checkout, 'dist', 'src', 'main.js')], cwd: dir, logFile: join(dir, 'svc.log'),
  env: { CATALOGS_DIR: join(dir, 'catalogs'), CORE_DB_PATH: join(dir, 'core.duckdb'), DB_PATH: '', BIND: `127.0.0.1:${port}`, LOG_LEVEL: 'warn', ADMIN_UI: 'false', CONFIG_FILE: '',
    ...Object.fromEntries((process.env.BIG_ENV ?? '').split(/\s+/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])) },
});
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
try {
  await waitHealthy(`http://127.0.0.1:${port}/health`, svc);
  // BIG_ORDER=0: without order_by (the database need not sort the rows before the first is sent).
  const order = process.env.BIG_ORDER === '0' ? '' : 'order_by: [{field: "id"}], ';
  const query = `{ big_big_items(${order}limit: ${rows}) { id name qty day note } }`;
  const ask = async (save) => {
    const res = await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    // Written as it comes, never pausing the body: undici's reader paused by a file stream's
    // backpressure spent seconds re-joining its socket buffer (fromList), slower than the server.
    const out = save ? openSync(save, 'w') : undefined;
    let size = 0;
    let head = '';
    let tail = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      size += chunk.length;
      const text = decoder.decode(chunk, { stream: true });
      if (head.length < 200) head += text.slice(0, 200);
      tail = (tail + text).slice(-200);
      if (out !== undefined) writeSync(out, chunk);
    }
    if (out !== undefined) closeSync(out);
    return { status: res.status, size, head, tail };
  };
  // A small answer first: the server is warm (schema, plan) before the peak is read.
  await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ big_big_items(limit: 10) { id } }' }) });
  // Twice: the first answer also fills DuckDB's buffer pool with the table's blocks (kept for the
  // next statement, as by any reader of the file); the second shows what one answer itself costs.
  for (const round of [1, 2]) {
    const before = rss(svc.pid);
    const t0 = Date.now();
    const samples = [];
    const sampler = setInterval(() => samples.push(rss(svc.pid).VmRSS), 100);
    const answer = await ask(round === 1 ? process.env.BIG_SAVE : undefined).finally(() => clearInterval(sampler));
    const after = rss(svc.pid);
    const at = (f) => mb(samples[Math.min(samples.length - 1, Math.floor(samples.length * f))] ?? 0);
    console.log(`request ${round}, ${rows} rows: status ${answer.status}, JSON ${mb(answer.size)} in ${Date.now() - t0} ms; server RSS before ${mb(before.VmRSS)} (peak so far ${mb(before.VmHWM)}), peak ${mb(after.VmHWM)} = ${(after.VmHWM / answer.size).toFixed(2)}x the JSON (target < 2x); peak minus RSS before ${mb(after.VmHWM - before.VmRSS)} = ${((after.VmHWM - before.VmRSS) / answer.size).toFixed(2)}x`);
    console.log(`  RSS during the answer (${samples.length} samples): 10% ${at(0.1)}, 25% ${at(0.25)}, 50% ${at(0.5)}, 75% ${at(0.75)}, 90% ${at(0.9)}`);
    if (round === 1) console.log(`  starts ${JSON.stringify(answer.head.slice(0, 80))} ... ends ${JSON.stringify(answer.tail.slice(-60))}`);
  }
} finally {
  await stopChild(svc);
}
