// The `extensions` tree of `@stats` (hugr's shape, docs/stats.md): a field's figures sit at its
// response path, each level below the first under `children`:
//   { op2023: { children: { providers_aggregation: { stats: {...} } } } }
// With `@stats` on the operation the whole tree moves under `extensions.children`, and
// `extensions.stats` is the operation's `{name, total_time}`. Times are Go duration text
// ("212.791µs", "1.96875ms") as hugr writes them, so clients parse them the same way.
import type { OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../../executor/request-context.js';

/** Nanoseconds as Go's time.Duration prints them. */
export function goDuration(ns: number): string {
  const n = Math.max(0, Math.round(ns));
  if (n === 0) return '0s';
  if (n < 1e3) return `${n}ns`;
  if (n < 1e6) return `${trimmed(n / 1e3, 3)}µs`;
  if (n < 1e9) return `${trimmed(n / 1e6, 6)}ms`;
  const h = Math.floor(n / 3.6e12);
  const m = Math.floor((n - h * 3.6e12) / 6e10);
  const s = (n - h * 3.6e12 - m * 6e10) / 1e9;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${trimmed(s, 9)}s`;
}

function trimmed(v: number, digits: number): string {
  return v.toFixed(digits).replace(/\.?0+$/, '');
}

/** Milliseconds of performance.now() as nanoseconds. */
export function nanosSince(startedMs: number): number {
  return Math.round((performance.now() - startedMs) * 1e6);
}

export function hasStats(node: { readonly directives?: readonly { readonly name: { readonly value: string } }[] } | undefined): boolean {
  return node?.directives?.some((d) => d.name.value === 'stats') ?? false;
}

/** The tree node of a response path, made as needed (`jq()` results and stats go there too). */
export function extensionNode(extensions: Record<string, unknown>, path: readonly (string | number)[], operationStats: boolean): Record<string, unknown> {
  let level = operationStats ? child(extensions, 'children') : extensions;
  let node: Record<string, unknown> = extensions;
  path.forEach((key, i) => {
    if (i > 0) level = child(node, 'children');
    node = child(level, String(key));
  });
  return node;
}

function child(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = parent[key];
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  const made: Record<string, unknown> = {};
  parent[key] = made;
  return made;
}

/** The request's `@stats` extensions, merged into `extensions` (undefined: nothing was asked). */
export function statsExtensions(ctx: RequestContext, operation: OperationDefinitionNode | null | undefined, extensions: Record<string, unknown> = {}): Record<string, unknown> | undefined {
  const operationStats = hasStats(operation ?? undefined);
  if (!ctx.stats.length && !operationStats) return undefined;
  const out = { ...extensions };
  if (operationStats) out.children ??= {};
  for (const s of ctx.stats) {
    extensionNode(out, s.path, operationStats).stats = {
      compile_time: goDuration(s.compile),
      exec_time: goDuration(s.node - s.planning - s.compile),
      name: s.name,
      node_time: goDuration(s.node),
      planning_time: goDuration(s.planning),
      cached: s.cached,
    };
  }
  if (operationStats) out.stats = { name: operation?.name?.value ?? '', total_time: goDuration(nanosSince(ctx.started)) };
  return out;
}
