// `npm run schema:diff`: what a change of the catalogs does to clients. Compares a base schema (the
// committed schema.graphql, or the one at a git ref with --base-ref) with the schema the catalogs
// produce now, lists breaking, dangerous and safe changes, and exits 1 on a breaking change unless
// --allow-breaking. The classification is GraphQL Inspector's (a maintained diff library), not ours.
//
//   npm run schema:diff [-- --base FILE | --base-ref REF] [--allow-breaking] [--json]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Change, CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';
import { ErrorCode, PublicError } from '../src/shared/errors.js';
import { outputs } from './generate.js';

interface Options {
  readonly base?: string;
  readonly baseRef?: string;
  readonly allowBreaking: boolean;
  readonly json: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (!v || v.startsWith('--')) throw new PublicError(ErrorCode.BadRequest, `${flag} needs a value`);
    return v;
  };
  const known = new Set(['--base', '--base-ref', '--allow-breaking', '--json']);
  argv.forEach((a, i) => {
    if (a.startsWith('--') && !known.has(a)) throw new PublicError(ErrorCode.BadRequest, `unknown option ${a} (known: ${[...known].join(', ')})`);
    if (!a.startsWith('--') && !['--base', '--base-ref'].includes(argv[i - 1] ?? '')) throw new PublicError(ErrorCode.BadRequest, `unexpected argument "${a}"`);
  });
  const base = value('--base');
  const baseRef = value('--base-ref');
  if (base && baseRef) throw new PublicError(ErrorCode.BadRequest, 'give --base or --base-ref, not both');
  return { ...(base ? { base } : {}), ...(baseRef ? { baseRef } : {}), allowBreaking: argv.includes('--allow-breaking'), json: argv.includes('--json') };
}

/** The schema clients have now: a file, or schema.graphql as committed at a git ref (e.g. origin/main). */
function baseSdl(o: Options): { sdl: string; name: string } {
  if (o.baseRef) return { sdl: execFileSync('git', ['show', `${o.baseRef}:schema.graphql`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), name: `${o.baseRef}:schema.graphql` };
  const file = o.base ?? 'schema.graphql';
  return { sdl: readFileSync(file, 'utf8'), name: file };
}

const LEVELS = [
  [CriticalityLevel.Breaking, 'breaking'],
  [CriticalityLevel.Dangerous, 'dangerous'],
  [CriticalityLevel.NonBreaking, 'safe'],
] as const;

export function classify(changes: readonly Change[]): Record<'breaking' | 'dangerous' | 'safe', Change[]> {
  const out = { breaking: [] as Change[], dangerous: [] as Change[], safe: [] as Change[] };
  for (const c of changes) for (const [level, name] of LEVELS) if (c.criticality.level === level) out[name].push(c);
  return out;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const base = baseSdl(options);
  const files = await outputs(process.env.CATALOGS_DIR ?? './catalogs');
  const now = buildSchema(files.get('schema.graphql')!);
  const changes = classify(await diff(buildSchema(base.sdl), now));
  const breaking = changes.breaking.length;
  if (options.json) {
    const shown = (cs: Change[]) => cs.map((c) => ({ type: c.type, path: c.path ?? null, message: c.message, ...(c.criticality.reason ? { reason: c.criticality.reason } : {}) }));
    console.log(JSON.stringify({ base: base.name, breaking: shown(changes.breaking), dangerous: shown(changes.dangerous), safe: shown(changes.safe) }, null, 2));
  } else {
    console.log(`schema:diff: ${base.name} -> the schema the catalogs produce now`);
    for (const [, name] of LEVELS) {
      const list = changes[name];
      console.log(`${name} (${list.length})`);
      // The reason says why a change is dangerous; for breaking and safe ones the level says it (--json has all).
      for (const c of list) console.log(`  ${c.message}${name === 'dangerous' && c.criticality.reason ? ` (${c.criticality.reason})` : ''}`);
    }
  }
  if (breaking && !options.allowBreaking) {
    console.error(`schema:diff: ${breaking} breaking change${breaking === 1 ? '' : 's'}; clients of the current schema may fail. Re-run with --allow-breaking to accept.`);
    process.exit(1);
  }
}

main().catch((e: unknown) => {
  console.error(`schema:diff: ${e instanceof PublicError ? e.message : (e as Error).message}`);
  process.exit(2);
});
