import type { RequestContext } from '../context.js';
import { parseTtl } from '../delegation.js';
import { findActor, holdsUse, isAdmin } from '../policy.js';
import { ProblemError, problem, writeEmpty, writeJson } from '../problem.js';
import { readJsonBody, refuseUnknown, requireObject } from '../request-body.js';
import { mintRequestsOf } from '../serve.js';
import { onlyQuery } from './entries.js';

// Delegation of seed 002 "States and transitions" and SPEC §15: an actor exchanges a person's token for
// a grant; admins, the actor and the person end it.

export async function createDelegation(ctx: RequestContext): Promise<void> {
  const direct = await ctx.directCaller();
  onlyQuery(ctx, []);
  const actor = findActor(direct, ctx.app.config.actors);
  if (!actor) throw problem('actor_not_allowed', 'the caller is not a server listed in policy.actors (or its token issuer is not the pinned one)');
  const body = requireObject(await readJsonBody(ctx.req), 'the body');
  refuseUnknown(body, ['subject_token', 'ttl'], 'the body');
  if (typeof body.subject_token !== 'string' || body.subject_token === '') {
    throw problem('invalid_secret', 'subject_token must be a non-empty string');
  }
  const ttl = parseTtl(body.ttl);
  const user = await ctx.app.verifier.verify(body.subject_token).catch((err: unknown) => {
    if (err instanceof ProblemError && err.code === 'unauthenticated') {
      throw problem('unauthenticated', `subject_token: ${err.detail}`);
    }
    throw err;
  });
  if (user.isService) throw problem('invalid_secret', 'subject_token belongs to a service; grants act for people');
  const grant = ctx.app.delegations.create(user, isAdmin(user, ctx.app.config.admins), actor, direct.subject, ttl);
  if (actor.verbs.includes('use')) {
    // Seed 002 rule 9: exchange now for every audience the actor may use, keeping refresh tokens.
    const own = ctx.app.store.list('secrets').filter((e) => holdsUse(direct, e));
    await ctx.app.minter.prepareGrant(grant, mintRequestsOf(own));
  }
  writeJson(ctx.res, 201, {
    id: grant.id,
    subject: user.subject,
    actor: actor.principal,
    expires_at: new Date(grant.expiresAt).toISOString(),
  });
}

export async function deleteDelegation(ctx: RequestContext, rawId: string): Promise<void> {
  const direct = await ctx.directCaller();
  onlyQuery(ctx, []);
  const grant = /^[0-9a-f]{64}$/.test(rawId) ? ctx.app.delegations.get(rawId) : undefined;
  const mayEnd =
    grant !== undefined &&
    (grant.actorSubject === direct.subject || grant.user.subject === direct.subject || isAdmin(direct, ctx.app.config.admins));
  // Someone else's grant answers like a missing one: grant ids are bearer material.
  if (!grant || !mayEnd) throw problem('not_found', 'no delegation grant by that id');
  ctx.app.delegations.revoke(grant.id);
  writeEmpty(ctx.res, 204);
}

/** Admins revoke by actor and/or subject; anyone else (and an admin without filters) revokes their own grants. */
export async function revokeDelegations(ctx: RequestContext): Promise<void> {
  const direct = await ctx.directCaller();
  onlyQuery(ctx, ['actor', 'subject']);
  const one = (k: string): string | undefined => {
    const all = ctx.query.getAll(k);
    if (all.length === 0) return undefined;
    if (all.length > 1 || all[0] === '') throw problem('invalid_secret', `query parameter ${k} must be given once and not empty`);
    return all[0];
  };
  const actor = one('actor');
  const subject = one('subject');
  let revoked: number;
  if (isAdmin(direct, ctx.app.config.admins) && (actor !== undefined || subject !== undefined)) {
    revoked = ctx.app.delegations.revokeWhere({ ...(actor ? { actor } : {}), ...(subject ? { subject } : {}) });
  } else {
    if (subject !== undefined && subject !== direct.subject) throw problem('no_verb', 'only admins revoke the grants of other subjects');
    revoked = ctx.app.delegations.revokeWhere({ ...(actor ? { actor } : {}), subject: direct.subject });
  }
  writeJson(ctx.res, 200, { revoked });
}
