// `npm start` transpiles with SWC only (seconds); `npm run build` and `npm test` also type-check
// with tsc (issue 29). scripts/build.mjs skips a step that already ran on the same sources
// (issue 21, fast start).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../scripts/build.mjs';

const repo = resolve(import.meta.dirname, '../..');

/** A project of its own, with this repository's build script and node_modules. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-build-'));
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(join(dir, 'scripts', 'build.mjs'), readFileSync(join(repo, 'scripts', 'build.mjs')));
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(dir, 'tsconfig.json'), readFileSync(join(repo, 'tsconfig.json')));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const build = (dir: string, ...args: string[]) => spawnSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: dir, encoding: 'utf8' });

// Each test runs tsc in a child process: seconds on a quiet machine, over the default 30 s under load (seen at
// load 13 on two cores), so the bound here is the CI's patience, not a speed claim.
describe('scripts/build.mjs', { timeout: 180_000 }, () => {
  it('keeps the decorator metadata Nest injects by, and runs nothing a second time when nothing changed', () => {
    const dir = project({
      'src/b.ts': 'export class B {}\n',
      'src/a.ts': [
        "import 'reflect-metadata';",
        "import { B } from './b.js';",
        'const dec = (): ClassDecorator => () => undefined;',
        '@dec()',
        'export class A {',
        '  constructor(readonly b: B, readonly n: number) {}',
        '}',
        "const types = Reflect.getMetadata('design:paramtypes', A) as unknown[];",
        'console.log(types[0] === B && types[1] === Number ? "metadata ok" : "metadata missing");',
        '',
      ].join('\n'),
    });
    try {
      const first = build(dir);
      expect(first.status, first.stdout + first.stderr).toBe(0);
      const run = spawnSync(process.execPath, ['dist/src/a.js'], { cwd: dir, encoding: 'utf8' });
      expect(run.stdout + run.stderr).toContain('metadata ok');
      const second = build(dir);
      expect(second.status).toBe(0);
      expect(second.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--no-check (npm start) transpiles a tree with a type error; the default (npm run build, npm test) fails on it', () => {
    const dir = project({ 'src/main.ts': "const n: number = 'not a number';\nconsole.log('ran', n);\n" });
    try {
      const start = build(dir, '--no-check');
      expect(start.status, start.stdout + start.stderr).toBe(0);
      expect(existsSync(join(dir, 'dist', 'src', 'main.js'))).toBe(true);
      const checked = build(dir);
      expect(checked.status).not.toBe(0);
      expect(checked.stdout + checked.stderr).toMatch(/src\/main\.ts.*TS2322/);
      // Still failing on the next run: a failed check leaves no stamp behind.
      expect(build(dir).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('notices an edited, an added and a removed source file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-build-'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'tsconfig.json'), '{}');
      writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
      const tsconfig = join(dir, 'tsconfig.json');
      const base = fingerprint(dir, tsconfig);
      expect(fingerprint(dir, tsconfig)).toBe(base);

      utimesSync(join(dir, 'src', 'a.ts'), new Date(), new Date(Date.now() + 5000));
      const edited = fingerprint(dir, tsconfig);
      expect(edited).not.toBe(base);

      writeFileSync(join(dir, 'src', 'b.ts'), 'export const b = 2;\n');
      const added = fingerprint(dir, tsconfig);
      expect(added).not.toBe(edited);

      rmSync(join(dir, 'src', 'b.ts'));
      expect(fingerprint(dir, tsconfig)).toBe(edited);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
