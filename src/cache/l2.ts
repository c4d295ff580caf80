// L2: Redis shared by every process and node (SPEC §9). Entries live at `<prefix>k:<key>`; each tag
// has a set `<prefix>tag:<tag>` of the entry keys carrying it, so an invalidation reaches entries
// written by any process. Invalidations are also published on `<prefix>invalidate` so other
// processes drop their L1 copies.
//
// Redis is an optimisation, never a dependency: a command that fails or takes longer than the
// timeout is a miss (or a skipped write), the first failure logs one warning, and node-redis keeps
// reconnecting in the background.
import type { RedisClientType } from '@keyv/redis';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import type { StoredEntry } from './l1.js';
import { cacheMetrics } from './metrics.js';

export interface RedisOptions {
  /** `host:port`, `[v6]:port` or a `redis://` URL. */
  readonly address: string;
  readonly database?: number;
  readonly username?: string;
  readonly password?: string;
  readonly prefix: string;
  readonly commandTimeoutMs: number;
}

/** What another process (or this one) asked to drop; tags null = everything. */
export interface InvalidationMessage {
  readonly from: string;
  readonly tags: readonly string[] | null;
}

export interface RedisEvents {
  message(msg: InvalidationMessage): void;
  /** The subscription was (re)established: invalidations may have been missed meanwhile. */
  resubscribed(): void;
}

// Stores the entry and adds its key to each tag set. A tag set lives as long as its longest-lived
// entry (PTTL -1 = no expiry wins), so sets of tags that are never invalidated do not pile up.
const SET_SCRIPT = `
local ttl = tonumber(ARGV[2])
if ttl > 0 then redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl) else redis.call('SET', KEYS[1], ARGV[1]) end
for i = 2, #KEYS do
  local current = redis.call('PTTL', KEYS[i])
  redis.call('SADD', KEYS[i], KEYS[1])
  if ttl == 0 then redis.call('PERSIST', KEYS[i])
  elseif current == -2 or (current >= 0 and current < ttl) then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1`;

// Deletes every entry named in the tag sets, then the sets; returns the entries that existed.
const INVALIDATE_SCRIPT = `
local n = 0
for i = 1, #KEYS do
  for _, k in ipairs(redis.call('SMEMBERS', KEYS[i])) do n = n + redis.call('DEL', k) end
  redis.call('DEL', KEYS[i])
end
return n`;

export class RedisStore {
  private warned = false;
  /** Invalidations that could not reach Redis; replayed when it is back (null = everything). */
  private pending: (readonly string[] | null)[] = [];
  /** A replay scheduled after an invalidation failed while connected. */
  private retry: NodeJS.Timeout | undefined;

  private constructor(
    private readonly client: RedisClientType,
    private readonly subscriber: RedisClientType,
    private readonly options: RedisOptions,
    private readonly log: Logger,
    private readonly instanceId: string,
  ) {}

  /** Starts connecting; waits at most `waitMs` so a missing Redis never stalls start-up. */
  static async open(options: RedisOptions, log: Logger, instanceId: string, events: RedisEvents, waitMs = 1000): Promise<RedisStore> {
    // The Redis client is loaded here, when L2 is configured, not at start: most servers have no L2,
    // and node-redis is ~0.8 MB of code held in the idle server's memory.
    const { createClient } = await import('@keyv/redis');
    const client: RedisClientType = createClient({
      ...connection(options.address),
      ...(options.database !== undefined ? { database: options.database } : {}),
      ...(options.username ? { username: options.username } : {}),
      ...(options.password ? { password: options.password } : {}),
      // Fail at once while disconnected instead of queueing requests behind a dead socket.
      disableOfflineQueue: true,
      commandOptions: { timeout: options.commandTimeoutMs },
    });
    // The subscriber keeps its queue: SUBSCRIBE issued before the first connect must wait for it.
    const subscriber = client.duplicate({ disableOfflineQueue: false, commandOptions: {} });
    const store = new RedisStore(client, subscriber, options, log, instanceId);
    store.watch(events);
    const connected = Promise.all([client.connect(), subscriber.connect()]);
    connected.catch(() => undefined); // failures surface as 'error' events; node-redis retries
    const channel = store.channel;
    subscriber.subscribe(channel, (raw) => store.receive(raw, events)).catch(() => undefined);
    await Promise.race([connected, delay(waitMs)]);
    if (!client.isReady) store.down(new Error(`no connection to ${options.address} within ${waitMs} ms`));
    return store;
  }

  get ready(): boolean {
    return this.client.isReady;
  }

  private get channel(): string {
    return `${this.options.prefix}invalidate`;
  }

  async get(key: string): Promise<StoredEntry | undefined> {
    if (!this.client.isReady) return undefined;
    const text = await this.run(() => this.client.get(this.entryKey(key)));
    return typeof text === 'string' ? unpack(text) : undefined;
  }

  async set(key: string, entry: StoredEntry, ttlMs: number): Promise<void> {
    if (!this.client.isReady) return;
    const keys = [this.entryKey(key), ...entry.tags.map((t) => this.tagKey(t))];
    await this.run(() => this.client.eval(SET_SCRIPT, { keys, arguments: [pack(entry), String(Math.max(0, Math.round(ttlMs)))] }));
  }

  /** Drops entries of the tags (null = the whole prefix) and tells the other processes; returns entries removed. */
  async invalidate(tags: readonly string[] | null): Promise<number> {
    if (!this.client.isReady) {
      this.remember(tags);
      return 0;
    }
    const removed = tags === null ? await this.deletePrefix() : await this.deleteTags(tags);
    if (removed === undefined) {
      // Redis failed half-way: the replay deletes and publishes once it answers again.
      this.remember(tags);
      return 0;
    }
    const msg: InvalidationMessage = { from: this.instanceId, tags };
    await this.run(() => this.client.publish(this.channel, JSON.stringify(msg)));
    return removed;
  }

  async close(): Promise<void> {
    clearTimeout(this.retry);
    for (const c of [this.subscriber, this.client]) {
      try {
        if (c.isOpen) c.destroy();
      } catch {
        // closing a client that never connected
      }
    }
  }

  private async deleteTags(tags: readonly string[]): Promise<number | undefined> {
    if (!tags.length) return 0;
    const n = await this.run(() => this.client.eval(INVALIDATE_SCRIPT, { keys: tags.map((t) => this.tagKey(t)) }));
    return typeof n === 'number' ? n : undefined;
  }

  /** Every key under the prefix, entries and tag sets; entries counted. */
  private async deletePrefix(): Promise<number | undefined> {
    const entryPrefix = this.entryKey('');
    let n = 0;
    try {
      for await (const batch of this.client.scanIterator({ MATCH: `${escapeGlob(this.options.prefix)}*`, COUNT: 1000 })) {
        if (!batch.length) continue;
        n += batch.filter((k) => String(k).startsWith(entryPrefix)).length;
        await this.run(() => this.client.unlink(batch), true);
      }
      return n;
    } catch (e) {
      this.failed(e);
      return undefined;
    }
  }

  /** Runs one command with the timeout; a failure is logged once and yields undefined. */
  private async run<T>(command: () => Promise<T>, rethrow = false): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    let p: Promise<T> | undefined;
    try {
      p = command();
      const result = await Promise.race([
        p,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`redis command timed out after ${this.options.commandTimeoutMs} ms`)), this.options.commandTimeoutMs);
        }),
      ]);
      if (this.warned) this.recovered();
      return result;
    } catch (e) {
      p?.catch(() => undefined);
      if (rethrow) throw e;
      this.failed(e);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private failed(e: unknown): void {
    cacheMetrics.l2Errors.inc();
    this.down(e);
  }

  private down(e: unknown): void {
    cacheMetrics.l2Up.set(0);
    if (this.warned) return;
    this.warned = true;
    this.log.warn({ err: e instanceof Error ? e.message : String(e), address: this.options.address }, 'cache: Redis (L2) unavailable; continuing with L1 only until it returns');
  }

  /** Connected again, or a command succeeded after failures: the next failure warns again. */
  private recovered(): void {
    cacheMetrics.l2Up.set(1);
    if (this.warned) this.log.info({ address: this.options.address }, 'cache: Redis (L2) is back');
    this.warned = false;
  }

  private watch(events: RedisEvents): void {
    this.client.on('error', (e: unknown) => this.down(e));
    // The subscriber fails together with the client; the client's error is the one reported.
    this.subscriber.on('error', () => undefined);
    this.client.on('ready', () => {
      this.recovered();
      void this.replay();
    });
    this.subscriber.on('ready', () => events.resubscribed());
  }

  private remember(tags: readonly string[] | null): void {
    const merged = tags === null || this.pending.includes(null) ? [null] : [...this.pending, tags];
    // A long outage with many writes collapses into one "everything".
    this.pending = merged.reduce((n, t) => n + (t?.length ?? 0), 0) > 1000 ? [null] : merged;
    // Connected but the command failed or timed out (a loaded Redis): no reconnection will replay it,
    // so it is tried again shortly; until then the entries it drops could be served stale.
    if (this.client.isReady && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = undefined;
        void this.replay();
      }, this.options.commandTimeoutMs);
      this.retry.unref();
    }
  }

  private async replay(): Promise<void> {
    const todo = this.pending;
    this.pending = [];
    if (todo.includes(null)) await this.invalidate(null);
    else if (todo.length) await this.invalidate([...new Set(todo.flatMap((t) => t ?? []))]);
  }

  private receive(raw: string, events: RedisEvents): void {
    try {
      const msg = JSON.parse(raw) as InvalidationMessage;
      if (msg.from !== this.instanceId) events.message(msg);
    } catch {
      this.log.warn('cache: ignored a malformed invalidation message');
    }
  }

  private entryKey(key: string): string {
    return `${this.options.prefix}k:${key}`;
  }

  private tagKey(tag: string): string {
    return `${this.options.prefix}tag:${tag}`;
  }

}

/** L2 value: a one-line JSON header (expiry, tags) then the encoded value. */
function pack(e: StoredEntry): string {
  return `${JSON.stringify({ e: e.expiresAt, t: e.tags })}\n${e.text}`;
}

function unpack(raw: string): StoredEntry | undefined {
  const nl = raw.indexOf('\n');
  if (nl < 0) return undefined;
  try {
    const head = JSON.parse(raw.slice(0, nl)) as { e: number; t: string[] };
    return { expiresAt: head.e, tags: head.t, text: raw.slice(nl + 1) };
  } catch {
    return undefined;
  }
}

function connection(address: string): { url?: string; socket: { host?: string; port?: number; connectTimeout: number; reconnectStrategy: (n: number) => number } } {
  // Back off to at most 2 s between attempts so a returning Redis is picked up quickly.
  const common = { connectTimeout: 1000, reconnectStrategy: (n: number) => Math.min(50 * 2 ** n, 2000) };
  if (address.includes('://')) return { url: address, socket: common };
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address);
  if (!m) throw new PublicError(ErrorCode.ConfigInvalid, `invalid CACHE_L2_ADDRESSES entry ${JSON.stringify(address)}: use host:port`);
  return { socket: { ...common, host: m[1]!, port: m[2] ? Number(m[2]) : 6379 } };
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, '\\$&');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
