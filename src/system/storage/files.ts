// Files of a path for `core.storage.ls` and for DuckDB sources reading a registered storage: local
// paths (inside STORAGE_LOCAL_PATHS only) and `s3://`-style URLs of a registered storage, through
// the S3 API. A path is a file, a directory (its files, not recursive) or a glob (`*`, `**`, `?`,
// `{a,b}`). Listings are bounded: past `maxFiles` files or `MAX_SCANNED` keys the answer is refused.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { ObjectStorage, StorageStore } from './store.js';

export interface FileEntry {
  /** The file's URL (`s3://bucket/key`) or absolute local path. */
  readonly name: string;
  readonly size: number;
  readonly lastModified: Date | null;
  /** An S3 ETag or a local mtime+size: changes when the file does (the cache compares it). */
  readonly version: string;
}

export interface FilesOptions {
  readonly storages: StorageStore;
  /** Directories local paths may be in (STORAGE_LOCAL_PATHS); empty: no local path is listed. */
  readonly localRoots: readonly string[];
  readonly maxFiles: number;
  readonly timeoutMs: number;
}

/** Keys (or directory entries) looked at for one listing at most, matching or not. */
const MAX_SCANNED = 100_000;

// The SDK warns on Node 20 about its future releases; the version here is pinned (package.json),
// so the warning would only puzzle operators reading the server's stderr.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** The S3 SDK takes about a second to load: only servers that reach a storage pay for it. */
let sdkModule: Promise<typeof import('@aws-sdk/client-s3')> | undefined;
const sdk = () => (sdkModule ??= import('@aws-sdk/client-s3'));

/** A copy for a DuckDB source may be large: it gets longer than a listing, but not forever. */
const DOWNLOAD_TIMEOUT_MS = 15 * 60_000;

const bad = (message: string) => new PublicError(ErrorCode.BadUserInput, message);
const GLOB = /[*?{[]/;

/** A glob over `/`-separated names as a RegExp: `**` any depth, `*` and `?` within one name. */
export function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) throw bad(`unclosed { in "${glob}"`);
      re += `(?:${glob.slice(i + 1, end).split(',').map((p) => p.replace(/[.+^$()|\\[\]]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|')})`;
      i = end;
    } else re += ch.replace(/[.+^$()|\\[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export const isRemote = (path: string): boolean => /^[a-z0-9]+:\/\//.test(path);

export class StorageFiles {
  constructor(private readonly o: FilesOptions) {}

  async list(path: string): Promise<FileEntry[]> {
    if (!path) throw bad('path is required');
    return isRemote(path) ? this.listRemote(path) : this.listLocal(path);
  }

  /** Reads a listed file whole (bounded by the caller's size check). */
  async read(name: string): Promise<Buffer> {
    if (!isRemote(name)) return readFile(await this.localPath(name));
    const { storage, bucket, key } = await this.locate(name);
    const body = await this.get(storage, bucket, key, this.o.timeoutMs);
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  /** Copies a remote file to `dest` (through a temporary file, so a reader never sees half of it). */
  async download(name: string, dest: string): Promise<void> {
    const { storage, bucket, key } = await this.locate(name);
    await mkdir(dirname(dest), { recursive: true });
    const tmp = `${dest}.part-${process.pid}`;
    await pipeline(await this.get(storage, bucket, key, DOWNLOAD_TIMEOUT_MS), createWriteStream(tmp));
    await rename(tmp, dest);
  }

  // ---- local ----

  /** The real path of a local path, refused outside STORAGE_LOCAL_PATHS (symbolic links resolved). */
  private async localPath(path: string): Promise<string> {
    if (!this.o.localRoots.length) throw new PublicError(ErrorCode.Forbidden, 'local paths are not listed: the operator names the directories ls may read in STORAGE_LOCAL_PATHS');
    const inside = (p: string, roots: readonly string[]) => roots.some((r) => p === r || p.startsWith(r.endsWith(sep) ? r : r + sep));
    const outside = () => new PublicError(ErrorCode.Forbidden, `"${path}" is outside the directories ls may read (STORAGE_LOCAL_PATHS)`);
    // Outside first, then existence: whether a file outside exists is not told.
    if (!inside(resolve(path), this.o.localRoots.map((r) => resolve(r)))) throw outside();
    let real: string;
    try {
      real = await realpath(resolve(path));
    } catch {
      throw new PublicError(ErrorCode.NotFound, `no such file or directory "${path}"`);
    }
    const roots = await Promise.all(this.o.localRoots.map((r) => realpath(resolve(r)).catch(() => resolve(r))));
    if (!inside(real, roots)) throw outside();
    return real;
  }

  private async entry(file: string): Promise<FileEntry> {
    const st = await stat(file);
    return { name: file, size: st.size, lastModified: st.mtime, version: `${st.mtimeMs}-${st.size}` };
  }

  private async listLocal(path: string): Promise<FileEntry[]> {
    const at = path.search(GLOB);
    if (at < 0) {
      const real = await this.localPath(path);
      if (!(await stat(real)).isDirectory()) return [await this.entry(real)];
      const names = (await readdir(real, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name).sort();
      this.bound(names.length, path);
      return Promise.all(names.map((n) => this.entry(join(real, n))));
    }
    const base = dirname(path.slice(0, at) + 'x');
    const root = await this.localPath(base);
    const match = globRegExp(relative(resolve(base), resolve(path)).split(sep).join('/'));
    const out: string[] = [];
    let scanned = 0;
    const walk = async (dir: string): Promise<void> => {
      for (const d of await readdir(dir, { withFileTypes: true })) {
        if (++scanned > MAX_SCANNED) throw bad(`"${path}" looks at more than ${MAX_SCANNED} entries; narrow it`);
        const full = join(dir, d.name);
        if (d.isDirectory()) await walk(full);
        else if (d.isFile() && match.test(relative(root, full).split(sep).join('/'))) {
          out.push(full);
          this.bound(out.length, path);
        }
      }
    };
    await walk(root);
    // Links out of the allowed directories are not followed: each match is checked again.
    return Promise.all(out.sort().map(async (f) => this.entry(await this.localPath(f))));
  }

  private bound(n: number, path: string): void {
    if (n > this.o.maxFiles) throw bad(`"${path}" matches more than ${this.o.maxFiles} files; narrow it`);
  }

  // ---- remote (S3 API) ----

  private async locate(url: string): Promise<{ storage: ObjectStorage; bucket: string; key: string; scheme: string }> {
    const m = /^([a-z0-9]+):\/\/([^/]+)\/?(.*)$/.exec(url);
    if (!m) throw bad(`"${url}" is not a storage URL (scheme://bucket/key)`);
    const storage = await this.o.storages.forUrl(url);
    if (!storage) throw new PublicError(ErrorCode.NotFound, `no registered object storage serves "${url}" (register one whose scope covers it with register_object_storage)`);
    return { storage, scheme: m[1]!, bucket: m[2]!, key: m[3]! };
  }

  private async client(s: ObjectStorage): Promise<S3Client> {
    const { S3Client } = await sdk();
    const endpoint = /^https?:\/\//i.test(s.endpoint) ? s.endpoint : `${s.use_ssl ? 'https' : 'http'}://${s.endpoint}`;
    return new S3Client({
      endpoint, region: s.region || 'us-east-1', forcePathStyle: s.url_style !== 'vhost', maxAttempts: 2,
      credentials: { accessKeyId: s.key_id, secretAccessKey: s.secret },
    });
  }

  /** Runs one S3 call; its failure names the storage and the service's error code, never a credential. */
  private async send<T>(s: ObjectStorage, what: string, fn: (c: S3Client, signal: AbortSignal) => Promise<T>): Promise<T> {
    const { S3ServiceException } = await sdk();
    const c = await this.client(s);
    try {
      return await fn(c, AbortSignal.timeout(this.o.timeoutMs));
    } catch (e) {
      if (e instanceof S3ServiceException) {
        const code = e.$metadata.httpStatusCode === 404 || e.name === 'NoSuchKey' || e.name === 'NoSuchBucket' ? ErrorCode.NotFound : ErrorCode.SourceUnavailable;
        throw new PublicError(code, `object storage "${s.name}" refused ${what}: ${e.name}${e.$metadata.httpStatusCode ? ` (${e.$metadata.httpStatusCode})` : ''}`);
      }
      const why = (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError' ? 'timed out' : 'is unreachable';
      throw new PublicError(ErrorCode.SourceUnavailable, `object storage "${s.name}" ${why} (${what})`);
    } finally {
      c.destroy();
    }
  }

  private async get(s: ObjectStorage, bucket: string, key: string, timeoutMs: number): Promise<Readable> {
    // The body streams after send() returns: the client is kept open until it ends.
    const { GetObjectCommand } = await sdk();
    const c = await this.client(s);
    try {
      const r = await c.send(new GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: AbortSignal.timeout(timeoutMs) });
      const body = r.Body as Readable;
      body.once('close', () => c.destroy());
      return body;
    } catch (e) {
      c.destroy();
      return this.send(s, `reading s3://${bucket}/${key}`, () => Promise.reject(e));
    }
  }

  private async listRemote(url: string): Promise<FileEntry[]> {
    const { storage, bucket, key, scheme } = await this.locate(url);
    const { ListObjectsV2Command } = await sdk();
    const at = key.search(GLOB);
    const out: FileEntry[] = [];
    const entry = (k: string, size: number | undefined, modified: Date | undefined, etag: string | undefined): FileEntry =>
      ({ name: `${scheme}://${bucket}/${k}`, size: size ?? 0, lastModified: modified ?? null, version: etag ?? `${modified?.getTime()}-${size}` });
    // A glob lists everything under its fixed part; a plain key is a file, or a directory of files.
    const pages = async (prefix: string, delimiter: string | undefined, take: (k: string) => boolean) => {
      let token: string | undefined;
      let scanned = 0;
      do {
        const page = await this.send(storage, `listing ${scheme}://${bucket}/${prefix}`, (c, abortSignal) =>
          c.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token, MaxKeys: 1000 }), { abortSignal }));
        for (const o of page.Contents ?? []) {
          if (++scanned > MAX_SCANNED) throw bad(`"${url}" looks at more than ${MAX_SCANNED} keys; narrow it`);
          if (!o.Key || o.Key.endsWith('/') || !take(o.Key)) continue;
          out.push(entry(o.Key, o.Size, o.LastModified, o.ETag));
          this.bound(out.length, url);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    };
    if (at >= 0) {
      const match = globRegExp(key);
      await pages(key.slice(0, at), undefined, (k) => match.test(k));
    } else if (key && !key.endsWith('/')) {
      await pages(key, '/', (k) => k === key);
      if (!out.length) await pages(`${key}/`, '/', () => true);
    } else {
      await pages(key, '/', () => true);
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }
}
