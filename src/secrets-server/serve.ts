import type { TokenVerifier } from './tokens.js';
import type { Caller } from './policy.js';
import type { DelegationGrant, MintedToken } from './delegation.js';
import type { MintRequest, TokenExchanger } from './exchange.js';
import { classify, legacyGenerator, looksLikeJwt, type Generator } from './mint.js';
import { ProblemError, problem } from './problem.js';
import type { Entry, Namespace, Param } from './store.js';

// The read of one entry: literals unescaped, generators minted for the effective user (seed 002 rules 2, 4, 5, 9).

export interface Served {
  params: Record<string, Param>;
  redact_keys: string[];
  expires_at: string | null;
  dynamic: boolean;
}

// Minted tokens are reused until this long before they expire (SPEC §15).
const REUSE_MARGIN_MS = 30_000;
const CACHE_SWEEP_AT = 10_000;

export class Minter {
  private readonly cache = new Map<string, MintedToken>();

  constructor(
    private readonly verifier: TokenVerifier,
    private readonly exchanger: TokenExchanger,
    private readonly now: () => number,
  ) {}

  async serve(entry: Entry, ns: Namespace, caller: Caller): Promise<Served> {
    // A Map, not an object: a parameter may be named `__proto__`.
    const params = new Map<string, Param>();
    const redact = [...entry.redact_keys];
    let earliest: number | undefined;
    const generated = (key: string, value: string, expiresAt: number) => {
      params.set(key, value);
      if (!redact.includes(key)) redact.push(key);
      earliest = earliest === undefined ? expiresAt : Math.min(earliest, expiresAt);
    };
    for (const [key, value] of Object.entries(entry.params)) {
      if (typeof value !== 'string') {
        params.set(key, value);
        continue;
      }
      const c = classify(value);
      if ('literal' in c || ns === 'variables') {
        params.set(key, 'literal' in c ? c.literal : value);
        continue;
      }
      // A stored generator that no longer parses is served as nothing rather than as its text.
      if ('error' in c) throw problem('mint_refused', `parameter ${JSON.stringify(key)} ${c.error}`);
      const out = await this.generate(key, c.generator, caller);
      generated(key, out.token, out.expiresAt);
    }
    const legacy = ns === 'secrets' ? legacyGenerator(entry.type, entry.provider, entry.params) : undefined;
    if (legacy) {
      const out = await this.generate(legacy.key, legacy.generator, caller);
      generated(legacy.key, out.token, out.expiresAt);
    }
    return {
      params: Object.fromEntries(params),
      redact_keys: redact,
      expires_at: earliest === undefined ? null : new Date(earliest).toISOString(),
      dynamic: earliest !== undefined,
    };
  }

  /** At exchange: mint now for each audience the actor may use, so a later outage can renew from the refresh token. */
  async prepareGrant(grant: DelegationGrant, requests: MintRequest[]): Promise<void> {
    await Promise.all(
      requests.map((r) => this.exchangeForGrant(grant, r).catch(() => undefined)),
    );
  }

  private async generate(key: string, gen: Generator, caller: Caller): Promise<MintedToken> {
    try {
      if (gen.kind === 'claim') return this.claim(gen.claim, caller);
      return await this.token(gen, caller);
    } catch (err) {
      if (err instanceof ProblemError) throw problem(err.code, `parameter ${JSON.stringify(key)}: ${err.detail}`);
      throw err;
    }
  }

  /** Rule 2: the text of a top-level claim of the verified token, never the token itself. */
  private claim(name: string, caller: Caller): MintedToken {
    const claims = caller.user.claims;
    const v = Object.hasOwn(claims, name) ? claims[name] : undefined;
    let text: string | undefined;
    if (typeof v === 'string') text = v;
    else if (typeof v === 'number' || typeof v === 'boolean') text = JSON.stringify(v);
    if (text === undefined || text === '') throw problem('mint_refused', 'the claim is missing, empty, a list or an object');
    if (looksLikeJwt(text)) throw problem('mint_refused', 'the claim holds a token and is never served');
    const expiresAt = caller.delegation ? caller.delegation.grant.expiresAt : caller.user.exp * 1000;
    return { token: text, expiresAt };
  }

  private async token(req: MintRequest, caller: Caller): Promise<MintedToken> {
    const grant = caller.delegation?.grant;
    if (grant) {
      const hit = fresh(grant.minted.get(reqKey(req)), this.now());
      return hit ?? this.exchangeForGrant(grant, req);
    }
    const cacheKey = `${caller.user.subject}\n${reqKey(req)}`;
    const hit = fresh(this.cache.get(cacheKey), this.now());
    if (hit) return hit;
    const out = await this.exchanger.exchange(this.issuerOf(caller), caller.user.token, req);
    this.remember(cacheKey, out);
    return out;
  }

  /** Under a grant: renew from the stored refresh token, else exchange the kept user token while it is valid. */
  private async exchangeForGrant(grant: DelegationGrant, req: MintRequest): Promise<MintedToken> {
    const key = reqKey(req);
    const issuer = this.verifier.issuerConfig(grant.user.issuer);
    if (!issuer) throw problem('mint_refused', 'the user\'s issuer is no longer configured');
    const refresh = grant.refresh.get(key);
    let out;
    if (refresh) {
      out = await this.exchanger.refresh(issuer, refresh, req).catch((err: unknown) => {
        // A refused refresh means the provider session ended; the token is useless from now on.
        if (err instanceof ProblemError && err.code === 'mint_refused') grant.refresh.delete(key);
        throw err;
      });
    } else if (grant.user.exp * 1000 > this.now()) {
      out = await this.exchanger.exchange(issuer, grant.user.token, req);
    } else {
      throw problem('mint_refused', 'the user\'s token has expired and no identity-provider session is kept');
    }
    if (out.refreshToken) grant.refresh.set(key, out.refreshToken);
    const minted = { token: out.token, expiresAt: out.expiresAt };
    grant.minted.set(key, minted);
    return minted;
  }

  private issuerOf(caller: Caller) {
    const issuer = this.verifier.issuerConfig(caller.user.issuer);
    if (!issuer) throw problem('mint_refused', 'the caller\'s issuer is not configured');
    return issuer;
  }

  private remember(key: string, out: MintedToken): void {
    if (this.cache.size >= CACHE_SWEEP_AT) {
      const now = this.now();
      for (const [k, v] of this.cache) if (!fresh(v, now)) this.cache.delete(k);
      if (this.cache.size >= CACHE_SWEEP_AT) this.cache.clear();
    }
    this.cache.set(key, { token: out.token, expiresAt: out.expiresAt });
  }
}

const reqKey = (r: MintRequest): string => `${r.audience}\n${r.scope ?? ''}`;

function fresh(m: MintedToken | undefined, now: number): MintedToken | undefined {
  return m && m.expiresAt - REUSE_MARGIN_MS > now ? m : undefined;
}

/** Audiences a set of entries would mint for; used to prepare a grant for the actor's own secrets. */
export function mintRequestsOf(entries: Entry[]): MintRequest[] {
  const seen = new Map<string, MintRequest>();
  const add = (g: Generator) => {
    if (g.kind === 'exchange') seen.set(reqKey(g), { audience: g.audience, ...(g.scope ? { scope: g.scope } : {}) });
  };
  for (const e of entries) {
    for (const v of Object.values(e.params)) {
      if (typeof v !== 'string') continue;
      const c = classify(v);
      if ('generator' in c) add(c.generator);
    }
    const legacy = legacyGenerator(e.type, e.provider, e.params);
    if (legacy) add(legacy.generator);
  }
  return [...seen.values()];
}
