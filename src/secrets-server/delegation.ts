import { randomBytes } from 'node:crypto';
import type { ActorConfig } from './config.js';
import { problem } from './problem.js';
import type { Identity } from './principals.js';

// Delegation grants of seed 002 "States and transitions": in memory only, bound to one actor, never logged.

export const GRANT_TTL_DEFAULT_S = 3600;
export const GRANT_TTL_MAX_S = 8 * 3600;
export const MAX_GRANTS = 100_000;

export interface MintedToken { token: string; expiresAt: number }

export interface DelegationGrant {
  /** 32 random bytes, hex */
  id: string;
  /** the person's identity and token as verified at exchange */
  user: Identity;
  userIsAdmin: boolean;
  actor: ActorConfig;
  /** `subject:<iss>|<sub>` of the actor server that exchanged; only it may present the grant */
  actorSubject: string;
  expiresAt: number;
  /** refresh tokens per audience key, dropped with the grant (never revoked at the provider) */
  refresh: Map<string, string>;
  minted: Map<string, MintedToken>;
}

export interface GrantFilter { actor?: string; subject?: string }

export class Delegations {
  private readonly grants = new Map<string, DelegationGrant>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number) {
    // Ended grants drop their tokens on time even if nobody asks for them again.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
    this.grants.clear();
  }

  get size(): number {
    return this.grants.size;
  }

  create(user: Identity, userIsAdmin: boolean, actor: ActorConfig, actorSubject: string, ttlSeconds: number): DelegationGrant {
    if (this.grants.size >= MAX_GRANTS) this.sweep();
    if (this.grants.size >= MAX_GRANTS) throw problem('service_unavailable', `the server holds ${MAX_GRANTS} delegation grants, its limit`);
    const ttl = Math.min(ttlSeconds, GRANT_TTL_MAX_S);
    const grant: DelegationGrant = {
      id: randomBytes(32).toString('hex'),
      user,
      userIsAdmin,
      actor,
      actorSubject,
      expiresAt: this.now() + ttl * 1000,
      refresh: new Map(),
      minted: new Map(),
    };
    this.grants.set(grant.id, grant);
    return grant;
  }

  /** A live grant by id; an ended one is dropped on sight. */
  get(id: string): DelegationGrant | undefined {
    const g = this.grants.get(id);
    if (!g) return undefined;
    if (g.expiresAt <= this.now()) {
      this.end(g);
      return undefined;
    }
    return g;
  }

  revoke(id: string): void {
    const g = this.grants.get(id);
    if (g) this.end(g);
  }

  /** Ends every live grant matching all given filters; `actor` matches the policy principal or the actor's subject. */
  revokeWhere(filter: GrantFilter): number {
    this.sweep();
    let n = 0;
    for (const g of [...this.grants.values()]) {
      if (filter.subject !== undefined && g.user.subject !== filter.subject) continue;
      if (filter.actor !== undefined && g.actor.principal !== filter.actor && g.actorSubject !== filter.actor) continue;
      this.end(g);
      n++;
    }
    return n;
  }

  private sweep(): void {
    const now = this.now();
    for (const g of [...this.grants.values()]) if (g.expiresAt <= now) this.end(g);
  }

  private end(g: DelegationGrant): void {
    g.refresh.clear();
    g.minted.clear();
    this.grants.delete(g.id);
  }
}

/** ttl in seconds: default 1 h, capped at 8 h; a number too large to matter is capped rather than refused. */
export function parseTtl(v: unknown): number {
  if (v === undefined) return GRANT_TTL_DEFAULT_S;
  if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isInteger(v) || v <= 0) {
    if (typeof v === 'number' && v === Infinity) return GRANT_TTL_MAX_S;
    throw problem('invalid_secret', 'ttl must be a positive whole number of seconds');
  }
  return Math.min(v, GRANT_TTL_MAX_S);
}
