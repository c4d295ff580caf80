// Registered object storages (seed 001 `core.storage`), kept in the core database's
// `_object_storages` table. The secret is written here and read back only to sign requests to the
// storage: no view, GraphQL field, log line or error message carries it.
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { Row } from '../../sources/types.js';
import type { CoreStore } from '../core-store.js';

export interface ObjectStorage {
  readonly name: string;
  /** `s3`, `r2`, `gcs`, ...: every kind is reached through the S3 API at `endpoint`. */
  readonly type: string;
  /** URL prefix the storage serves, `s3://bucket` or `s3://bucket/sub/path`. */
  readonly scope: string;
  readonly key_id: string;
  readonly secret: string;
  readonly region: string;
  readonly endpoint: string;
  readonly use_ssl: boolean;
  /** `path` (`endpoint/bucket/key`) or `vhost` (`bucket.endpoint/key`). */
  readonly url_style: string;
  readonly url_compatibility: boolean;
  readonly kms_key_id: string;
  readonly account_id: string;
}

const NAME = /^[_A-Za-z][-_0-9A-Za-z]*$/;
const TYPES = new Set(['s3', 'r2', 'gcs']);

/** The URL schemes a storage kind answers to (`gs://` is GCS's own). */
export const schemesOf = (type: string): readonly string[] => (type === 'gcs' ? ['gcs', 'gs'] : [type]);

const bad = (message: string) => new PublicError(ErrorCode.BadUserInput, message);

/** The scope as a URL prefix without a trailing slash: `bucket/x` of an s3 storage is `s3://bucket/x`. */
export function normalizeScope(type: string, scope: string): string {
  const s = scope.trim().replace(/\/+$/, '');
  const m = /^([a-z0-9]+):\/\/(.+)$/.exec(s);
  if (m) {
    if (!schemesOf(type).includes(m[1]!)) throw bad(`scope "${scope}" does not start with ${type}:// `.trim());
    return `${m[1]}://${m[2]}`;
  }
  if (!s || s.includes('://')) throw bad(`scope must be a bucket or a bucket with a sub-path, not "${scope}"`);
  return `${type}://${s}`;
}

/** Checks and completes what register_object_storage was given (seed 001 defaults). */
export function storageOf(a: Record<string, unknown>): ObjectStorage {
  const str = (k: string, d = '') => (a[k] === undefined || a[k] === null ? d : String(a[k]));
  const name = str('name');
  if (!NAME.test(name)) throw bad(`invalid storage name "${name}": letters, digits, _ and -, starting with a letter or _`);
  const type = str('type').toLowerCase();
  if (!TYPES.has(type)) throw bad(`storage type must be one of ${[...TYPES].join(', ')} (all reached through the S3 API), not "${str('type')}"`);
  const urlStyle = str('url_style', 'path');
  if (urlStyle !== 'path' && urlStyle !== 'vhost') throw bad(`url_style must be path or vhost, not "${urlStyle}"`);
  const endpoint = str('endpoint').trim();
  if (!endpoint) throw bad('endpoint is required (host[:port], e.g. s3.amazonaws.com)');
  if (/^[a-z]+:\/\//i.test(endpoint) && !/^https?:\/\//i.test(endpoint)) throw bad(`endpoint must be host[:port] or an http(s) URL, not "${endpoint}"`);
  if (!str('key') || !str('secret')) throw bad('key and secret are required');
  return {
    name, type, scope: normalizeScope(type, str('scope')), key_id: str('key'), secret: str('secret'), region: str('region'), endpoint,
    use_ssl: a.use_ssl !== false, url_style: urlStyle, url_compatibility: a.url_compatibility === true,
    kms_key_id: str('kms_key_id'), account_id: str('account_id'),
  };
}

export class StorageStore {
  constructor(private readonly core: CoreStore) {}

  private get table(): string {
    return this.core.t('_object_storages');
  }

  /** Creates the storage, or replaces the one of the same name (seed 001). */
  async upsert(s: ObjectStorage): Promise<void> {
    const cols = Object.keys(s);
    await this.core.runtime.transaction(async (c) => {
      await c.write({ sql: `DELETE FROM ${this.table} WHERE name = $1`, params: [s.name] });
      await c.write({ sql: `INSERT INTO ${this.table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, params: Object.values(s) });
    });
  }

  async remove(name: string): Promise<number> {
    return this.core.runtime.transaction(async (c) => (await c.write({ sql: `DELETE FROM ${this.table} WHERE name = $1`, params: [name] })).changed);
  }

  async all(): Promise<ObjectStorage[]> {
    return (await this.core.runtime.rows(`SELECT * FROM ${this.table} ORDER BY name`, [])).map(fromRow);
  }

  /** The storage serving `url`: the longest scope that is a prefix of it (on a `/` boundary). */
  async forUrl(url: string): Promise<ObjectStorage | undefined> {
    let best: ObjectStorage | undefined;
    for (const s of await this.all()) {
      const schemeFree = (u: string) => u.replace(/^[a-z0-9]+:\/\//, '');
      const [scheme] = url.split('://');
      if (!schemesOf(s.type).includes(scheme!)) continue;
      const scope = schemeFree(s.scope);
      const path = schemeFree(url);
      if (path !== scope && !path.startsWith(`${scope}/`)) continue;
      if (!best || s.scope.length > best.scope.length) best = s;
    }
    return best;
  }
}

const fromRow = (r: Row): ObjectStorage => ({
  name: String(r.name), type: String(r.type), scope: String(r.scope), key_id: String(r.key_id ?? ''), secret: String(r.secret ?? ''),
  region: String(r.region ?? ''), endpoint: String(r.endpoint ?? ''), use_ssl: r.use_ssl !== false, url_style: String(r.url_style ?? 'path'),
  url_compatibility: r.url_compatibility === true, kms_key_id: String(r.kms_key_id ?? ''), account_id: String(r.account_id ?? ''),
});
