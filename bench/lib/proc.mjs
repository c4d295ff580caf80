// Child processes of the benchmark: start, wait until ready, measure CPU from /proc, stop.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';

let ticks = 0;
/** Clock ticks per second of /proc/<pid>/stat times. */
export function clockTicks() {
  if (!ticks) {
    const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    ticks = Number(r.stdout?.trim()) || 100;
  }
  return ticks;
}

/** CPU seconds (user + system, all threads) used so far by one process, or null when it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / clockTicks(); // utime, stime (fields 14 and 15)
  } catch {
    return null;
  }
}

/** CPU seconds per pid of every process whose command name is `comm` (e.g. the PostgreSQL server). */
export function cpuByComm(comm) {
  const out = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== comm) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(d, (Number(f[11]) + Number(f[12])) / clockTicks());
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** CPU seconds used by processes named `comm` between two cpuByComm snapshots (new pids count from 0). */
export function cpuDelta(before, after) {
  let s = 0;
  for (const [pid, v] of after) s += v - (before.get(pid) ?? 0);
  return s;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts a child with its output going to a log file; `exited` resolves with its exit code. */
export function startChild({ name, cmd, args, env, cwd, logFile }) {
  // Throughput benches load the server from one address with many connections: the per-caller limit
  // (MAX_REQUESTS_PER_CALLER: the rest wait their turn) is off unless the bench or its caller sets it (fairness does).
  // They send anonymous requests: anonymous callers' smaller answer limits are off too (a 1,000,000-row
  // answer is what bench:big-answer measures), leaving MAX_RESPONSE_ROWS / _BYTES as signed-in callers have them.
  // So is what holds anonymous callers together (ANONYMOUS_MAX_REQUESTS running at once, ANONYMOUS_SOURCE_SHARE
  // of each pool: one of DuckDB's four connections): a throughput bench measures svc, not that share.
  const benchDefaults = {
    MAX_REQUESTS_PER_CALLER: '0', ANONYMOUS_MAX_RESPONSE_ROWS: '0', ANONYMOUS_MAX_RESPONSE_BYTES: '0',
    ANONYMOUS_MAX_REQUESTS: '0', ANONYMOUS_SOURCE_SHARE: '1',
  };
  const child = spawn(cmd, args, { cwd, env: { ...benchDefaults, ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return { name, child, pid: child.pid, logFile, exited, alive: () => child.exitCode === null && child.signalCode === null };
}

export async function stopChild(c) {
  if (!c || !c.alive()) return;
  c.child.kill('SIGTERM');
  const timer = setTimeout(() => c.alive() && c.child.kill('SIGKILL'), 5000);
  await c.exited;
  clearTimeout(timer);
}

export function logTail(file, lines = 15) {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Polls `url` until it answers 200, the child exits, or the timeout passes. */
export async function waitHealthy(url, c, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    if (!c.alive()) throw new Error(`${c.name} exited before it was ready:\n${logTail(c.logFile)}`);
    try {
      const r = await fetch(url);
      const body = await r.text();
      if (r.ok) return body;
      last = `${r.status} ${body.slice(0, 200)}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${c.name} not ready after ${timeoutMs / 1000} s (${last}):\n${logTail(c.logFile)}`);
}
