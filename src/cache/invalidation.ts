// Tag invalidation (SPEC §7, §9): the result cache and the caches kept outside it (role permissions
// `$role_permissions`, managed API keys `$AuthAPIKeys`, per-role schemas) drop together, here and,
// through the cluster's broadcast, on the other nodes. No tags means everything.
import type { ResultCache } from './result-cache.js';

type Listener = (tags: readonly string[] | undefined) => void;

/** What this service needs from the rest of the node, given once the node is composed. */
export interface InvalidationScope {
  /** The object names of one loaded catalog, or undefined when it is not loaded. */
  objectsOf(catalog: string): readonly string[] | undefined;
  /** Sends tags to the other nodes of a cluster (a no-op when standalone). */
  share(tags: readonly string[]): void;
}

export class Invalidation {
  private readonly listeners = new Set<Listener>();
  private scope: InvalidationScope = { objectsOf: () => undefined, share: () => undefined };

  constructor(private readonly cache: ResultCache) {
    // Another node's invalidation, heard through the shared Redis: the same caches drop (SPEC §12).
    cache.onRemoteInvalidation((tags) => this.notify(tags));
  }

  within(scope: InvalidationScope): void {
    this.scope = scope;
  }

  /** Caches kept outside the result cache hear every invalidation here. */
  onInvalidate(listener: Listener): void {
    this.listeners.add(listener);
  }

  /** On every node: the cached results with these tags (all without tags) and the listeners' caches. */
  async invalidate(tags: readonly string[] | undefined): Promise<number> {
    const n = await this.cache.invalidate(tags?.length ? tags : undefined);
    this.notify(tags);
    this.scope.share(tags?.length ? tags : []);
    return n;
  }

  /**
   * On this node only (a cluster broadcast asked for it): cached per-role schemas and the results
   * of one catalog's objects (all without a catalog), and the given cache tags.
   */
  async invalidateHere(catalog: string | undefined, tags: readonly string[] | undefined): Promise<number> {
    if (tags?.length) {
      const n = await this.cache.invalidate(tags);
      this.notify(tags);
      return n;
    }
    this.notify(undefined);
    const objects = catalog ? this.scope.objectsOf(catalog) : undefined;
    if (catalog && !objects) return 0;
    return this.cache.invalidate(objects?.length ? objects : undefined);
  }

  private notify(tags: readonly string[] | undefined): void {
    for (const l of this.listeners) l(tags?.length ? tags : undefined);
  }
}
