// Reads the SDL files of a catalog source (SPEC §3.1): a directory of *.graphql files (localFS) or
// one file / URL (uri).
import { traceHeaders } from '../shared/tracing.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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

export async function readCatalogFiles(type: string, path: string): Promise<CatalogFile[]> {
  if (type === 'uri' && /^https?:\/\//.test(path)) {
    const res = await fetch(path, { signal: AbortSignal.timeout(10_000), headers: traceHeaders() });
    if (!res.ok) throw new PublicError(ErrorCode.CatalogInvalid, `catalog "${path}" answered ${res.status}`);
    return [{ file: path, text: await res.text() }];
  }
  const local = path.replace(/^file:\/\//, '');
  if (!existsSync(local)) throw new PublicError(ErrorCode.CatalogInvalid, `catalog path "${local}" does not exist`);
  if (statSync(local).isFile()) return [{ file: relative(process.cwd(), local) || local, text: readFileSync(local, 'utf8') }];
  return walk(local).map((f) => ({ file: relative(process.cwd(), f) || f, text: readFileSync(f, 'utf8') }));
}
