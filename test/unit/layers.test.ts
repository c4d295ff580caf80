// The layers of src/ (scripts/layers.mjs, issues 16 and 27): no import runs back up, no cycle of
// files outside the IR, no cycle of folders within a layer; and the check itself catches each.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { checkLayers } from '../../scripts/layers.mjs';

const SRC = join(import.meta.dirname, '..', '..', 'src');

describe('layers', () => {
  it('every import of src/ points to its own layer or one below, with no cycle of files or folders', () => {
    expect(checkLayers(SRC)).toEqual([]);
  });

  it('reports an import running back up, a folder without a layer, and the separate app', () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-layers-'));
    for (const d of ['shared', 'pipeline', 'extra', 'secrets-server']) mkdirSync(join(root, d));
    writeFileSync(join(root, 'pipeline', 'b.ts'), "import { a } from '../shared/a.js';\nexport const b = a;\n");
    writeFileSync(join(root, 'shared', 'a.ts'), "export const a = 1;\nexport type B = import('../pipeline/b.js').B;\nimport type { X } from '../extra/x.js';\n");
    writeFileSync(join(root, 'extra', 'x.ts'), 'export type X = 1;\n');
    writeFileSync(join(root, 'secrets-server', 's.ts'), "import { a } from '../shared/a.js';\n");
    const problems: string[] = checkLayers(root);
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/^src\/shared\/a\.ts:2 imports \.\.\/pipeline\/b\.js: shared is below pipeline/),
      expect.stringMatching(/^src\/shared\/a\.ts:3 imports \.\.\/extra\/x\.js: folder "extra" has no layer/),
      expect.stringMatching(/^src\/secrets-server\/s\.ts:1 .*separate application/),
      expect.stringMatching(/^cycle of files: src\/pipeline\/b\.ts, src\/shared\/a\.ts import each other/),
    ]));
    expect(problems).toHaveLength(4);
  });

  it('reports a cycle of files (type-only imports count) and of folders within a layer; the IR may keep its own', () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-layers-'));
    for (const d of ['shared', 'pipeline', 'federation', 'planner/ir']) mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, 'shared', 'a.ts'), "import type { B } from './b.js';\nexport type A = B[];\n");
    writeFileSync(join(root, 'shared', 'b.ts'), "import { c } from './c.js';\nexport type B = 1;\nexport const b = c;\n");
    writeFileSync(join(root, 'shared', 'c.ts'), "import type { A } from './a.js';\nexport const c: A = [];\n");
    writeFileSync(join(root, 'pipeline', 'p.ts'), "import { f } from '../federation/f.js';\nexport const p = f;\n");
    writeFileSync(join(root, 'federation', 'f.ts'), "import type { Q } from '../pipeline/q.js';\nexport const f = 1 as Q;\n");
    writeFileSync(join(root, 'pipeline', 'q.ts'), 'export type Q = number;\n');
    writeFileSync(join(root, 'planner', 'ir', 'x.ts'), "import type { Y } from './y.js';\nexport type X = { y: Y };\n");
    writeFileSync(join(root, 'planner', 'ir', 'y.ts'), "import type { X } from './x.js';\nexport type Y = { x?: X };\n");
    const problems: string[] = checkLayers(root);
    expect(problems).toEqual([
      'cycle of files: src/shared/a.ts, src/shared/b.ts, src/shared/c.ts import each other (move what they share into one of them or a file of its own)',
      'cycle of folders within one layer: federation, pipeline import each other',
    ]);
  });
});
