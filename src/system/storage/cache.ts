// DuckDB sources over registered object storages. DuckDB's httpfs extension cannot be installed
// here (no extension downloads, DESIGN.md §1), so svc copies the files itself: when a DuckDB source
// loads, every `s3://...` (also `r2://`, `gcs://`, `gs://`) string literal in its views' SQL is
// listed through the S3 API, the files it names are downloaded into STORAGE_CACHE_DIR (only those
// whose ETag changed since the last copy), and the literal is rewritten to the local copy, globs
// kept. `read_parquet('s3://b/sales/*.parquet')` therefore reads what the storage held when the
// source was last loaded; `load_data_source` again refreshes it. A source whose `path` is a storage
// URL gets its DuckDB file the same way and is opened read-only.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ResolvedCatalog } from '../../catalog/model.js';
import type { Logger } from '../../shared/logger.js';
import type { FileEntry, StorageFiles } from './files.js';
import { globRegExp } from './files.js';

const URL_LITERAL = /'((?:s3|r2|gcs|gs):\/\/[^']+)'/g;

export class StorageCache {
  private readonly dir: string;

  constructor(
    private readonly files: StorageFiles,
    dir: string,
    private readonly log: Logger,
  ) {
    this.dir = resolve(dir);
  }

  /** Where the copy of a storage URL lives (the same layout for globs: `<dir>/s3/bucket/key`). */
  localPath(url: string): string {
    const [scheme, rest] = url.split('://') as [string, string];
    // `..` in a key must not climb out of the cache.
    const parts = rest.split('/').filter((p) => p && p !== '.' && p !== '..');
    return join(this.dir, scheme, ...parts);
  }

  /** Copies one file when its version changed; the version is kept beside the copy. */
  private async fetch(f: FileEntry): Promise<void> {
    const dest = this.localPath(f.name);
    const stamp = `${dest}.svc-version`;
    const had = await readFile(stamp, 'utf8').catch(() => undefined);
    if (had === f.version) return;
    await this.files.download(f.name, dest);
    await writeFile(stamp, f.version);
  }

  /** Downloads what a URL (file, directory or glob) names; copies the storage no longer holds are removed. */
  async copy(url: string): Promise<string> {
    const listed = await this.files.list(url);
    for (const f of listed) await this.fetch(f);
    const at = url.search(/[*?{[]/);
    if (at >= 0) {
      // A file deleted from the storage must not stay readable through the glob.
      const match = globRegExp(this.localPath(url));
      const keep = new Set(listed.map((f) => this.localPath(f.name)));
      const base = this.localPath(url.slice(0, url.lastIndexOf('/', at)));
      const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const full = join(e.parentPath, e.name);
        if (e.isFile() && !full.endsWith('.svc-version') && match.test(full) && !keep.has(full)) {
          await rm(full, { force: true });
          await rm(`${full}.svc-version`, { force: true });
        }
      }
    }
    this.log.info({ url, files: listed.length }, 'object storage files copied for a DuckDB source');
    return this.localPath(url);
  }

  /** The catalog with every storage URL in its views' SQL replaced by the local copy. */
  async localize(catalog: ResolvedCatalog): Promise<ResolvedCatalog> {
    const urls = new Set<string>();
    for (const o of catalog.objects) for (const m of (o.sql ?? '').matchAll(URL_LITERAL)) urls.add(m[1]!);
    if (!urls.size) return catalog;
    const local = new Map<string, string>();
    for (const u of urls) local.set(u, await this.copy(u));
    const rewrite = (sql: string) => sql.replace(URL_LITERAL, (_, u: string) => `'${local.get(u)!.replaceAll("'", "''")}'`);
    return { ...catalog, objects: catalog.objects.map((o) => (o.sql && rewrite(o.sql) !== o.sql ? { ...o, sql: rewrite(o.sql) } : o)) };
  }
}
