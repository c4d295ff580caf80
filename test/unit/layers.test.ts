// The layers of src/ (scripts/layers.mjs, issue 16): no import runs back up, so no cycle between
// folders; and the check itself catches one.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { checkLayers } from '../../scripts/layers.mjs';

const SRC = join(import.meta.dirname, '..', '..', 'src');

describe('layers', () => {
  it('every import of src/ points to its own layer or one below', () => {
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
    ]));
    expect(problems).toHaveLength(3);
  });
});
