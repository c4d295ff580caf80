import type { RequestContext } from './context.js';
import { annotateEntry, deleteEntry, listEntries, putEntry, readEntry } from './routes/entries.js';
import { createDelegation, deleteDelegation, revokeDelegations } from './routes/delegations.js';
import { deleteGrant, listGrants, putGrant } from './routes/grants.js';
import { getDiscovery, getWhoami } from './routes/identity.js';
import type { Namespace } from './store.js';

// The route table of SPEC §15. Paths are split on raw `/` before percent-decoding, so a name holding
// `%2F` (say `a/v1/variables`) stays one segment of the namespace it was addressed in.

export type Handler = (ctx: RequestContext) => Promise<void> | void;
type Methods = Partial<Record<string, Handler>>;

const NAMESPACES: readonly Namespace[] = ['secrets', 'variables'];

/** The handlers of a path by method; undefined when the path is no route at all. */
export function routesFor(path: string): Methods | undefined {
  const seg = path.split('/');
  if (seg[0] !== '' || seg.slice(1).some((s) => s === '')) return undefined;
  const [, a, b, name, d, id] = seg;
  if (seg.length === 3 && a === '.well-known' && b === 'duckdb-secrets') return { GET: getDiscovery };
  if (a !== 'v1' || b === undefined) return undefined;
  if (b === 'whoami') return seg.length === 3 ? { GET: getWhoami } : undefined;
  if (b === 'delegations') {
    if (seg.length === 3) return { POST: createDelegation, DELETE: revokeDelegations };
    if (seg.length === 4 && name !== undefined) return { DELETE: (ctx) => deleteDelegation(ctx, name) };
    return undefined;
  }
  const ns = NAMESPACES.find((n) => n === b);
  if (!ns) return undefined;
  if (seg.length === 3) return { GET: (ctx) => listEntries(ctx, ns) };
  if (name === undefined) return undefined;
  if (seg.length === 4) {
    return {
      GET: (ctx) => readEntry(ctx, ns, name),
      PUT: (ctx) => putEntry(ctx, ns, name),
      DELETE: (ctx) => deleteEntry(ctx, ns, name),
      PATCH: (ctx) => annotateEntry(ctx, ns, name),
    };
  }
  if (d !== 'grants') return undefined;
  if (seg.length === 5) return { GET: (ctx) => listGrants(ctx, ns, name) };
  if (seg.length === 6 && id !== undefined) {
    return { PUT: (ctx) => putGrant(ctx, ns, name, id), DELETE: (ctx) => deleteGrant(ctx, ns, name, id) };
  }
  return undefined;
}

/** Serving under `public_url`'s path as well as at the root (SPEC §15 Discovery). */
export function stripPrefix(path: string, prefix: string): string {
  if (prefix !== '' && (path === prefix || path.startsWith(`${prefix}/`))) return path.slice(prefix.length) || '/';
  return path;
}
