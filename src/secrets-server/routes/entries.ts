import type { RequestContext } from '../context.js';
import { decodeSegment, parseAnnotation, parseEntryInput } from '../entry-input.js';
import { classify, legacyGenerator } from '../mint.js';
import { allowedVerbs, isVisible, requireCreate, requireUpdate, requireVerb, type Caller } from '../policy.js';
import { checkExisting, checkMissing, etagOf, readConditions } from '../preconditions.js';
import { problem, writeEmpty, writeJson } from '../problem.js';
import { readJsonBody } from '../request-body.js';
import type { Entry, Namespace } from '../store.js';

// Secrets and variables: list, read, create or replace, delete, annotate (SPEC §15 routes and write checks).

export function descriptor(entry: Entry, ns: Namespace, caller: Caller): Record<string, unknown> {
  return {
    name: entry.name,
    type: entry.type,
    provider: entry.provider,
    scope: entry.scope,
    comment: entry.comment,
    owner: entry.owner,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    version: String(entry.version),
    dynamic: ns === 'secrets' && hasGenerator(entry),
    permissions: allowedVerbs(caller, entry),
  };
}

function hasGenerator(entry: Entry): boolean {
  if (legacyGenerator(entry.type, entry.provider, entry.params)) return true;
  return Object.values(entry.params).some((v) => typeof v === 'string' && 'generator' in classify(v));
}

const notFound = (ns: Namespace) => problem('not_found', `no ${ns === 'secrets' ? 'secret' : 'variable'} by that name`);

/** The entry if the caller may know it exists; an invisible one answers exactly like a missing one. */
export function visibleEntry(ctx: RequestContext, ns: Namespace, name: string, caller: Caller, from?: Map<string, Entry>): Entry {
  const entry = from ? from.get(name) : ctx.app.store.get(ns, name);
  if (!entry || !isVisible(caller, entry)) throw notFound(ns);
  return entry;
}

export function onlyQuery(ctx: RequestContext, allowed: readonly string[]): void {
  for (const k of ctx.query.keys()) {
    if (!allowed.includes(k)) throw problem('invalid_secret', `unknown query parameter ${JSON.stringify(k)}`);
  }
}

export async function listEntries(ctx: RequestContext, ns: Namespace): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, ['type']);
  const type = ctx.query.get('type');
  const out = ctx.app.store
    .list(ns)
    .filter((e) => (type === null || e.type === type) && allowedVerbs(caller, e).length > 0)
    .map((e) => descriptor(e, ns, caller));
  writeJson(ctx.res, 200, out);
}

export async function readEntry(ctx: RequestContext, ns: Namespace, rawName: string): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const entry = visibleEntry(ctx, ns, decodeSegment(rawName), caller);
  requireVerb(caller, entry, 'use');
  const served = await ctx.app.minter.serve(entry, ns, caller);
  const desc = descriptor(entry, ns, caller);
  writeJson(
    ctx.res,
    200,
    { ...desc, dynamic: served.dynamic || desc.dynamic, params: served.params, redact_keys: served.redact_keys, expires_at: served.expires_at },
    { ETag: etagOf(entry.version) },
  );
}

export async function putEntry(ctx: RequestContext, ns: Namespace, rawName: string): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const name = decodeSegment(rawName);
  const input = parseEntryInput(await readJsonBody(ctx.req), { ns, ownAudiences: ctx.app.ownAudiences });
  const now = new Date(ctx.app.now()).toISOString();
  const { status, entry } = await ctx.app.store.transact((draft) => {
    const map = draft[ns];
    const existing = map.get(name);
    // Permission before precondition: a caller who may not write never learns the name exists (412 vs 403).
    if (!existing) {
      requireCreate(caller);
      checkMissing(readConditions(ctx.req.headers));
      const created: Entry = {
        name, ...input, comment: input.comment ?? null, owner: caller.user.subject,
        created_at: now, updated_at: now, version: 1, grants: [],
      };
      map.set(name, created);
      return { status: 201, entry: created };
    }
    requireUpdate(caller, existing);
    checkExisting(readConditions(ctx.req.headers), existing.version);
    const replaced: Entry = {
      ...existing, ...input, comment: input.comment ?? existing.comment, updated_at: now, version: existing.version + 1,
    };
    map.set(name, replaced);
    return { status: 200, entry: replaced };
  });
  writeJson(ctx.res, status, descriptor(entry, ns, caller), { ETag: etagOf(entry.version) });
}

export async function deleteEntry(ctx: RequestContext, ns: Namespace, rawName: string): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const name = decodeSegment(rawName);
  await ctx.app.store.transact((draft) => {
    const entry = visibleEntry(ctx, ns, name, caller, draft[ns]);
    requireVerb(caller, entry, 'delete');
    checkExisting(readConditions(ctx.req.headers), entry.version);
    draft[ns].delete(name);
  });
  writeEmpty(ctx.res, 204);
}

export async function annotateEntry(ctx: RequestContext, ns: Namespace, rawName: string): Promise<void> {
  const caller = await ctx.caller();
  onlyQuery(ctx, []);
  const name = decodeSegment(rawName);
  const comment = parseAnnotation(await readJsonBody(ctx.req));
  const now = new Date(ctx.app.now()).toISOString();
  const entry = await ctx.app.store.transact((draft) => {
    const current = visibleEntry(ctx, ns, name, caller, draft[ns]);
    requireVerb(caller, current, 'annotate');
    checkExisting(readConditions(ctx.req.headers), current.version);
    // The comment is part of the representation, so the version (and ETag) moves with it.
    const next: Entry = { ...current, comment, updated_at: now, version: current.version + 1 };
    draft[ns].set(name, next);
    return next;
  });
  writeJson(ctx.res, 200, descriptor(entry, ns, caller), { ETag: etagOf(entry.version) });
}
