// `npm start` and `npm test` build through scripts/build.mjs, which skips tsc when dist/ was built
// from the same sources (issue 21, fast start).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../scripts/build.mjs';

const repo = resolve(import.meta.dirname, '../..');

describe('scripts/build.mjs', () => {
  it('does not run tsc a second time when nothing changed', () => {
    // The first run builds when dist/ is stale (a fresh checkout); the second must not.
    const first = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
    expect(first.status, first.stdout + first.stderr).toBe(0);
    const second = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('dist/ is current for tsconfig.json, not compiling');
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
