// One descriptor per kind of data source (issue 27 item 2): the registry (src/sources/kinds.ts) is
// the only list of kinds; source.yaml, the core tables' description, the catalog compiler, the h3
// root query and the load check read it, and no other file keeps a list of kinds of its own.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../../src/catalog/compile.js';
import { compileSchema } from '../../src/pipeline/schema.service.js';
import { findKind, SOURCE_KINDS, SOURCE_TYPES, sourceKind } from '../../src/sources/kinds.js';
import { CORE_CATALOG_SDL } from '../../src/system/core-catalog.js';
import { readDeclaredSources } from '../../src/system/declared-sources.js';

const SRC = join(import.meta.dirname, '../../src');
const dir = mkdtempSync(join(tmpdir(), 'svc-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function declare(name: string, type: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'source.yaml'), `type: ${type}\npath: x\n`);
  return root;
}

describe('the source kind registry', () => {
  it('has one descriptor per kind, each in its own folder', () => {
    expect(new Set(SOURCE_TYPES).size).toBe(SOURCE_KINDS.length);
    for (const kind of SOURCE_KINDS) {
      expect(statSync(join(SRC, 'sources', kind.type, 'index.ts')).isFile()).toBe(true);
      expect(sourceKind(kind.type)).toBe(kind);
      expect(typeof kind.open).toBe('function');
    }
  });

  it('source.yaml accepts every registered kind and refuses another, listing the registered ones', () => {
    for (const type of SOURCE_TYPES) expect(readDeclaredSources(declare(`ok_${type}`, type))[0]!.row.type).toBe(type);
    const refused = (() => {
      try {
        readDeclaredSources(declare('bad', 'clickhouse'));
      } catch (e) {
        return e as Error & { code?: string };
      }
      throw new Error('clickhouse was accepted');
    })();
    expect(refused.message).toContain('invalid "type"');
    for (const type of SOURCE_TYPES) expect(refused.message).toContain(type);
    expect(() => sourceKind('clickhouse')).toThrow(/data source type "clickhouse" is not supported \(duckdb, postgres/);
    expect(findKind('clickhouse')).toBeUndefined();
  });

  it('the core tables describe data_sources.type with the registered kinds', () => {
    const line = CORE_CATALOG_SDL.split('\n').find((l) => l.includes(' or ') && l.includes(SOURCE_TYPES[0]))!;
    for (const type of SOURCE_TYPES) expect(line).toContain(type);
  });

  it("the catalog compiler and the h3 root query follow each kind's capabilities", () => {
    const text = 'type rec { a: Int }\nextend type Function { rows(n: Int!): [rec] @function(name: "rows") }\n';
    const h3 = 'type places @table(name: "places") { id: Int! @pk\n geom: Geometry }\n';
    for (const kind of SOURCE_KINDS.filter((k) => !k.capabilities.extendsOthers)) {
      const info = { name: `s_${kind.type}`, type: kind.type, prefix: `p_${kind.type}`, asModule: false, readOnly: false };
      const fn = compileCatalog(info, [{ file: 'f.graphql', text }], kind.capabilities.catalog).functions.find((f) => f.name === 'rows')!;
      expect(fn.isTable, kind.type).toBe(kind.capabilities.catalog.tableFunctions);
      const schema = compileSchema([compileCatalog(info, [{ file: 'g.graphql', text: h3 }], kind.capabilities.catalog)], []).schema;
      const offered = Object.keys((schema.getType('_h3_data_query') as unknown as { getFields(): object }).getFields());
      expect(offered.includes(`p_${kind.type}_places_aggregation`), kind.type).toBe(kind.capabilities.h3);
    }
  });

  it('no file outside a kind folder and the registry keeps a list of kinds', () => {
    // The core database is DuckDB or PostgreSQL (SPEC §11): a choice of the core store, not a list of
    // the kinds a data source may be.
    const allowed = new Set(['system/core.providers.ts', 'system/info.ts']);
    const kindFolders = new Set(SOURCE_TYPES.map((t) => `sources/${t}`));
    const names = new RegExp(`['"](${SOURCE_TYPES.join('|')})['"]`, 'g');
    const found: string[] = [];
    const walk = (d: string): void => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        const rel = relative(SRC, p);
        if (statSync(p).isDirectory()) {
          // sql/: the dialects' own compilers; generated/: codegen output.
          if (!kindFolders.has(rel) && !['sql', 'generated', 'secrets-server'].includes(rel)) walk(p);
          continue;
        }
        if (!n.endsWith('.ts') || rel === 'sources/kinds.ts' || allowed.has(rel)) continue;
        const lines = readFileSync(p, 'utf8').split('\n');
        let cases = 0;
        lines.forEach((line, i) => {
          const kinds = new Set([...line.matchAll(names)].map((m) => m[1]));
          if (kinds.size > 1) found.push(`${rel}:${i + 1}: ${line.trim()}`);
          if (/\bcase\s+['"]/.test(line) && kinds.size) cases++;
        });
        if (cases > 1) found.push(`${rel}: a switch over kinds`);
      }
    };
    walk(SRC);
    expect(found).toEqual([]);
  });
});
