// Reads the SDL files of a catalog source (SPEC §3.1): a directory of *.graphql files (localFS) or
// one file / URL (uri; hugr's `uriFile` names a single file or URL and is read the same way).
import { traceHeaders } from '../shared/tracing.js';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { CatalogFile } from '../catalog/compile.js';
import { ErrorCode, PublicError } from '../shared/errors.js';

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(p));
    else if (/\.(graphql|gql)$/.test(entry.name)) out.push(p);
  }
  return out;
}

/** True when `path` (symbolic links resolved) lies inside one of the directories `allowed`. */
function inside(path: string, allowed: readonly string[]): boolean {
  const real = existsSync(path) ? realpathSync(path) : path;
  return allowed.some((dir) => {
    if (!existsSync(dir)) return false;
    const rel = relative(realpathSync(dir), real);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

/**
 * `allowed`: the directories local catalog files may come from (CATALOG_ALLOWED_PATHS and
 * CATALOGS_DIR, issue 14 item 2); without it (codegen, run by the operator) any path is read.
 * A path outside them is refused before anything is read, so a registered catalog cannot make the
 * server read `/etc/passwd` or any other file it can open.
 */
export async function readCatalogFiles(type: string, path: string, allowed?: readonly string[]): Promise<CatalogFile[]> {
  if ((type === 'uri' || type === 'uriFile') && /^https?:\/\//.test(path)) {
    const res = await fetch(path, { signal: AbortSignal.timeout(10_000), headers: traceHeaders() });
    if (!res.ok) throw new PublicError(ErrorCode.CatalogInvalid, `catalog "${path}" answered ${res.status}`);
    return [{ file: path, text: await res.text() }];
  }
  if (type !== 'uri' && type !== 'uriFile' && type !== 'localFS') throw new PublicError(ErrorCode.CatalogInvalid, `unknown catalog source type "${type}": use localFS, uri or uriFile`);
  const local = resolve(path.replace(/^file:\/\//, ''));
  if (allowed && !inside(local, allowed)) {
    throw new PublicError(ErrorCode.Forbidden, `catalog path "${path}" is outside the directories catalogs may be read from (CATALOG_ALLOWED_PATHS)`);
  }
  if (!existsSync(local)) throw new PublicError(ErrorCode.CatalogInvalid, `catalog path "${local}" does not exist`);
  if (statSync(local).isFile()) return [{ file: relative(process.cwd(), local) || local, text: readFileSync(local, 'utf8') }];
  return walk(local).map((f) => ({ file: relative(process.cwd(), f) || f, text: readFileSync(f, 'utf8') }));
}
