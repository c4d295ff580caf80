#!/usr/bin/env node
// The house drawn from its imports (issues 16, 27): each folder of src/ is a layer, and an import
// may point only to its own layer or one below. Reported with the file and line, exit status 1:
// - an import running back up (a lower folder importing a higher one);
// - a cycle of files (type-only imports count: they tie the files' designs together as much as a
//   value import does, and madge, which users run, counts them too);
// - a cycle of folders within one layer (two folders of one layer importing each other).
// Run: `node scripts/layers.mjs` (test/unit/layers.test.ts runs it in the suite). `--root <dir>`
// checks another tree (tests).
//
// The IR (src/planner/ir) is a layer of its own below both the planner and the SQL compilers:
// frozen data the two share. The planner makes IR and knows nothing of SQL; the compilers read IR;
// statements/ caches what they compiled per operation shape and binds each request's values. Its node types refer to each other (a filter holds a sub-select, a
// select holds filters), so it alone may keep cycles among its own files.
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
  ['planner'],
  ['sql'],
  ['sources'],
  ['statements'],
  ['executor'],
  ['cache'],
  ['lineage'],
  ['pipeline', 'federation'],
  ['jq'],
  ['features'],
  ['system'],
  ['extensions'],
  ['http'],
  ['mcp'],
  ['generated'],
  ['.'],
];
/** Known upward imports, each with its reason (`from -> specifier` as reported); none today, none may be added. */
export const KNOWN = new Set();
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

/** Files that may import each other in a cycle: the IR's own node types. */
const CYCLES_ALLOWED = 'planner/ir';

/** The strongly connected groups of more than one node of a graph (Tarjan), each sorted. */
export function cyclesOf(graph) {
  let next = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), groups = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

const addEdge = (graph, from, to) => {
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from).add(to);
};

export function checkLayers(srcRoot) {
  const rank = new Map();
  LAYERS.forEach((units, i) => units.forEach((u) => rank.set(u, i)));
  const problems = [];
  const files = new Map();
  const folders = new Map();
  for (const path of sourceFiles(srcRoot)) {
    const file = relative(srcRoot, path);
    const from = unitOf(file);
    if (!files.has(file)) files.set(file, new Set());
    for (const [spec, line] of importsOf(readFileSync(path, 'utf8'))) {
      const target = relative(srcRoot, resolve(dirname(path), spec));
      if (target.startsWith('..')) continue;
      addEdge(files, file, target.replace(/\.js$/, '.ts'));
      const to = unitOf(target);
      if (to === from) continue;
      if (rank.has(from) && rank.get(from) === rank.get(to)) addEdge(folders, from, to);
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
  for (const group of cyclesOf(files)) {
    if (group.every((f) => unitOf(f) === CYCLES_ALLOWED)) continue;
    problems.push(`cycle of files: ${group.map((f) => `src/${f}`).join(', ')} import each other (move what they share into one of them or a file of its own)`);
  }
  for (const group of cyclesOf(folders)) problems.push(`cycle of folders within one layer: ${group.join(', ')} import each other`);
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
  console.log(`layers: every import of ${relative(process.cwd(), root) || '.'} points to its own layer or one below; no cycle of files (outside ${CYCLES_ALLOWED}) or of folders`);
}
