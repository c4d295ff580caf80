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
