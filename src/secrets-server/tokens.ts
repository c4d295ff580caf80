import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { IssuerConfig } from './config.js';
import { isSafeUrl } from './net.js';
import { problem } from './problem.js';
import { buildIdentity, type Identity } from './principals.js';

// Token verification of seed 002 rule 5 and SPEC §15 "Tokens", against any number of issuers.

export interface FetchDeps {
  fetch: typeof fetch;
  /** milliseconds since the epoch */
  now: () => number;
  /** bound on each request to an identity provider */
  timeoutMs: number;
}

interface IssuerMeta {
  jwksUri: URL;
  tokenEndpoint?: URL;
}

const FAILURE_MEMORY_MS = 5_000;
// A token signed with a key we have not seen refetches the key set, but not more often than this.
const JWKS_REFETCH_MS = 30_000;
const CLOCK_TOLERANCE_S = 5;

class IssuerState {
  meta?: IssuerMeta;
  keys?: ReturnType<typeof createLocalJWKSet>;
  keysAt = 0;
  failedAt?: number;
  pending?: Promise<void>;
}

export class TokenVerifier {
  private readonly states = new Map<string, IssuerState>();

  constructor(
    readonly issuers: IssuerConfig[],
    private readonly deps: FetchDeps,
  ) {
    for (const iss of issuers) this.states.set(iss.issuer, new IssuerState());
  }

  issuerConfig(issuer: string): IssuerConfig | undefined {
    return this.issuers.find((i) => i.issuer === issuer);
  }

  /** Verifies a bearer token and returns the caller; 401 for any bad token, 503 when the issuer cannot be reached. */
  async verify(token: string): Promise<Identity> {
    const bad = (why: string) => problem('unauthenticated', why);
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) throw bad('the bearer token is not a signed JWT');
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw bad('the bearer token is not a signed JWT');
    }
    // `iss` is matched verbatim, so `https://idp/` and `https://idp` are different issuers.
    const issuer = typeof unverified.iss === 'string' ? this.issuerConfig(unverified.iss) : undefined;
    if (!issuer) throw bad('the token issuer is not configured');
    let claims: JWTPayload;
    try {
      claims = await this.verifyWithKeys(issuer, token, false);
    } catch (err) {
      if (err instanceof errors.JWKSNoMatchingKey && this.mayRefetch(issuer)) {
        this.state(issuer).keys = undefined;
        claims = await this.verifyWithKeys(issuer, token, true).catch((e: unknown) => { throw tokenFailure(e); });
      } else {
        throw tokenFailure(err);
      }
    }
    if (typeof claims.sub !== 'string' || claims.sub === '') throw bad('the token has no subject');
    return buildIdentity(issuer, claims, token);
  }

  /** The issuer's token endpoint, for RFC 8693 exchange; discovery errors become 503. */
  async tokenEndpoint(issuer: IssuerConfig): Promise<URL | undefined> {
    await this.discover(issuer);
    return this.state(issuer).meta?.tokenEndpoint;
  }

  private async verifyWithKeys(issuer: IssuerConfig, token: string, refetched: boolean): Promise<JWTPayload> {
    await this.loadKeys(issuer, refetched);
    const keys = this.state(issuer).keys;
    if (!keys) throw problem('service_unavailable', 'the token issuer cannot be reached');
    const { payload } = await jwtVerify(token, keys, {
      issuer: issuer.issuer,
      audience: issuer.audience,
      algorithms: issuer.algorithms,
      requiredClaims: ['exp', 'sub'],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(this.deps.now()),
    });
    return payload;
  }

  private state(issuer: IssuerConfig): IssuerState {
    const s = this.states.get(issuer.issuer);
    if (!s) throw new Error(`unknown issuer ${issuer.issuer}`);
    return s;
  }

  private mayRefetch(issuer: IssuerConfig): boolean {
    return this.deps.now() - this.state(issuer).keysAt >= JWKS_REFETCH_MS;
  }

  private async loadKeys(issuer: IssuerConfig, force: boolean): Promise<void> {
    const s = this.state(issuer);
    if (s.keys && !force) return;
    await this.discover(issuer);
    await this.once(s, async () => {
      if (s.keys && !force) return;
      const doc = await this.getJson(s.meta!.jwksUri);
      if (!doc || !Array.isArray((doc as JSONWebKeySet).keys)) throw new Error('key set has no keys');
      s.keys = createLocalJWKSet(doc as JSONWebKeySet);
      s.keysAt = this.deps.now();
    });
  }

  /** Lazy OIDC discovery, bounded by a timeout; a failure is remembered for 5 s (SPEC §15 Tokens). */
  private async discover(issuer: IssuerConfig): Promise<void> {
    const s = this.state(issuer);
    if (s.meta) return;
    await this.once(s, async () => {
      if (s.meta) return;
      // OIDC Discovery §4: a terminating `/` is removed before the well-known path is appended.
      const url = new URL(`${issuer.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
      const doc = (await this.getJson(url)) as Record<string, unknown> | undefined;
      if (!doc || doc.issuer !== issuer.issuer) throw new Error('discovery document names another issuer');
      const jwksUri = safeUrl(doc.jwks_uri);
      if (!jwksUri) throw new Error('discovery document has no usable jwks_uri');
      const tokenEndpoint = safeUrl(doc.token_endpoint);
      s.meta = { jwksUri, ...(tokenEndpoint ? { tokenEndpoint } : {}) };
    });
  }

  /** Runs one fetch per issuer at a time; remembers a failure so an outage costs no more than one wait per 5 s. */
  private async once(s: IssuerState, work: () => Promise<void>): Promise<void> {
    if (s.failedAt !== undefined && this.deps.now() - s.failedAt < FAILURE_MEMORY_MS) {
      throw problem('service_unavailable', 'the token issuer cannot be reached');
    }
    if (!s.pending) {
      s.pending = work().then(
        () => { s.failedAt = undefined; },
        () => { s.failedAt = this.deps.now(); },
      ).finally(() => { s.pending = undefined; });
    }
    await s.pending;
    if (s.failedAt !== undefined) throw problem('service_unavailable', 'the token issuer cannot be reached');
  }

  private async getJson(url: URL): Promise<unknown> {
    const res = await this.deps.fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(this.deps.timeoutMs),
    });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    return res.json();
  }
}

function safeUrl(v: unknown): URL | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const u = new URL(v);
    return isSafeUrl(u) ? u : undefined;
  } catch {
    return undefined;
  }
}

/** Maps a verification failure to a refusal whose text never quotes the token. */
function tokenFailure(err: unknown): Error {
  if (err instanceof Error && 'status' in err) return err;
  if (err instanceof errors.JWTExpired) return problem('unauthenticated', 'the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    return problem('unauthenticated', `the token's "${err.claim}" claim is not acceptable`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return problem('unauthenticated', 'the token algorithm is not allowed');
  if (err instanceof errors.JOSEError) return problem('unauthenticated', 'the token signature does not verify');
  return problem('unauthenticated', 'the token does not verify');
}
