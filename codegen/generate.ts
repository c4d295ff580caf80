// What codegen writes, computed in memory, and how it differs from the files on disk.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { compileCatalog } from '../src/catalog/compile.js';
import { applyExtensions, compileExtension } from '../src/catalog/extension.js';
import type { ResolvedCatalog, SourceInfo } from '../src/catalog/model.js';
import type { CatalogFile } from '../src/catalog/compile.js';
import { sourceKind } from '../src/sources/kinds.js';
import { ErrorCode, PublicError } from '../src/shared/errors.js';
import { subgraphSdl } from '../src/federation/subgraph.js';
import { compileSchema } from '../src/pipeline/schema.service.js';
import { readCatalogFiles } from '../src/system/catalog-files.js';
import { compileCoreCatalog } from '../src/system/core-catalog.js';
import { readDeclaredSources } from '../src/system/declared-sources.js';
import { ALL_SYSTEM_FUNCTIONS, SYSTEM_CATALOGS, SYSTEM_SURFACE, SYSTEM_TYPES_SDL } from '../src/system/modules.js';
import { renderClient } from './client.js';
import { pascal, renderCatalogJson, renderModule, renderSchema, renderSubgraph, renderTypes } from './render.js';

export const GENERATED = 'src/generated';

async function compileAll(dir: string): Promise<ResolvedCatalog[]> {
  const out = [compileCoreCatalog('duckdb', false)];
  const extensions: { info: SourceInfo; files: CatalogFile[] }[] = [];
  for (const d of readDeclaredSources(dir)) {
    if (d.row.self_defined) throw new PublicError(ErrorCode.BadUserInput, `data source "${d.row.name}" is self_defined: its catalog is read from the database when it loads, so codegen has no catalog files to compile (describe_data_source_schema(self: true) writes one)`);
    const files = await readCatalogFiles(d.catalog.type, d.catalog.path);
    const info: SourceInfo = { name: d.row.name, type: d.row.type, prefix: d.row.prefix, asModule: d.row.as_module, readOnly: !!d.row.read_only };
    const kind = sourceKind(d.row.type);
    if (kind.capabilities.extendsOthers) extensions.push({ info, files });
    else out.push(compileCatalog(info, files, kind.capabilities.catalog));
  }
  // Extension sources as at start: after every other source, each checked against those served before it.
  for (const e of extensions) out.push(compileExtension(e.info, e.files, applyExtensions(out).catalogs));
  return out;
}

export async function outputs(dir: string): Promise<Map<string, string>> {
  const generated = await compileAll(dir);
  // The other system modules are served (schema.graphql shows them) but get no generated client.
  const catalogs = [...generated, ...SYSTEM_CATALOGS()];
  const { schema, surface } = compileSchema(catalogs, ALL_SYSTEM_FUNCTIONS, SYSTEM_TYPES_SDL);
  const files = new Map<string, string>();
  for (const c of generated) {
    const base = join(GENERATED, c.source.name);
    files.set(join(base, 'catalog.json'), renderCatalogJson(c));
    // An extension has no root fields of its own: its relations and fields are in the clients of the sources it extends.
    if (c.extension) continue;
    const client = renderClient(schema, surface.index, c, pascal(c.source.name));
    files.set(join(base, 'types.ts'), renderTypes(c, client));
    files.set(join(base, 'module.ts'), renderModule(c, client));
  }
  files.set('schema.graphql', renderSchema(schema));
  // What `_service { sdl }` answers under FEDERATION=true, for `rover subgraph publish` and composition checks.
  const federated = compileSchema(catalogs, ALL_SYSTEM_FUNCTIONS, SYSTEM_TYPES_SDL, { exclude: SYSTEM_SURFACE.sources });
  files.set('schema.subgraph.graphql', renderSubgraph(subgraphSdl(federated.schema, federated.entities!)));
  return files;
}

function existing(root: string): string[] {
  const base = join(root, GENERATED);
  if (!existsSync(base)) return [];
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  return walk(base).map((p) => relative(root, p));
}

/**
 * Files that differ from what codegen would write (paths relative to `root`). `leftovers`: also
 * generated files no catalog produces (only for the repository's own catalogs: generated from
 * another CATALOGS_DIR, the example's files are kept, and so are the extensions compiled against them).
 */
export function staleFiles(files: ReadonlyMap<string, string>, root: string, leftovers = true): string[] {
  const stale: string[] = [];
  for (const [path, text] of files) {
    const full = join(root, path);
    const current = existsSync(full) ? readFileSync(full, 'utf8') : undefined;
    if (current !== text) stale.push(`${current === undefined ? 'missing' : 'stale'}: ${path}`);
  }
  if (leftovers) for (const path of existing(root)) if (!files.has(path)) stale.push(`not generated from any catalog: ${path}`);
  return stale;
}

/** Writes the generated files under `root` and, with `prune`, removes generated files no catalog produces. */
export function writeFiles(files: ReadonlyMap<string, string>, root: string, prune = true): void {
  for (const [path, text] of files) {
    const full = join(root, path);
    if (existsSync(full) && readFileSync(full, 'utf8') === text) continue;
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  if (prune) for (const path of existing(root)) if (!files.has(path)) rmSync(join(root, path));
}
