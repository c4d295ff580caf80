// The worker pool that runs jq programs (DESIGN.md §1): jq-web is synchronous, so a program runs
// in a worker thread; a runaway one is stopped by terminating its worker (piscina does that when a
// running task is aborted) and the pool starts a fresh worker, so other requests keep being served.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { JqError } from './errors.js';
import { workerSource } from './worker-source.js';

export interface JqPoolOptions {
  /** Worker threads (default: 2 to 4, by CPU count). */
  readonly threads: number;
  /** Memory bound of one program in megabytes: jq's WebAssembly heap and the worker's JS heap. */
  readonly memoryMb: number;
}

export interface JqTask {
  /** JSON text of the input (`.`). */
  readonly input: string;
  readonly program: string;
  /** JSON text of `$__svc` (src/jq/prelude.ts). */
  readonly svc: string;
}

export type JqTaskResult =
  | { ok: true; stdout: string; stderr: string; ms: number }
  | { ok: false; exitCode: number; stderr: string; ms: number }
  | { ok: false; fatal: string; stderr: string; ms: number };

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
    return (this.piscina ??= new Piscina(this.settings));
  }

  /** Whether a worker was ever started (test/jq/lazy-pool.test.ts). */
  get started(): boolean {
    return this.piscina !== undefined;
  }

  /** Runs one program; JqError JQ_TIMEOUT / JQ_MEMORY / JQ_INTERNAL when it cannot finish. */
  async run(task: JqTask, timeoutMs: number, limitMs = timeoutMs): Promise<JqTaskResult> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), Math.max(1, timeoutMs));
    try {
      const result = (await this.workers().run(task, { signal: abort.signal })) as JqTaskResult;
      if ('fatal' in result) {
        if (/memory|Aborted/i.test(result.fatal + result.stderr)) throw this.memoryError();
        throw new JqError('JQ_INTERNAL', `jq failed: ${result.fatal}`);
      }
      return result;
    } catch (e) {
      if (e instanceof JqError) throw e;
      if (abort.signal.aborted) {
        throw timeoutError(limitMs);
      }
      if ((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw this.memoryError();
      throw new JqError('JQ_INTERNAL', `jq worker failed: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.piscina?.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private memoryError(): JqError {
    return new JqError('JQ_MEMORY', `the jq program was stopped: it needed more than ${this.options.memoryMb} MB of memory (JQ_MAX_MEMORY)`);
  }
}

export function timeoutError(limitMs: number): JqError {
  const limit = limitMs % 1000 === 0 ? `${limitMs / 1000} s` : `${limitMs} ms`;
  return new JqError('JQ_TIMEOUT', `the jq program was stopped after the time limit of ${limit} (JQ_TIMEOUT)`);
}
