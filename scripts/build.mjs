#!/usr/bin/env node
// `npm run build` (and `npm start`, `npm test`, which build first): compiles with tsc unless dist/
// was already built from exactly these sources. The check hashes the path, size and modification
// time of every file tsc reads from the repository (src/, codegen/, the tsconfig, the lock file),
// so it costs milliseconds; a changed, added or removed file rebuilds. `--force` always builds.
//
//   node scripts/build.mjs [--force] [path/to/tsconfig.json]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';


function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

/** A hash of what a build of `tsconfig` in `repo` reads: changes when any input file does. */
export function fingerprint(repo, tsconfig) {
  const h = createHash('sha1');
  h.update(`${process.version}\n`);
  const inputs = [tsconfig, join(repo, 'tsconfig.json'), join(repo, 'package-lock.json')];
  for (const dir of ['src', 'codegen', 'examples', 'extensions']) inputs.push(...files(join(repo, dir)));
  for (const p of inputs.sort()) {
    try {
      const s = statSync(p);
      h.update(`${relative(repo, p)}\t${s.size}\t${s.mtimeMs}\n`);
    } catch {
      h.update(`${relative(repo, p)}\tmissing\n`);
    }
  }
  return h.digest('hex');
}

function main() {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const tsconfig = resolve(repo, args.find((a) => !a.startsWith('--')) ?? 'tsconfig.json');
  const stamp = join(repo, 'dist', '.build', `${relative(repo, tsconfig).replaceAll('/', '_')}.sha1`);
  const current = fingerprint(repo, tsconfig);
  let built = '';
  try {
    built = readFileSync(stamp, 'utf8').trim();
  } catch {
    // never built, or dist/ removed
  }
  if (!force && built === current) {
    console.log(`build: dist/ is current for ${relative(repo, tsconfig)}, not compiling`);
    return 0;
  }

  rmSync(stamp, { force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', tsconfig], { stdio: 'inherit', cwd: repo });
  if (r.status !== 0) return r.status ?? 1;
  mkdirSync(dirname(stamp), { recursive: true });
  // The fingerprint of the sources as they were when tsc started: an edit made during the build rebuilds next time.
  writeFileSync(stamp, `${current}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
