// The worker pool that runs jq programs (DESIGN.md §1): jq-web is synchronous, so a program runs
// in a worker thread; a runaway one is stopped by terminating its worker (piscina does that when a
// running task is aborted) and the pool starts a fresh worker, so other requests keep being served.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { JqError } from './errors.js';
import { workerSource } from './worker-source.js';

export interface JqPoolOptions {
  /** Worker threads (default: 2 to 4, by CPU count). */
  readonly threads: number;
  /** Memory bound of one program in megabytes: jq's WebAssembly heap and the worker's JS heap. */
  readonly memoryMb: number;
  /** How long a program may wait for a worker to take it, ms (JQ_WAIT_TIMEOUT). */
  readonly waitMs: number;
}

export interface JqTask {
  /** JSON text of the input (`.`). */
  readonly input: string;
  readonly program: string;
  /** JSON text of `$__svc` (src/jq/prelude.ts). */
  readonly svc: string;
}

/** What the worker answers, with how long the program waited for it (`waitedMs`). */
export type JqTaskResult = (
  | { ok: true; stdout: string; stderr: string; ms: number }
  | { ok: false; exitCode: number; stderr: string; ms: number }
  | { ok: false; fatal: string; stderr: string; ms: number }
) & { waitedMs: number };

export function defaultThreads(): number {
  return Math.max(2, Math.min(4, availableParallelism()));
}

export class JqPool {
  /** Made on the first program: piscina starts a worker (its own V8 isolate and jq-web) at once. */
  private piscina: Piscina | undefined;
  private readonly settings: NonNullable<ConstructorParameters<typeof Piscina>[0]>;
  private readonly dir: string;

  constructor(private readonly options: JqPoolOptions) {
    const jqWeb = createRequire(import.meta.url).resolve('jq-web');
    // A private directory (mode 0700): nobody else can place code where the workers load it from.
    this.dir = mkdtempSync(join(tmpdir(), 'svc-jq-'));
    const filename = join(this.dir, 'worker.cjs');
    writeFileSync(filename, workerSource(jqWeb, options.memoryMb * 1024 * 1024), { mode: 0o600 });
    this.settings = {
      filename,
      minThreads: 1,
      maxThreads: options.threads,
      idleTimeout: 60_000,
      // jq's own heap is bounded inside the worker (worker-source.ts) and its output by the program
      // wrapper (prelude.ts). The JS heap holds the input and the output bytes (8 bytes each in
      // jq-web's arrays), so its limit sits well above what those bounds allow: a worker that hits
      // it can bring the process down on Node 20 instead of failing alone.
      resourceLimits: { maxOldGenerationSizeMb: 2 * options.memoryMb + 256, maxYoungGenerationSizeMb: 32 },
    };
  }

  /**
   * The workers, started with the first program, not with the server: an idle worker thread held
   * ~20 MB of the idle server's memory (issue 30), and most servers never run a jq program.
   */
  private workers(): Piscina {
    if (!this.piscina) {
      this.piscina = new Piscina(this.settings);
      // A worker piscina was starting in place of a stopped one when the pool closed fails to load
      // its file, removed by close(): that is the end of the pool, not a fault to raise.
      this.piscina.on('error', (e: unknown) => {
        if (!this.closed) throw e;
      });
    }
    return this.piscina;
  }

  private closed = false;

  /** Programs a worker has taken and not finished (tests wait for a worker to be busy). */
  get running(): number {
    return this.taken;
  }

  private taken = 0;

  /** Whether a worker was ever started (test/jq/lazy-pool.test.ts). */
  get started(): boolean {
    return this.piscina !== undefined;
  }

  /**
   * Runs one program; JqError JQ_TIMEOUT / JQ_MEMORY / JQ_INTERNAL when it cannot finish, JQ_BUSY
   * when no worker takes it within `waitMs`. The time limit starts when a worker takes the program
   * (the worker says so on a port of the task): the wait for a worker is bounded apart. Counted in
   * the limit, a program queued behind others, or one that met a fresh worker starting after a
   * runaway program was stopped, paid that start inside its JQ_TIMEOUT (tests failed so under load).
   */
  async run(task: JqTask, timeoutMs: number, limitMs = timeoutMs): Promise<JqTaskResult> {
    const abort = new AbortController();
    const submitted = performance.now();
    let waitedMs: number | undefined;
    const { port1, port2 } = new MessageChannel();
    let timer = setTimeout(() => abort.abort(), Math.max(1, this.options.waitMs));
    port1.once('message', () => {
      this.taken++;
      waitedMs = performance.now() - submitted;
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(), Math.max(1, timeoutMs));
    });
    try {
      const result = (await this.workers().run({ ...task, started: port2 }, { signal: abort.signal, transferList: [port2] })) as JqTaskResult;
      if ('fatal' in result) {
        if (/memory|Aborted/i.test(result.fatal + result.stderr)) throw this.memoryError();
        throw new JqError('JQ_INTERNAL', `jq failed: ${result.fatal}`);
      }
      return { ...result, waitedMs: waitedMs ?? performance.now() - submitted - result.ms };
    } catch (e) {
      if (e instanceof JqError) throw e;
      if (abort.signal.aborted) {
        throw waitedMs === undefined ? this.busyError() : timeoutError(limitMs);
      }
      if ((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw this.memoryError();
      throw new JqError('JQ_INTERNAL', `jq worker failed: ${(e as Error).message}`);
    } finally {
      if (waitedMs !== undefined) this.taken--;
      clearTimeout(timer);
      port1.close();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.piscina?.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private busyError(): JqError {
    return new JqError('JQ_BUSY', `no jq worker was free to take the program within ${shown(this.options.waitMs)} (JQ_WAIT_TIMEOUT); try again`);
  }

  private memoryError(): JqError {
    return new JqError('JQ_MEMORY', `the jq program was stopped: it needed more than ${this.options.memoryMb} MB of memory (JQ_MAX_MEMORY)`);
  }
}

const shown = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

export function timeoutError(limitMs: number): JqError {
  return new JqError('JQ_TIMEOUT', `the jq program was stopped after the time limit of ${shown(limitMs)} (JQ_TIMEOUT)`);
}
