#!/usr/bin/env node
// `npm run build` (and `npm test`, `npm run codegen`, which build first): transpiles the tree with
// SWC into dist/, then type-checks it with `tsc --noEmit`. `npm start` transpiles only
// (`--no-check`): SWC turns ~300 files into JavaScript in about a second where tsc needs 18 s on a
// quiet machine and minutes on a busy one, and a type error is caught by `npm test` and CI instead.
//
// Each step is skipped when it already ran on exactly these sources: the check hashes the path,
// size and modification time of every file the build reads (src/, codegen/, examples/, extensions/,
// the tsconfig, the lock file, this script), so it costs milliseconds. `--force` always builds.
//
//   node scripts/build.mjs [--force] [--no-check] [path/to/tsconfig.json]
//
// SWC keeps TypeScript's legacy decorators and their metadata (`emitDecoratorMetadata`), which
// Nest's dependency injection reads; the options below follow tsconfig.json (target ES2022, class
// fields defined as ES2022 does), as the test runner's SWC plugin does (vitest.config.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

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

/** The tsconfig's include folders, rootDir and outDir (absolute), following `extends`. */
export function projectOf(tsconfig) {
  const read = (file) => {
    const json = JSON.parse(readFileSync(file, 'utf8'));
    const base = json.extends ? read(resolve(dirname(file), json.extends)) : { compilerOptions: {} };
    const at = (p) => (p === undefined ? undefined : resolve(dirname(file), p));
    return {
      include: json.include ? json.include.map(at) : base.include,
      rootDir: at(json.compilerOptions?.rootDir) ?? base.rootDir,
      outDir: at(json.compilerOptions?.outDir) ?? base.outDir,
    };
  };
  const p = read(tsconfig);
  return { include: p.include ?? [dirname(tsconfig)], rootDir: p.rootDir ?? dirname(tsconfig), outDir: p.outDir ?? join(dirname(tsconfig), 'dist') };
}

/** A hash of what a build of `tsconfig` in `repo` reads: changes when any input file does. */
export function fingerprint(repo, tsconfig) {
  const h = createHash('sha1');
  h.update(`${process.version}\n`);
  const inputs = [tsconfig, join(repo, 'tsconfig.json'), join(repo, 'package-lock.json'), fileURLToPath(import.meta.url)];
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

const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2022',
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: true,
  swcrc: false,
  configFile: false,
};

/** Every .ts file of the project (declarations left out) transpiled to outDir, in parallel. */
async function transpile(project) {
  const swc = require('@swc/core');
  const sources = [...new Set(project.include.flatMap((dir) => [...files(dir)]))].filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const file = sources[next++];
      const out = join(project.outDir, relative(project.rootDir, file)).replace(/\.ts$/, '.js');
      const { code, map } = await swc.transformFile(file, { ...SWC_OPTIONS, filename: file, sourceFileName: relative(dirname(out), file) });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${code}\n//# sourceMappingURL=${out.slice(dirname(out).length + 1)}.map\n`);
      if (map) writeFileSync(`${out}.map`, map);
    }
  };
  // SWC runs each file on libuv's thread pool; a few at a time keep it busy.
  await Promise.all(Array.from({ length: 8 }, worker));
  return sources.length;
}

function stampOf(repo, tsconfig, step) {
  return join(repo, 'dist', '.build', `${relative(repo, tsconfig).replaceAll('/', '_')}.${step}.sha1`);
}

function current(stamp, fp) {
  try {
    return readFileSync(stamp, 'utf8').trim() === fp;
  } catch {
    return false; // never built, or dist/ removed
  }
}

function done(stamp, fp) {
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${fp}\n`);
}

const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(1);

async function main() {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const check = !args.includes('--no-check');
  const tsconfig = resolve(repo, args.find((a) => !a.startsWith('--')) ?? 'tsconfig.json');
  const name = relative(repo, tsconfig);
  // The fingerprint of the sources as they were when the build started: an edit made during it rebuilds next time.
  const fp = fingerprint(repo, tsconfig);

  const emitted = stampOf(repo, tsconfig, 'swc');
  if (force || !current(emitted, fp)) {
    rmSync(emitted, { force: true });
    const t0 = performance.now();
    const n = await transpile(projectOf(tsconfig));
    done(emitted, fp);
    // A line for a step that takes more than a second (a busy machine), silence otherwise.
    if (performance.now() - t0 > 1000) console.log(`build: transpiled ${n} files of ${name} with SWC in ${seconds(t0)} s`);
  }

  if (!check) return 0;
  const checked = stampOf(repo, tsconfig, 'tsc');
  if (!force && current(checked, fp)) return 0;
  rmSync(checked, { force: true });
  const t0 = performance.now();
  console.log(`build: type-checking ${name} (tsc --noEmit)`);
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', tsconfig, '--noEmit'], { stdio: 'inherit', cwd: repo });
  if (r.status !== 0) {
    console.error(`build: type errors in ${name} (dist/ is transpiled, but the tree does not type-check)`);
    return r.status ?? 1;
  }
  done(checked, fp);
  if (performance.now() - t0 > 1000) console.log(`build: type-checked in ${seconds(t0)} s`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();
