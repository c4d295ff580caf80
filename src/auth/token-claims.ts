// Reading roles and names out of verified JWT/OIDC claims (seed 000 "JWT and OIDC role assignment").
import type { JWTPayload } from 'jose';

export interface RoleRules {
  /** Claim holding the role: a string, or an array of roles. Dotted paths reach nested claims. */
  roleClaim?: string;
  /** A scope `<prefix><role>` grants `<role>` when the claim gives none. */
  scopePrefix?: string;
  /** Among several roles, the first of this list that the token holds wins. */
  priority?: readonly string[];
}

/**
 * A claim by name; `a.b.c` walks into objects when no claim has that literal name, because common
 * issuers nest roles (`realm_access.roles`).
 */
export function claimAt(payload: Readonly<Record<string, unknown>>, name: string): unknown {
  if (name in payload) return payload[name];
  let cur: unknown = payload;
  for (const part of name.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function pick(roles: readonly string[], priority: readonly string[] | undefined): string | undefined {
  for (const p of priority ?? []) if (roles.includes(p)) return p;
  return roles[0];
}

function scopes(payload: JWTPayload): string[] {
  // `scope` is a space-separated string (RFC 8693 §4.2); some issuers send `scp` as an array.
  const raw = [payload.scope, payload.scp].flatMap((v) => (typeof v === 'string' ? v.split(' ') : Array.isArray(v) ? v : []));
  return raw.filter((s): s is string => typeof s === 'string' && s !== '');
}

/** The role a token grants, or undefined when neither the claim nor a scope names one. */
export function roleFrom(payload: JWTPayload, rules: RoleRules): string | undefined {
  if (rules.roleClaim) {
    const v = claimAt(payload, rules.roleClaim);
    if (typeof v === 'string' && v !== '') return v;
    if (Array.isArray(v)) {
      const role = pick(v.filter((r): r is string => typeof r === 'string' && r !== ''), rules.priority);
      if (role) return role;
    }
  }
  const prefix = rules.scopePrefix;
  if (prefix) {
    const granted = scopes(payload)
      .filter((s) => s.startsWith(prefix) && s.length > prefix.length)
      .map((s) => s.slice(prefix.length));
    return pick(granted, rules.priority);
  }
  return undefined;
}

export const stringClaim = (payload: JWTPayload, name: string): string | undefined => {
  const v = claimAt(payload, name);
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
};

/**
 * A JWS compact token's header and payload, decoded without verification, or undefined when the
 * text is not one. Used only to decide which provider a token belongs to, never to trust it.
 */
export function peekJwt(token: string): { header: Record<string, unknown>; payload: JWTPayload } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as unknown;
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (!isObject(header) || typeof header.alg !== 'string' || !isObject(payload)) return undefined;
    return { header, payload: payload as JWTPayload };
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
