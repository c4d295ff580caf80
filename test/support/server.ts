// Starts the compiled query service (dist/, built by `npm test`) as a user would: its own process
// on a free loopback port, in a fresh working directory, with its log lines collected.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const REPO = resolve(import.meta.dirname, '..', '..');
export const ENTRY = join(REPO, 'dist', 'src', 'main.js');

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Every line the server wrote to stdout and stderr so far. */
  readonly lines: string[];
  /** The JSON log lines (LOG_FORMAT=json) so far. */
  logs(): Record<string, unknown>[];
  /** Resolves when a line matching `test` appears (or has appeared). */
  waitForLine(test: (line: string) => boolean, what: string): Promise<string>;
  /** Sends a signal and resolves with the exit code (or the signal that ended it). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
  readonly exited: Promise<number | string>;
}

export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-server-'));
  const port = await freePort();
  const child = spawn(process.execPath, [ENTRY], {
    cwd: dir,
    env: {
      ...process.env,
      BIND: `127.0.0.1:${port}`,
      CORE_DB_PATH: join(dir, 'core.duckdb'),
      CATALOGS_DIR: join(REPO, 'catalogs'),
      LOG_LEVEL: 'info',
      CONFIG_FILE: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters = new Set<{ test: (l: string) => boolean; done: (l: string) => void }>();
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of waiters) if (w.test(line)) (waiters.delete(w), w.done(line));
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  const exited = new Promise<number | string>((done) => child.on('exit', (code, signal) => done(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    child,
    lines,
    exited,
    logs: () =>
      lines.flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    waitForLine: (test, what) => {
      const seen = lines.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((done, fail) => {
        waiters.add({ test, done });
        void exited.then((code) => fail(new Error(`server exited (${code}) before ${what}:\n${lines.join('\n')}`)));
      });
    },
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  await server.waitForLine((l) => l.includes('svc listening on'), 'listening');
  return server;
}
