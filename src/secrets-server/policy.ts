import type { ActorConfig } from './config.js';
import { problem } from './problem.js';
import { MANAGEMENT_VERBS, VERBS, type Verb } from './policy-names.js';
import { allPrincipals, type Identity } from './principals.js';
import { grantGivesUse, type Entry } from './store.js';
import type { DelegationGrant } from './delegation.js';

// Verbs of seed 002 "Authentication" 3–4: `use` only from grants to roles and groups, management only for
// policy.admins, and under a delegation grant the intersection with the actor's `verbs`.

export interface Caller {
  /** the effective user: the direct caller, or the grant's user under a delegation */
  user: Identity;
  /** fixed at exchange under a grant (seed 002 Delegation table) */
  userIsAdmin: boolean;
  delegation?: { grant: DelegationGrant; actor: ActorConfig; actorIdentity: Identity };
}

export function matchesAny(principals: readonly string[], list: readonly string[]): boolean {
  return principals.some((p) => list.includes(p));
}

export function isAdmin(id: Identity, admins: readonly string[]): boolean {
  return matchesAny(allPrincipals(id), admins);
}

/** The listed actor a direct caller is, honouring the issuer pin. */
export function findActor(id: Identity, actors: readonly ActorConfig[]): ActorConfig | undefined {
  const mine = allPrincipals(id);
  return actors.find((a) => mine.includes(a.principal) && (a.issuer === undefined || a.issuer === id.issuer));
}

export function holdsUse(id: Identity, entry: Entry): boolean {
  const mine = id.memberships;
  return entry.grants.some((g) => grantGivesUse(g) && mine.includes(g.principal));
}

function candidateVerbs(caller: Caller, entry: Entry): Set<Verb> {
  const out = new Set<Verb>();
  const useFrom = caller.delegation ? caller.delegation.actorIdentity : caller.user;
  if (holdsUse(useFrom, entry)) out.add('use');
  if (caller.userIsAdmin) for (const v of MANAGEMENT_VERBS) out.add(v);
  return out;
}

/** Verbs the caller may exercise on an existing entry, in the canonical order. */
export function allowedVerbs(caller: Caller, entry: Entry): Verb[] {
  const cand = candidateVerbs(caller, entry);
  const actorVerbs = caller.delegation?.actor.verbs;
  return VERBS.filter((v) => cand.has(v) && (!actorVerbs || actorVerbs.includes(v)));
}

/**
 * Whether the entry exists for this caller: a caller holding no verb sees a 404 exactly like a missing
 * entry. Under a grant, what the user or the actor could see directly stays visible so that a refusal
 * can name the actor rule instead of pretending the entry is gone.
 */
export function isVisible(caller: Caller, entry: Entry): boolean {
  if (candidateVerbs(caller, entry).size > 0) return true;
  return caller.delegation !== undefined && holdsUse(caller.user, entry);
}

const NO_VERB = 'the caller holds no verb for this operation on this name';

/** Throws the refusal for `verb` on a visible entry; callers check visibility first. */
export function requireVerb(caller: Caller, entry: Entry, verb: Verb): void {
  if (allowedVerbs(caller, entry).includes(verb)) return;
  if (caller.delegation) throw problem('actor_not_allowed', `the actor may not ${verb} this entry for this user`);
  throw problem('no_verb', NO_VERB);
}

/** `create` on a name that does not exist: admins only, and under a grant only through an actor listing it. */
export function requireCreate(caller: Caller): void {
  if (mayCreate(caller)) return;
  if (caller.delegation) throw problem('actor_not_allowed', 'the actor may not create entries for this user');
  throw problem('no_verb', NO_VERB);
}

export function mayCreate(caller: Caller): boolean {
  if (!caller.userIsAdmin) return false;
  return !caller.delegation || caller.delegation.actor.verbs.includes('create');
}

/** PUT on an existing entry: a caller without update gets the very 403 a caller without create gets (SPEC §15). */
export function requireUpdate(caller: Caller, entry: Entry): void {
  if (!isVisible(caller, entry)) {
    if (caller.delegation) throw problem('actor_not_allowed', 'the actor may not create entries for this user');
    throw problem('no_verb', NO_VERB);
  }
  requireVerb(caller, entry, 'update');
}
