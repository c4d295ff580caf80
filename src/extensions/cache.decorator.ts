// `@SvcCache()` on an extension module's @Query method: svc's result cache (SPEC §9) answers the
// field like a generated field whose type carries `@cache` — entries per role, user, `[$auth.*]`
// values, time zone, document and variables; tagged with what the method read through a typed
// client, so a write to those objects drops them. A client's own `@cache` / `@no_cache` /
// `@invalidate_cache` on the field apply too (with or without the decorator).
import { SetMetadata } from '@nestjs/common';

export interface SvcCacheOptions {
  /** Seconds or a duration ("5m"); default CACHE_TTL. */
  readonly ttl?: number | string;
  /** Entries of the same key are shared by documents that differ otherwise (SPEC §9 `key`). */
  readonly key?: string;
  /** Tags `invalidate_cache` can name, beside the objects read. */
  readonly tags?: readonly string[];
}

export const SVC_CACHE = 'svc:cache';

export const SvcCache = (options: SvcCacheOptions = {}): MethodDecorator => SetMetadata(SVC_CACHE, options);
