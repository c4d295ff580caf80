// EXTENSIONS (issue 20 item 1): the Nest modules a team names in configuration, imported into the
// application by `npm start`. Each entry is a module file resolved from the working directory: a
// `.js`/`.mjs` file as it is, a `.ts` file through its build output under dist/ (what `npm run
// build` writes), or the `.ts` file itself when svc runs from its TypeScript source (tests).
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Type } from '@nestjs/common';
import { ErrorCode, PublicError } from '../shared/errors.js';

/** Nest's @Module() records its metadata under these keys; a class with any of them is a module. */
const MODULE_KEYS = ['imports', 'providers', 'controllers', 'exports'];

const FROM_SOURCE = import.meta.url.endsWith('.ts');
/** The repository svc runs from: src/extensions/ in it, or dist/src/extensions/ once built. */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), FROM_SOURCE ? '../..' : '../../..');

const isModule = (v: unknown): v is Type => typeof v === 'function' && MODULE_KEYS.some((k) => Reflect.getMetadata(k, v) !== undefined);

function importable(entry: string, cwd: string): string {
  const file = isAbsolute(entry) ? entry : resolve(cwd, entry);
  if (/\.m?js$/.test(file)) {
    if (!existsSync(file)) throw new PublicError(ErrorCode.ConfigInvalid, `EXTENSIONS: ${entry}: no such file`);
    return file;
  }
  if (/\.ts$/.test(file)) {
    // `npm run build` compiles the repository's .ts files (extensions/, examples/) into dist/.
    const built = join(REPO, 'dist', relative(REPO, file).replace(/\.ts$/, '.js'));
    // The extension is loaded as svc itself was: compiled next to compiled svc, or as TypeScript
    // source when svc runs from source (tests); mixing the two would give it other class tokens.
    if (FROM_SOURCE && existsSync(file)) return file;
    if (existsSync(built)) return built;
    throw new PublicError(ErrorCode.ConfigInvalid, `EXTENSIONS: ${entry}: no such file (nor its build output ${relative(REPO, built)}; run \`npm run build\`)`);
  }
  throw new PublicError(ErrorCode.ConfigInvalid, `EXTENSIONS: ${entry}: name a module file (.ts, .js or .mjs)`);
}

/** Imports each file and returns the Nest modules it exports, in the order given. */
export async function loadExtensionModules(entries: readonly string[], cwd: string): Promise<Type[]> {
  const modules: Type[] = [];
  for (const entry of entries) {
    const file = importable(entry, cwd);
    let exported: Record<string, unknown>;
    try {
      exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (e) {
      throw new PublicError(ErrorCode.ConfigInvalid, `EXTENSIONS: ${entry} could not be loaded: ${(e as Error).message.split('\n')[0]}`);
    }
    const found = Object.values(exported).filter(isModule);
    if (!found.length) throw new PublicError(ErrorCode.ConfigInvalid, `EXTENSIONS: ${entry} exports no Nest module (a class decorated with @Module())`);
    modules.push(...found);
  }
  return modules;
}
