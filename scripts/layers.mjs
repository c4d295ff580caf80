#!/usr/bin/env node
// The house drawn from its imports (issue 16): each folder of src/ is a layer, and an import may
// point only to its own layer or one below. A cycle between layers, or an import running back up,
// is reported with the file and line, and the exit status is 1. Run: `node scripts/layers.mjs`
// (test/unit/layers.test.ts runs it in the suite). `--root <dir>` checks another tree (tests).
//
// The IR (src/planner/ir) is a layer of its own below both the planner and the SQL compilers:
// frozen data the two share.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lowest first. Folders on one line are one layer (they may import each other). */
export const LAYERS = [
  ['shared', 'tracing'],
  ['config'],
  ['catalog'],
  ['schema'],
  ['auth'],
  ['permissions'],
  ['planner/ir'],
  ['sql'],
  ['sources'],
  ['planner'],
  ['executor'],
  ['cache'],
  ['lineage'],
  ['pipeline', 'federation'],
  ['jq'],
  ['system'],
  ['extensions'],
  ['http'],
  ['mcp'],
  ['generated'],
  ['.'],
];
/**
 * Known upward imports, each with its reason; none may be added. `from -> specifier` as reported.
 * - the served schema applies teams' code-first fields (issue 20): a type import of
 *   extensions/extension-schema.ts, which belongs in pipeline/ once it no longer needs extensions/bind.ts.
 */
export const KNOWN = new Set(['src/pipeline/schema.service.ts -> ../extensions/extension-schema.js']);
/** A separate application (SPEC §15): imports nothing of the query service, and nothing imports it. */
export const ISOLATED = ['secrets-server'];

function unitOf(file) {
  const parts = file.split('/');
  if (parts.length === 1) return '.';
  if (parts[0] === 'planner' && parts[1] === 'ir') return 'planner/ir';
  return parts[0];
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every relative import (static, type-only, re-export, dynamic) of a file: [specifier, line]. */
function importsOf(text) {
  const found = [];
  const re = /(?:^|[\s;])(?:import|export)\s[^'";]*?\sfrom\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s+['"](\.[^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) {
    const start = m.index + m[0].length - m[0].trimStart().length;
    found.push([m[1] ?? m[2] ?? m[3], text.slice(0, start).split('\n').length]);
  }
  return found;
}

export function checkLayers(srcRoot) {
  const rank = new Map();
  LAYERS.forEach((units, i) => units.forEach((u) => rank.set(u, i)));
  const problems = [];
  for (const path of sourceFiles(srcRoot)) {
    const file = relative(srcRoot, path);
    const from = unitOf(file);
    for (const [spec, line] of importsOf(readFileSync(path, 'utf8'))) {
      const target = relative(srcRoot, resolve(dirname(path), spec));
      if (target.startsWith('..')) continue;
      const to = unitOf(target);
      if (to === from) continue;
      const where = `src/${file}:${line} imports ${spec}`;
      if (ISOLATED.includes(from) || ISOLATED.includes(to)) {
        problems.push(`${where}: src/${ISOLATED.includes(from) ? from : to} is a separate application`);
        continue;
      }
      if (!rank.has(from) || !rank.has(to)) {
        problems.push(`${where}: folder "${rank.has(from) ? to : from}" has no layer (add it to LAYERS in scripts/layers.mjs)`);
        continue;
      }
      if (KNOWN.has(`src/${file} -> ${spec}`)) continue;
      if (rank.get(to) > rank.get(from)) problems.push(`${where}: ${from} is below ${to}, so this import runs back up`);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--root');
  const root = i > 0 ? resolve(process.argv[i + 1]) : join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const problems = checkLayers(root);
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`\n${problems.length} import(s) break the layers (lowest first): ${LAYERS.map((l) => l.join('+')).join(' < ')}`);
    process.exit(1);
  }
  console.log(`layers: every import of ${relative(process.cwd(), root) || '.'} points to its own layer or one below`);
}
