// Cluster mode (SPEC §12, seed 001 `core.cluster`). Every node registers in `_cluster_nodes` and
// heartbeats; management removes silent nodes, runs each cluster change itself, records it in the
// core database (so a worker that was away can catch up) and then tells every worker through the
// internal mutations; workers forward user-facing cluster mutations to management and poll
// `schema_version` to reconcile what they serve.
import { hostname } from 'node:os';
import type { Config } from '../../config/schema.js';
import { parseBind } from '../../config/load.js';
import type { FunctionHandler } from '../../pipeline/resolver-deps.js';
import type { Logger } from '../../shared/logger.js';
import { Serial } from '../../shared/mutex.js';
import type { SourceRegistry } from '../../sources/registry.js';
import { nodeVersion } from '../info.js';
import type { Lifecycle, OperationResult } from '../lifecycle.js';
import { callNode } from './client.js';
import type { ClusterStore, DesiredSources } from './store.js';

export type NodeRole = 'management' | 'worker' | 'standalone';

/** What a node does locally when told to (the runtime provides it). */
export interface LocalActions {
  /** Drops cached schema views and results of one catalog (all without one); `tags` drop cache tags. */
  invalidate(catalog: string | undefined, tags: readonly string[] | undefined): Promise<number>;
  /** A local handler by id (object storage lives in its own module), if this build has it. */
  handler(id: string): FunctionHandler | undefined;
  /** Whether cache invalidations already reach every node through the shared Redis (L2). */
  sharedInvalidation(): boolean;
  /** svc's own system sources (core and its modules): every node serves them, so the cluster never tracks them. */
  readonly systemSources: ReadonlySet<string>;
}

interface NodeOutcome {
  readonly node: string;
  readonly result: OperationResult;
}

export class ClusterService {
  readonly role: NodeRole;
  readonly name: string;
  readonly url: string;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Management runs one cluster change at a time; a worker reconciles one pass at a time. */
  private readonly serial = new Serial();
  /** Worker: the generation of each source it serves (of `cluster_sources`). */
  private readonly applied = new Map<string, number>();
  private seenVersion: number | undefined;
  /** The last problem met by this node's cluster work, shown in `nodes.error` until it clears. */
  private problem: string | null = null;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    readonly store: ClusterStore,
    private readonly lifecycle: Lifecycle,
    private readonly registry: SourceRegistry,
    private readonly local: LocalActions,
  ) {
    this.role = config.CLUSTER_ENABLED ? config.CLUSTER_ROLE : 'standalone';
    this.name = config.CLUSTER_NODE_NAME || hostname();
    this.url = config.CLUSTER_NODE_URL || defaultUrl(config);
  }

  get enabled(): boolean {
    return this.role !== 'standalone';
  }

  /** Joins the cluster, then heartbeats (and, on management, removes ghosts; on a worker, polls). */
  async start(): Promise<void> {
    if (!this.enabled) return;
    await this.store.join({ name: this.name, url: this.url, role: this.role, version: nodeVersion().version });
    if (this.role === 'management') {
      // Sources loaded at start (declared ones, registered ones) become part of the cluster's state
      // without forcing workers to reload what they already serve.
      const names = this.registry.catalogs().map((c) => c.source.name).filter((n) => !this.local.systemSources.has(n));
      const loaded = Object.fromEntries(names.map((n) => [n, 'loaded' as const]));
      await this.store.setDesired(loaded, false);
    } else {
      await this.adopt();
      await this.poll();
    }
    this.every(this.config.CLUSTER_HEARTBEAT, () => this.beat());
    if (this.role === 'worker') this.every(this.config.CLUSTER_POLL_INTERVAL, () => this.poll());
    this.log.info({ node: this.name, role: this.role, url: this.url }, 'cluster: joined');
  }

  async stop(): Promise<void> {
    for (const t of this.timers.splice(0)) clearInterval(t);
    if (this.enabled) await this.store.leave(this.name).catch(() => undefined);
  }

  async managementUrl(): Promise<string | null> {
    return this.enabled ? this.store.managementUrl() : null;
  }

  // ---- user-facing changes: on management they run here, on a worker they go to management

  changeSource(op: 'load' | 'unload' | 'reload', name: string): Promise<OperationResult> {
    return this.serial.run(async () => {
      const local = op === 'unload' ? await this.lifecycle.unload(name) : await this.lifecycle.load(name);
      if (!local.success || !this.enabled) return local;
      await this.store.setDesired({ [name]: op === 'unload' ? 'unloaded' : 'loaded' });
      const field = op === 'unload' ? 'handle_source_unload' : 'handle_source_load';
      return summarise(local, this.name, await this.broadcast(field, { name }));
    });
  }

  invalidateCache(catalog: string | undefined): Promise<OperationResult> {
    return this.serial.run(async () => {
      const n = await this.local.invalidate(catalog, undefined);
      const local = { success: true, message: catalog ? `schema cache of catalog "${catalog}" invalidated` : 'schema cache invalidated', affected_rows: n };
      return this.enabled ? summarise(local, this.name, await this.broadcast('handle_cache_invalidate', catalog ? { catalog } : {})) : local;
    });
  }

  /** register_storage / unregister_storage: the storage module's own handler here, then every worker re-syncs. */
  storage(handlerId: string, invoke: (h: FunctionHandler) => Promise<unknown>): Promise<OperationResult> {
    return this.serial.run(async () => {
      const run = this.local.handler(handlerId);
      if (!run) return { success: false, message: 'object storage is not available on this server' };
      const local = (await invoke(run)) as OperationResult;
      if (!local.success || !this.enabled) return local;
      return summarise(local, this.name, await this.broadcast('handle_secret_sync', {}));
    });
  }

  /** A worker hands a user-facing cluster mutation to management and returns its answer. */
  async forward(field: string, args: Record<string, unknown>, types: Record<string, string>): Promise<OperationResult> {
    const url = await this.store.managementUrl();
    if (!url) return { success: false, message: 'no management node is registered in the cluster' };
    // Management's own work (a load compiles and connects) and then its broadcast.
    const timeoutMs = this.config.QUERY_TIMEOUT + this.config.CLUSTER_TIMEOUT;
    const r = await callNode({ url, secret: this.config.CLUSTER_SECRET, timeoutMs }, field, args, types);
    return r.success ? r : { ...r, message: `management node: ${r.message}` };
  }

  // ---- internal calls (handle_*): what a worker does when management tells it

  /**
   * Management loaded or unloaded `name`: the worker brings that source in line with the state
   * recorded in the core database rather than with the message itself, so a late or repeated
   * message (one that waited while the worker was paused) cannot undo a newer change.
   */
  async handleSource(name: string): Promise<OperationResult> {
    const failed = await this.reconcile(await this.store.desired(), name);
    const served = this.registry.get(name) !== undefined;
    return failed.length ? { success: false, message: failed.join('; ') } : { success: true, message: `data source "${name}" ${served ? 'loaded' : 'unloaded'}` };
  }

  async handleCacheInvalidate(catalog: string | undefined, tags: readonly string[] | undefined): Promise<OperationResult> {
    const n = await this.local.invalidate(catalog, tags);
    return { success: true, message: 'invalidated', affected_rows: n };
  }

  async handleSecretSync(invoke: (h: FunctionHandler) => Promise<unknown>): Promise<OperationResult> {
    const sync = this.local.handler('storage_sync');
    if (!sync) return { success: true, message: 'nothing to synchronise' };
    return (await invoke(sync)) as OperationResult;
  }

  /**
   * Cache tags changed on this node ($role_permissions, $AuthAPIKeys): without a shared Redis, every
   * other node is told directly, so none serves a stale permission (SPEC §7, §12).
   */
  shareTags(tags: readonly string[]): void {
    if (!this.enabled || this.local.sharedInvalidation()) return;
    void this.store.members().then(async (nodes) => {
      const others = nodes.filter((n) => n.name !== this.name);
      const results = await Promise.all(others.map((n) => this.call(n.url, 'handle_cache_invalidate', { tags })));
      results.forEach((r, i) => !r.success && this.log.warn({ node: others[i]!.name, error: r.message }, 'cluster: cache tags not delivered'));
    }, (e: Error) => this.log.warn({ error: e.message }, 'cluster: cache tags not delivered'));
  }

  // ---- worker: catching up

  /** At start a worker already serves what loadAll loaded: it takes those as applied. */
  private async adopt(): Promise<void> {
    const desired = await this.store.desired();
    for (const c of this.registry.catalogs()) {
      const d = desired[c.source.name];
      if (d) this.applied.set(c.source.name, d.generation);
    }
  }

  /** Compares `schema_version`; on a change, loads, reloads and unloads what differs. */
  private async poll(): Promise<void> {
    try {
      const version = await this.store.schemaVersion();
      if (version === this.seenVersion) return;
      const failed = await this.reconcile(await this.store.desired());
      // A failed load is tried again at the next poll.
      if (!failed.length) this.seenVersion = version;
      this.problem = failed.length ? failed.join('; ') : null;
    } catch (e) {
      this.problem = `poll failed: ${(e as Error).message}`;
      this.log.warn({ error: (e as Error).message }, 'cluster: schema_version poll failed');
    }
  }

  private reconcile(desired: DesiredSources, only?: string): Promise<string[]> {
    return this.serial.run(async () => {
      const failed: string[] = [];
      for (const [name, d] of Object.entries(desired)) {
        if (only !== undefined && name !== only) continue;
        const served = this.registry.get(name) !== undefined;
        if (d.state === 'loaded' && (!served || this.applied.get(name) !== d.generation)) {
          const r = await this.lifecycle.load(name);
          if (r.success) this.applied.set(name, d.generation);
          else failed.push(r.message);
          this.log.info({ source: name, generation: d.generation, ok: r.success }, 'cluster: reconciled a source');
        } else if (d.state === 'unloaded' && served) {
          await this.lifecycle.unload(name);
          this.applied.delete(name);
          this.log.info({ source: name }, 'cluster: reconciled an unloaded source');
        }
      }
      return failed;
    });
  }

  // ---- plumbing

  private async beat(): Promise<void> {
    try {
      const present = await this.store.heartbeat(this.name, this.problem);
      // Taken for a ghost while it was silent (paused, partitioned): it joins again.
      if (!present) await this.store.join({ name: this.name, url: this.url, role: this.role, version: nodeVersion().version });
      if (this.role === 'management') {
        const gone = await this.store.removeGhosts(this.config.CLUSTER_GHOST_TTL);
        if (gone.length) this.log.warn({ nodes: gone }, 'cluster: removed nodes silent for longer than CLUSTER_GHOST_TTL');
      }
    } catch (e) {
      this.log.warn({ error: (e as Error).message }, 'cluster: heartbeat failed');
    }
  }

  private async broadcast(field: string, args: Record<string, unknown>): Promise<NodeOutcome[]> {
    const workers = (await this.store.members()).filter((n) => n.role === 'worker' && n.name !== this.name);
    return Promise.all(workers.map(async (n) => ({ node: n.name, result: await this.call(n.url, field, args) })));
  }

  private call(url: string, field: string, args: Record<string, unknown>): Promise<OperationResult> {
    return callNode({ url, secret: this.config.CLUSTER_SECRET, timeoutMs: this.config.CLUSTER_TIMEOUT }, field, args, INTERNAL_ARGS);
  }

  private every(ms: number, task: () => Promise<void>): void {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      void task().finally(() => (running = false));
    }, ms);
    t.unref();
    this.timers.push(t);
  }
}

/** Argument types of the internal mutations (what `callNode` declares as variables). */
const INTERNAL_ARGS = { name: 'String!', catalog: 'String', tags: '[String!]' };

function defaultUrl(config: Config): string {
  const { host, port } = parseBind(config.BIND);
  const shown = host === '0.0.0.0' || host === '::' ? hostname() : host;
  return `${config.TLS_CERT_FILE && config.TLS_KEY_FILE ? 'https' : 'http'}://${shown}:${port}`;
}

/** `data source "x" loaded on 2 of 3 nodes: m ok; w1 ok; w2 failed: unreachable (...)` (SPEC §12 result messages). */
function summarise(local: OperationResult, self: string, others: readonly NodeOutcome[]): OperationResult {
  const all = [{ node: self, result: local }, ...others];
  const ok = all.filter((o) => o.result.success).length;
  const parts = all.map((o) => (o.result.success ? `${o.node} ok` : `${o.node} failed: ${o.result.message}`));
  const lagging = ok < all.length ? '; a worker that failed catches up at its next schema_version poll' : '';
  return { ...local, message: `${local.message} on ${ok} of ${all.length} nodes: ${parts.join('; ')}${lagging}` };
}
