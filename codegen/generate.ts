// What codegen writes, computed in memory, and how it differs from the files on disk.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { compileCatalog } from '../src/catalog/compile.js';
import type { ResolvedCatalog, SourceType } from '../src/catalog/model.js';
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
  for (const d of readDeclaredSources(dir)) {
    const files = await readCatalogFiles(d.catalog.type, d.catalog.path);
    out.push(compileCatalog({ name: d.row.name, type: d.row.type as SourceType, prefix: d.row.prefix, asModule: d.row.as_module, readOnly: !!d.row.read_only }, files));
  }
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

/** Files that differ from what codegen would write (paths relative to `root`). */
export function staleFiles(files: ReadonlyMap<string, string>, root: string): string[] {
  const stale: string[] = [];
  for (const [path, text] of files) {
    const full = join(root, path);
    const current = existsSync(full) ? readFileSync(full, 'utf8') : undefined;
    if (current !== text) stale.push(`${current === undefined ? 'missing' : 'stale'}: ${path}`);
  }
  for (const path of existing(root)) if (!files.has(path)) stale.push(`not generated from any catalog: ${path}`);
  return stale;
}

/** Writes the generated files under `root` and removes generated files no catalog produces. */
export function writeFiles(files: ReadonlyMap<string, string>, root: string): void {
  for (const [path, text] of files) {
    const full = join(root, path);
    if (existsSync(full) && readFileSync(full, 'utf8') === text) continue;
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  for (const path of existing(root)) if (!files.has(path)) rmSync(join(root, path));
}
