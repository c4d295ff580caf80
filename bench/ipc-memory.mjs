#!/usr/bin/env node
// `npm run bench:ipc`: peak memory of the server answering a list of IPC_ROWS rows (default one
// million) through POST /ipc (streamed Arrow) and through POST /query (one JSON document), each on a
// fresh server process, read from /proc/<pid>/status (VmHWM, the peak resident set). See docs/ipc.md.
// IPC_PATHS=/ipc measures one of them only.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RecordBatchReader } from 'apache-arrow';
import { freePort, startChild, stopChild, waitHealthy } from './lib/proc.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.env.IPC_ROWS ?? 1_000_000);
const work = mkdtempSync(join(tmpdir(), 'svc-bench-ipc-'));
const catalogs = join(work, 'catalogs');
mkdirSync(join(catalogs, 'big'), { recursive: true });
writeFileSync(join(catalogs, 'big', 'source.yaml'), 'type: duckdb\npath: data/big.duckdb\ncreate: true\nprefix: big\n');
writeFileSync(
  join(catalogs, 'big', 'schema.graphql'),
  `type numbers @view(name: "numbers", sql: "SELECT range AS id, 'row ' || range AS label, range * 0.5 AS value, TIMESTAMPTZ '2024-01-01 00:00:00+00' + range * INTERVAL 1 SECOND AS at FROM range(${ROWS})") {\n  id: BigInt! @pk\n  label: String\n  value: Float\n  at: Timestamp\n}\n`,
);
const query = `{ big_numbers(limit: ${ROWS}) { id label value at } }`;

const mb = (kb) => (kb / 1024).toFixed(0);
function status(pid) {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]);
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function measure(path) {
  const port = await freePort();
  const dir = mkdtempSync(join(work, 'node-'));
  const c = startChild({
    name: 'svc', cmd: process.execPath, args: [join(repo, 'dist/src/main.js')], cwd: dir, logFile: join(dir, 'svc.log'),
    env: { BIND: `127.0.0.1:${port}`, CORE_DB_PATH: join(dir, 'core.duckdb'), CATALOGS_DIR: catalogs, LOG_LEVEL: 'warn', QUERY_TIMEOUT: '600s', MAX_QUERY_COST: '0' },
  });
  try {
    await waitHealthy(`http://127.0.0.1:${port}/health`, c, 300_000);
    const before = status(c.pid);
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    let bytes = 0;
    let rows = 0;
    if (path === '/ipc') {
      // The client reads the Arrow part as it arrives: skip the part headers, then hand the bytes on.
      const body = res.body.getReader();
      let head = Buffer.alloc(0);
      async function* arrowBytes() {
        for (;;) {
          const { value, done } = await body.read();
          if (done) return;
          bytes += value.byteLength;
          if (head !== null) {
            head = Buffer.concat([head, value]);
            const at = head.indexOf('\r\n\r\n');
            if (at < 0) continue;
            const rest = head.subarray(at + 4);
            head = null;
            yield rest;
          } else yield value;
        }
      }
      const reader = await RecordBatchReader.from(arrowBytes());
      for await (const batch of reader) rows += batch.numRows;
    } else {
      const text = await res.text();
      bytes = text.length;
      rows = JSON.parse(text).data.big_numbers.length;
    }
    const ms = performance.now() - started;
    const after = status(c.pid);
    return { path, rows, bytes, ms, before, after };
  } finally {
    await stopChild(c);
  }
}

try {
  console.log(`bench:ipc — ${ROWS} rows (id BigInt, label String, value Float, at Timestamp), one request each, fresh server process each`);
  for (const path of (process.env.IPC_PATHS ?? '/ipc,/query').split(',')) {
    const r = await measure(path);
    console.log(
      `${path.padEnd(7)} rows ${r.rows}  bytes ${(r.bytes / 1e6).toFixed(1)} MB  time ${(r.ms / 1000).toFixed(1)} s  ` +
        `server RSS before ${mb(r.before.rss)} MB, peak during ${mb(r.after.peak)} MB (+${mb(r.after.peak - r.before.peak)} MB)`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
