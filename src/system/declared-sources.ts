// Data sources declared by files: CATALOGS_DIR/<source>/source.yaml next to its *.graphql files
// (SPEC §3.1), registered at start as if inserted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { SOURCE_TYPES } from '../sources/kinds.js';
import type { CatalogSourceRow, DataSourceRow } from './core-store.js';

const sourceFile = z.strictObject({
  type: z.enum(SOURCE_TYPES),
  path: z.string().default(''),
  prefix: z.string().default(''),
  as_module: z.boolean().default(false),
  read_only: z.boolean().default(false),
  disabled: z.boolean().default(false),
  self_defined: z.boolean().default(false),
  description: z.string().optional(),
  seed: z.string().optional(),
  /** A duckdb source may create its file when missing (with `seed`, the example catalogs do). */
  create: z.boolean().default(false),
});

export interface DeclaredSource {
  readonly row: DataSourceRow;
  readonly catalog: CatalogSourceRow;
  readonly seedFile?: string;
  readonly create?: boolean;
}

export function readDeclaredSources(dir: string): DeclaredSource[] {
  if (!existsSync(dir)) return [];
  const out: DeclaredSource[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const folder = join(dir, entry.name);
    const file = join(folder, 'source.yaml');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const parsed = sourceFile.safeParse(parseYaml(readFileSync(file, 'utf8')) ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.');
      throw new PublicError(ErrorCode.ConfigInvalid, `${file}: ${issue.code === 'unrecognized_keys' ? `unknown key "${key}"` : `invalid "${key}": ${issue.message}`}`);
    }
    const s = parsed.data;
    out.push({
      row: {
        name: entry.name, type: s.type, prefix: s.prefix, as_module: s.as_module, description: s.description ?? null,
        path: s.path, disabled: s.disabled, self_defined: s.self_defined, read_only: s.read_only,
      },
      catalog: { name: entry.name, type: 'localFS', description: `declared in ${file}`, path: folder },
      ...(s.seed ? { seedFile: resolve(folder, s.seed) } : {}),
      create: s.create,
    });
  }
  return out;
}
