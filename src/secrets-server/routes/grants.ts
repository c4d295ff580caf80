import type { RequestContext } from '../context.js';
import { decodeSegment, parseGrantInput } from '../entry-input.js';
import { requireVerb } from '../policy.js';
import { problem, writeEmpty, writeJson } from '../problem.js';
import { readJsonBody } from '../request-body.js';
import type { Entry, Namespace } from '../store.js';
import { onlyQuery, visibleEntry } from './entries.js';

// Grants on one entry (SPEC §15): `use` to roles and groups, managed by holders of `grant`.

const grantList = (e: Entry) => e.grants.map((g) => ({ id: g.id, principal: g.principal, verbs: g.verbs }));

export async function listGrants(ctx: RequestContext, ns: Namespace, rawName: string): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const entry = visibleEntry(ctx, ns, decodeSegment(rawName), caller);
  requireVerb(caller, entry, 'grant');
  writeJson(ctx.res, 200, grantList(entry));
}

export async function putGrant(ctx: RequestContext, ns: Namespace, rawName: string, rawId: string): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const name = decodeSegment(rawName);
  const id = decodeSegment(rawId, 'grant id');
  const input = parseGrantInput(await readJsonBody(ctx.req));
  const entry = await ctx.app.store.transact((draft) => {
    const current = visibleEntry(ctx, ns, name, caller, draft[ns]);
    requireVerb(caller, current, 'grant');
    const grants = current.grants.filter((g) => g.id !== id);
    const at = current.grants.findIndex((g) => g.id === id);
    grants.splice(at < 0 ? grants.length : at, 0, { id, ...input });
    const next = { ...current, grants };
    draft[ns].set(name, next);
    return next;
  });
  writeJson(ctx.res, 200, grantList(entry));
}

export async function deleteGrant(ctx: RequestContext, ns: Namespace, rawName: string, rawId: string): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const name = decodeSegment(rawName);
  const id = decodeSegment(rawId, 'grant id');
  await ctx.app.store.transact((draft) => {
    const current = visibleEntry(ctx, ns, name, caller, draft[ns]);
    requireVerb(caller, current, 'grant');
    if (!current.grants.some((g) => g.id === id)) throw problem('not_found', 'no grant by that id on this entry');
    draft[ns].set(name, { ...current, grants: current.grants.filter((g) => g.id !== id) });
  });
  writeEmpty(ctx.res, 204);
}
