import type { JWTPayload } from 'jose';
import type { IssuerConfig } from './config.js';

// Principals of seed 002 "Principals": who a verified token is, in the strings policies are written in.

/** A caller as verified: the token is kept only for exchange and `mint+claim://` (never logged). */
export interface Identity {
  issuer: string;
  sub: string;
  /** `subject:<issuer>|<sub>` */
  subject: string;
  /** role:, group: and client: principals, in that order */
  memberships: string[];
  isService: boolean;
  /** seconds since the epoch */
  exp: number;
  claims: JWTPayload;
  token: string;
}

export const subjectPrincipal = (issuer: string, sub: string): string => `subject:${issuer}|${sub}`;

export function allPrincipals(id: Identity): string[] {
  return [id.subject, ...id.memberships];
}

export function buildIdentity(issuer: IssuerConfig, claims: JWTPayload, token: string): Identity {
  const sub = claims.sub as string;
  const isService = isServiceToken(issuer, claims);
  const memberships = [
    ...names(issuer.roles_claim && claimAt(claims, issuer.roles_claim)).map((r) => `role:${r}`),
    ...names(issuer.groups_claim && claimAt(claims, issuer.groups_claim)).map((g) => `group:${g}`),
  ];
  if (isService) {
    // client: names carry no issuer (seed 002 Principals 2), and only services have one.
    const client = claims[issuer.client_claim];
    if (typeof client === 'string' && client !== '') memberships.push(`client:${client}`);
  }
  return {
    issuer: issuer.issuer,
    sub,
    subject: subjectPrincipal(issuer.issuer, sub),
    memberships: [...new Set(memberships)],
    isService,
    exp: claims.exp as number,
    claims,
    token,
  };
}

/** Seed 002 Principals 1: a service only by the issuer's rule; without one, every caller is a person. */
function isServiceToken(issuer: IssuerConfig, claims: JWTPayload): boolean {
  const rule = issuer.service;
  if (!rule) return false;
  const value = claimAt(claims, rule.claim);
  if (value === undefined || value === null) return false;
  if (rule.equals === undefined) return true;
  return value === rule.equals;
}

/**
 * A claim by exact top-level name first (names such as `https://example.com/roles` contain dots),
 * then as a dotted path into nested objects.
 */
export function claimAt(claims: JWTPayload, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let cur: unknown = claims;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function names(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}
