// The jq engine (SPEC §8): runs a program on a JSON text in the worker pool, with the custom
// functions of src/jq/prelude.ts. Host functions work by prepared data and repeated passes
// (DESIGN.md §1): a pass that needs a zone table or a querySvc answer it does not have yet asks
// for it on stderr; the engine fetches what was asked (queries run as the caller) and runs the
// program again, up to `maxPasses` times. The time limit covers the jq work of all passes.
import { metrics } from '../shared/metrics.js';
import { inSpan } from '../shared/tracing.js';
import { type JqContext, authInfo } from './context.js';
import { z } from 'zod';
import { type Settings, settingsShape } from '../config/schema.js';
import { JqError } from './errors.js';
import { JqPool, type JqTaskResult, defaultThreads, timeoutError } from './pool.js';
import { OUTPUT_LIMIT_MARK, wrapProgram } from './prelude.js';
import { type ZoneTable, zoneNamesIn, zoneTable } from './zones.js';

export interface JqEngineOptions {
  /** Time limit of one evaluation (all passes), ms. Env JQ_TIMEOUT (`10s`, `500ms`, seconds); default 10 s. */
  readonly timeoutMs: number;
  /** Memory bound of one program, MB. Env JQ_MAX_MEMORY (`512`, `512MB`, `1GB`); default 512. */
  readonly memoryMb: number;
  /** Worker threads. Env JQ_WORKERS; default 2 to 4 by CPU count. */
  readonly threads: number;
  /** Passes allowed for querySvc and zone requests; default 16. */
  readonly maxPasses: number;
  /**
   * How long one pass may wait for a worker to take it (a busy pool, a fresh worker starting after a
   * runaway program was stopped), ms; not counted in `timeoutMs`. Env JQ_WAIT_TIMEOUT; default 10 s.
   */
  readonly waitMs?: number;
}

/** The engine's options from the validated configuration (src/config: JQ_TIMEOUT, JQ_WAIT_TIMEOUT, JQ_MAX_MEMORY, JQ_WORKERS). */
export function jqOptions(config: Pick<Settings, 'JQ_TIMEOUT' | 'JQ_WAIT_TIMEOUT' | 'JQ_MAX_MEMORY' | 'JQ_WORKERS'>): JqEngineOptions {
  return { timeoutMs: config.JQ_TIMEOUT, waitMs: config.JQ_WAIT_TIMEOUT, memoryMb: config.JQ_MAX_MEMORY, threads: config.JQ_WORKERS ?? defaultThreads(), maxPasses: 16 };
}

/** The same from environment variables, validated by the configuration's own rules (engines made outside the app). */
export function jqOptionsFromEnv(env: Record<string, string | undefined> = process.env): JqEngineOptions {
  const keys = ['JQ_TIMEOUT', 'JQ_WAIT_TIMEOUT', 'JQ_MAX_MEMORY', 'JQ_WORKERS'] as const;
  const shape = z.object({ JQ_TIMEOUT: settingsShape.JQ_TIMEOUT, JQ_WAIT_TIMEOUT: settingsShape.JQ_WAIT_TIMEOUT, JQ_MAX_MEMORY: settingsShape.JQ_MAX_MEMORY, JQ_WORKERS: settingsShape.JQ_WORKERS });
  const parsed = shape.safeParse(Object.fromEntries(keys.filter((k) => env[k]).map((k) => [k, env[k]])));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${String(issue.path[0])}: ${issue.message} (${JSON.stringify(env[String(issue.path[0])])})`);
  }
  return jqOptions(parsed.data);
}

/** JQ_WAIT_TIMEOUT's default (src/config/schema.ts). */
const DEFAULT_WAIT_MS = 10_000;

export interface JqRunRequest {
  readonly program: string;
  /** JSON text of `.`; `null` when absent. Passed to jq as text: no parse and re-serialise here. */
  readonly input?: string;
  /** Bound as `$name` (JSON types kept). */
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly context: JqContext;
}

/** The outputs of a program, each a compact JSON text. */
export class JqResult {
  constructor(readonly outputs: readonly string[]) {}

  /** One JSON text: null for no output, the output itself for one, an array for several. */
  get text(): string {
    if (this.outputs.length === 0) return 'null';
    if (this.outputs.length === 1) return this.outputs[0]!;
    return `[${this.outputs.join(',')}]`;
  }

  value(): unknown {
    return JSON.parse(this.text);
  }
}

interface Request {
  __svc: 'query' | 'zone';
  key?: string;
  query?: string;
  variables?: Record<string, unknown>;
  name?: string;
}

export class JqEngine {
  private readonly pool: JqPool;

  constructor(readonly options: JqEngineOptions = jqOptionsFromEnv()) {
    this.pool = new JqPool({ threads: options.threads, memoryMb: options.memoryMb, waitMs: options.waitMs ?? DEFAULT_WAIT_MS });
  }

  /** Programs running on a worker now (not those waiting for one). */
  get running(): number {
    return this.pool.running;
  }

  /** Runs a program; counted and timed (svc_jq_runs_total, svc_jq_duration_seconds). */
  async run(req: JqRunRequest): Promise<JqResult> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await inSpan('svc.jq', { 'svc.jq.program_lines': req.program.split('\n').length }, () => this.execute(req));
    } catch (e) {
      outcome = e instanceof JqError && e.code === 'JQ_TIMEOUT' ? 'timeout' : e instanceof JqError && e.code === 'JQ_MEMORY' ? 'memory' : 'error';
      throw e;
    } finally {
      metrics.jqRuns.inc({ outcome });
      metrics.jqDuration.observe((performance.now() - started) / 1000);
    }
  }

  private async execute(req: JqRunRequest): Promise<JqResult> {
    const { context } = req;
    const variables = req.variables ?? {};
    const program = wrapProgram(req.program, Object.keys(variables), this.outputLimit());
    const zones: Record<string, ZoneTable> = {};
    for (const name of new Set(['UTC', context.timezone, ...zoneNamesIn(req.program)])) zones[name] = zoneTable(name).table;
    const answers: Record<string, unknown> = {};
    const svc = { now: (context.now ?? new Date()).getTime() / 1000, tz: context.timezone, auth: authInfo(context.identity), vars: variables, zones, answers };
    // JQ_TIMEOUT bounds the whole evaluation: every pass and every querySvc it runs (issue 15), but
    // not a pass's wait for a worker (JQ_WAIT_TIMEOUT bounds that): the deadline moves by each wait.
    let deadline = Date.now() + this.options.timeoutMs;
    for (let pass = 1; ; pass++) {
      const left = deadline - Date.now();
      if (left <= 0) throw timeoutError(this.options.timeoutMs);
      const result = await this.pool.run({ input: req.input ?? 'null', program, svc: JSON.stringify(svc) }, left, this.options.timeoutMs);
      deadline += result.waitedMs;
      const { requests, rest } = splitStderr(result.stderr);
      if (requests.length) {
        if (pass >= this.options.maxPasses) {
          throw new JqError('JQ_ERROR', `the jq program needed more than ${this.options.maxPasses} rounds of querySvc calls; fetch more per round (e.g. one query for many ids)`);
        }
        await this.supply(requests, context, zones, answers, deadline);
        continue;
      }
      if (!result.ok) {
        if ('exitCode' in result && result.exitCode !== 3 && rest.split('\n').some((l) => l.endsWith(`: ${OUTPUT_LIMIT_MARK}`))) {
          throw new JqError('JQ_MEMORY', `the jq program was stopped: its result is larger than ${this.outputLimit() / 1024 / 1024} MB (JQ_MAX_MEMORY / 8)`);
        }
        throw failure(result, rest, req.program.split('\n').length);
      }
      return new JqResult((result.stdout ?? '').split('\n').filter((line) => line.length > 0));
    }
  }

  /** Characters of output allowed: an eighth of the memory bound (jq-web keeps 8 bytes per character). */
  private outputLimit(): number {
    return Math.floor((this.options.memoryMb * 1024 * 1024) / 8);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** Nest calls this on app.close(). */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /**
   * A querySvc answer, or JQ_TIMEOUT once the deadline passes. A query still running then ends
   * on its own within QUERY_TIMEOUT; its answer is dropped.
   */
  private beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutError(this.options.timeoutMs)), Math.max(0, deadline - Date.now()));
    });
    work.catch(() => undefined);
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  private async supply(requests: Request[], context: JqContext, zones: Record<string, ZoneTable>, answers: Record<string, unknown>, deadline: number): Promise<void> {
    // In the order the program asked: a later query may be a mutation that must follow an earlier one.
    for (const r of requests) {
      if (r.__svc === 'zone' && typeof r.name === 'string') {
        if (!(r.name in zones)) zones[r.name] = zoneTable(r.name).table;
      } else if (r.__svc === 'query' && typeof r.key === 'string' && !(r.key in answers)) {
        if (!context.querySvc) throw new JqError('JQ_ERROR', 'querySvc is not available in this context');
        answers[r.key] = await this.beforeDeadline(context.querySvc(String(r.query), r.variables ?? {}), deadline);
      }
    }
  }
}

/** Separates the requests of the custom functions from what jq itself wrote to stderr. */
function splitStderr(stderr: string): { requests: Request[]; rest: string } {
  const requests: Request[] = [];
  const rest: string[] = [];
  for (const line of stderr.split('\n')) {
    if (line.startsWith('["DEBUG:",{"__svc":')) {
      try {
        const value = (JSON.parse(line) as [string, Request])[1];
        if (value.__svc === 'query' || value.__svc === 'zone') {
          requests.push(value);
          continue;
        }
      } catch {
        // not ours: keep it as text
      }
    }
    if (!line.startsWith('["DEBUG:",')) rest.push(line);
  }
  return { requests, rest: rest.join('\n').trim() };
}

/** A clear message from jq's stderr: compile errors (exit 3) are the caller's invalid program. */
function failure(result: Exclude<JqTaskResult, { ok: true }>, stderr: string, programLines: number): JqError {
  if ('exitCode' in result && result.exitCode === 3) {
    const lines = stderr.split('\n').filter((l) => l.startsWith('jq: error: ')).map((l) => l.slice('jq: error: '.length).replace(/:$/, ''));
    const text = lines
      .map((l) => l.replace(' (Unix shell quoting issues?)', '').replace('at <top-level>, line', 'at line'))
      // The wrapper continues after the program on a new line: a program that stops early is
      // reported there; say what it means for the caller's text.
      .map((l) => l.replace(/^syntax error, unexpected .* at line (\d+)$/, (m, n: string) => (Number(n) > programLines ? `syntax error, unexpected end of file at line ${programLines}` : m)))
      .join('; ');
    return new JqError('JQ_INVALID', `invalid jq expression: ${text || 'compile error'}`);
  }
  const message = stderr.replace(/^jq: error \(at [^)]*\)(?: \(not a string\))?: /gm, '').trim();
  return new JqError('JQ_ERROR', `jq error: ${message || `exit code ${'exitCode' in result ? result.exitCode : '?'}`}`);
}

