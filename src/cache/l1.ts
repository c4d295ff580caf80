// L1: the in-process LRU (SPEC §9), bounded by the bytes of the JSON text it holds
// (CACHE_L1_MAX_SIZE) with a per-item ceiling (CACHE_L1_MAX_ITEM_SIZE). A Map keeps insertion
// order, so re-inserting on every hit makes its first key the least recently used one.
import { byteLength } from './codec.js';

export interface StoredEntry {
  readonly text: string;
  readonly tags: readonly string[];
  /** Epoch ms; 0 = no expiry. */
  readonly expiresAt: number;
}

interface L1Entry extends StoredEntry {
  readonly bytes: number;
}

export interface L1Events {
  /** Called with the number of live entries dropped to make room (not for expired or replaced ones). */
  evicted(count: number): void;
  /** Called with the change of held bytes and entries after every mutation. */
  resized(deltaBytes: number, deltaEntries: number): void;
}

export class MemoryStore {
  private readonly entries = new Map<string, L1Entry>();
  private readonly byTag = new Map<string, Set<string>>();
  private heldBytes = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxItemBytes: number,
    private readonly events: L1Events,
  ) {}

  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now = Date.now()): StoredEntry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt && e.expiresAt <= now) {
      this.remove(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  /** Stores the entry unless it is bigger than the item ceiling (or the whole cache); returns whether it did. */
  set(key: string, entry: StoredEntry): boolean {
    this.remove(key);
    const bytes = byteLength(entry.text);
    if (bytes > this.maxItemBytes || bytes > this.maxBytes) return false;
    this.entries.set(key, { ...entry, bytes });
    for (const t of entry.tags) {
      let keys = this.byTag.get(t);
      if (!keys) this.byTag.set(t, (keys = new Set()));
      keys.add(key);
    }
    this.heldBytes += bytes;
    this.events.resized(bytes, 1);
    this.makeRoom();
    return true;
  }

  /** Drops the entries of any of the tags; returns how many. */
  invalidate(tags: readonly string[]): number {
    let n = 0;
    for (const t of tags) {
      const keys = this.byTag.get(t);
      if (!keys) continue;
      for (const k of [...keys]) if (this.remove(k)) n++;
      this.byTag.delete(t);
    }
    return n;
  }

  clear(): number {
    const n = this.entries.size;
    this.events.resized(-this.heldBytes, -n);
    this.entries.clear();
    this.byTag.clear();
    this.heldBytes = 0;
    return n;
  }

  delete(key: string): boolean {
    return this.remove(key);
  }

  private makeRoom(): void {
    const now = Date.now();
    let evicted = 0;
    while (this.heldBytes > this.maxBytes) {
      const oldest = this.entries.entries().next().value as [string, L1Entry] | undefined;
      if (!oldest) break;
      const [key, e] = oldest;
      this.remove(key);
      // An entry that had already expired is not an eviction: it would have gone anyway.
      if (!e.expiresAt || e.expiresAt > now) evicted++;
    }
    if (evicted) this.events.evicted(evicted);
  }

  private remove(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    this.entries.delete(key);
    this.heldBytes -= e.bytes;
    for (const t of e.tags) {
      const keys = this.byTag.get(t);
      if (!keys) continue;
      keys.delete(key);
      if (!keys.size) this.byTag.delete(t);
    }
    this.events.resized(-e.bytes, -1);
    return true;
  }
}
