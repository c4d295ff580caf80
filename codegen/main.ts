// `npm run codegen` compiles every catalog under CATALOGS_DIR (default ./catalogs) with the same
// compiler the server uses, and writes src/generated/<source>/ and schema.graphql.
// `npm run codegen:check` writes nothing: it exits 1 naming each stale or missing file.
import { PublicError } from '../src/shared/errors.js';
import { resolve } from 'node:path';
import { GENERATED, outputs, staleFiles, writeFiles } from './generate.js';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dir = process.env.CATALOGS_DIR ?? './catalogs';
  // Generated folders of sources not in these catalogs are removed only for the repository's own
  // catalogs: a user's CATALOGS_DIR keeps src/generated/shop, which the example extension imports.
  const own = resolve(dir) === resolve('catalogs');
  const files = await outputs(dir);
  if (check) {
    const stale = staleFiles(files, '.', own);
    if (stale.length) {
      console.error(`codegen: generated files are out of date; run \`npm run codegen\`\n  ${stale.join('\n  ')}`);
      process.exit(1);
    }
    console.log(`codegen: ${files.size} generated files are up to date`);
    return;
  }
  writeFiles(files, '.', own);
  console.log(`codegen: wrote ${files.size} files (${GENERATED}/, schema.graphql)`);
}

main().catch((e: unknown) => {
  console.error(`codegen: ${e instanceof PublicError ? e.message : (e as Error).stack}`);
  process.exit(1);
});
