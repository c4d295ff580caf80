// GET /ready (issue 21, issue 29): whether this instance should get traffic. Not ready (503) while
// the core database does not answer, while a declared data source (a row of core.data_sources that
// is not disabled) is not loaded (it failed, or has not been loaded yet), and once the server is
// stopping. READY_WITH_FAILED_SOURCES=true answers 200 `degraded` for sources that are not loaded
// instead. A loaded source whose database does not answer now is `degraded` (200): every instance
// would lose it alike, and the other sources still serve.
import type { SourceRegistry } from '../sources/registry.js';
import type { CoreStore } from './core-store.js';
import { CORE_SOURCE } from './core-catalog.js';

export interface Readiness {
  /** `ready` (all sources loaded), `degraded` (some unreachable, or failed with READY_WITH_FAILED_SOURCES), `not_ready`, `stopping`. */
  readonly status: 'ready' | 'degraded' | 'not_ready' | 'stopping';
  readonly core: string;
  readonly sources: Record<string, string>;
}

/** How long one probe waits for a database before calling it unreachable. */
const PROBE_MS = 2000;

function bounded<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${PROBE_MS} ms`)), PROBE_MS);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export class ReadinessProbe {
  private stopping = false;

  constructor(
    private readonly registry: SourceRegistry,
    private readonly core: CoreStore,
    private readonly options: { readonly readyWithFailedSources: boolean } = { readyWithFailedSources: false },
  ) {}

  /** From SIGTERM on, /ready says so and load balancers stop sending new requests. */
  markStopping(): void {
    this.stopping = true;
  }

  async check(): Promise<Readiness> {
    const sources: Record<string, string> = {};
    let core = 'ok';
    let rows: { name: string; disabled: boolean | null }[] = [];
    try {
      rows = await bounded(this.core.dataSources(), 'the core database');
    } catch (e) {
      core = `unreachable: ${(e as Error).message}`;
    }
    await Promise.all(
      rows
        .filter((r) => !r.disabled && r.name !== CORE_SOURCE)
        .map(async (r) => {
          sources[r.name] = await this.sourceState(r.name);
        }),
    );
    const ordered = Object.fromEntries(Object.entries(sources).sort(([a], [b]) => a.localeCompare(b)));
    if (this.stopping) return { status: 'stopping', core, sources: ordered };
    if (core !== 'ok') return { status: 'not_ready', core, sources: ordered };
    const states = Object.values(ordered);
    if (!this.options.readyWithFailedSources && states.some((s) => s === 'not loaded' || s.startsWith('failed'))) return { status: 'not_ready', core, sources: ordered };
    return { status: states.every((s) => s === 'loaded') ? 'ready' : 'degraded', core, sources: ordered };
  }

  private async sourceState(name: string): Promise<string> {
    const status = this.registry.status(name);
    if (!status) return 'not loaded';
    if (status.state === 'failed') return `failed: ${status.message}`;
    if (status.state !== 'loaded') return status.state;
    const runtime = this.registry.get(name)?.runtime;
    if (!runtime?.ping) return 'loaded';
    try {
      const problem = await bounded(runtime.ping(), `data source "${name}"`);
      return problem ? `unavailable: ${problem}` : 'loaded';
    } catch (e) {
      return `unavailable: ${(e as Error).message}`;
    }
  }
}
