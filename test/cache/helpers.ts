// Shared pieces of the cache tests: a real Redis (SVC_TEST_REDIS), a key prefix per run so tests
// never touch other data, a logger that records what it says, and throwaway Redis servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { ResultCache, type ResultCacheOptions } from '../../src/cache/index.js';
import type { Logger } from '../../src/shared/logger.js';

export const REDIS = process.env.SVC_TEST_REDIS || '127.0.0.1:6379';

export function uniquePrefix(): string {
  return `svctest:${randomBytes(5).toString('hex')}:`;
}

export interface RecordingLogger {
  readonly log: Logger;
  readonly lines: { level: number; msg: string }[];
  warnings(): string[];
}

export function recordingLogger(): RecordingLogger {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const log = pino({ level: 'debug' }, sink);
  return { log, lines, warnings: () => lines.filter((l) => l.level === 40).map((l) => l.msg) };
}

export const quiet: Logger = pino({ level: 'silent' });

export function options(over: Partial<ResultCacheOptions> = {}): ResultCacheOptions {
  return { defaultTtlMs: 0, prefix: uniquePrefix(), commandTimeoutMs: 250, connectWaitMs: 1000, ...over };
}

export async function openCache(over: Partial<ResultCacheOptions> = {}, log: Logger = quiet): Promise<ResultCache> {
  return ResultCache.open(options(over), log);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(20);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.connect(port, '127.0.0.1');
  });
}

/** A redis-server of our own, with no persistence, to stop and start at will. */
export class ThrowawayRedis {
  private proc: ChildProcess | undefined;

  constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const r = new ThrowawayRedis(await freePort());
    await r.start();
    return r;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitFor(() => canConnect(this.port));
  }

  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
    this.proc = undefined;
  }
}

/** A TCP relay in front of Redis: closing it is an outage that keeps Redis's data. */
export class RedisRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: string): Promise<RedisRelay> {
    const [host, port] = target.split(':');
    const relay = new RedisRelay(await freePort(), { host: host!, port: Number(port ?? 6379) });
    await relay.open();
    return relay;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', r));
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((r) => server.close(r));
  }
}
