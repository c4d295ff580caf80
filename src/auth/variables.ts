// The `[$auth.<name>]` variables of SPEC §6 and seed 000 "Authentication variables", as one map,
// for permission filters and `data` stamps. Pure: same identity, same map.
import type { Identity } from './identity.js';

/** `user_id` as an integer for integer key columns; null when it is not one exactly. */
function asInt(id: string | null): number | null {
  if (id === null || !/^-?\d+$/.test(id)) return null;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : null;
}

export function authVariables(identity: Identity): Record<string, unknown> {
  const claims = identity.claims ?? {};
  const by = identity.impersonatedBy;
  return {
    // Custom claims first: the standard names below must not be shadowed by a key's or token's
    // claims (a managed key claiming `auth_type` or `role` must not change what filters see).
    ...claims,
    user_id: identity.userId,
    user_id_int: asInt(identity.userId),
    user_name: identity.userName,
    role: identity.role,
    auth_type: identity.authType,
    provider: identity.provider ?? null,
    email: typeof claims.email === 'string' ? claims.email : null,
    impersonated_by_role: by?.role ?? null,
    impersonated_by_user_id: by?.userId ?? null,
    impersonated_by_user_name: by?.userName ?? null,
  };
}

/**
 * The map of one identity, made once per identity object: the anonymous caller's and a remembered
 * key's or token's identity are the same object request after request, and every request context
 * reads the map (issue 30: a fresh one per request). Identities are read-only (src/auth/identity.ts); their map is frozen:
 * no reader may change it.
 */
const byIdentity = new WeakMap<Identity, Readonly<Record<string, unknown>>>();

export function authVariablesOf(identity: Identity): Readonly<Record<string, unknown>> {
  let vars = byIdentity.get(identity);
  if (!vars) byIdentity.set(identity, (vars = Object.freeze(authVariables(identity))));
  return vars;
}

/** The map as JSON text (the plan cache's key, src/pipeline/resolvers/plan-cache.ts), made once per map. */
const texts = new WeakMap<object, string>();

export function authVariablesText(vars: Readonly<Record<string, unknown>>): string {
  let text = texts.get(vars);
  if (text === undefined) texts.set(vars, (text = JSON.stringify(vars)));
  return text;
}
