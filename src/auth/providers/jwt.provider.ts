// JWT (SPEC §6, seed 000 "JWT and OIDC role assignment"): HS256 with a shared secret, RS256/ES256
// with a public key (PEM text or file) or a JWKS URL. The token's `alg` must be the configured one,
// so neither `none` nor an HMAC made with a public key is ever accepted.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { Config } from '../../config/schema.js';
import type { Identity } from '../identity.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { tokenFailure } from '../errors.js';
import type { AuthRequest } from '../request.js';
import { claimAt, peekJwt, roleFrom, stringClaim } from '../token-claims.js';
import type { AuthProvider } from './provider.js';

type JwtConfig = NonNullable<Config['auth']['jwt']>;
type Verifier = Uint8Array | KeyObject | ReturnType<typeof createRemoteJWKSet>;

export class JwtProvider implements AuthProvider {
  readonly name = 'jwt';
  private readonly key: Verifier;

  constructor(
    private readonly cfg: JwtConfig,
    private readonly cookieName: string,
    fetchTimeoutMs: number,
    /** JWT_CLOCK_LEEWAY (seconds): 0 unless the operator allows clocks to disagree (issue 31). */
    private readonly leewayS = 0,
  ) {
    this.key = verifierFor(cfg, fetchTimeoutMs);
  }

  authenticate(req: AuthRequest): Identity | undefined | Promise<Identity> {
    const token = req.bearer ?? req.cookie(this.cookieName);
    // Anything that is not a JWS compact token is not ours: an opaque string goes on (SPEC §6).
    if (token === undefined || !peekJwt(token)) return undefined;
    return this.verify(token);
  }

  private async verify(token: string): Promise<Identity> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [this.cfg.algorithm],
        issuer: this.cfg.issuer,
        audience: this.cfg.audience,
        clockTolerance: this.leewayS,
        // A token without expiry could never be withdrawn; refuse it.
        requiredClaims: ['exp'],
      }));
    } catch (e) {
      throw tokenFailure(e, 'the JWT key set');
    }
    return this.identity(payload);
  }

  private identity(payload: JWTPayload): Identity {
    const claims: Record<string, unknown> = {};
    for (const [variable, claim] of Object.entries(this.cfg.custom_claims)) {
      const v = claimAt(payload, claim);
      if (v !== undefined) claims[variable] = v;
    }
    const sub = stringClaim(payload, 'sub');
    return {
      // A verified token that names no role gets `public`, the least-privileged built-in role.
      role: roleFrom(payload, { roleClaim: this.cfg.role_claim, scopePrefix: this.cfg.role_scope_prefix, priority: this.cfg.role_priority }) ?? 'public',
      userId: sub ?? null,
      userName: stringClaim(payload, 'name') ?? sub ?? 'unknown',
      authType: 'jwt',
      ...(payload.iss ? { provider: payload.iss } : {}),
      ...(Object.keys(claims).length ? { claims } : {}),
    };
  }
}

const configError = (message: string) => new PublicError(ErrorCode.ConfigInvalid, message);

/** The verification key, checked at boot so a bad key stops the start instead of failing requests. */
function verifierFor(cfg: JwtConfig, fetchTimeoutMs: number): Verifier {
  if (cfg.algorithm === 'HS256') {
    if (!cfg.secret) throw configError('auth.jwt: algorithm HS256 needs "secret"');
    return new TextEncoder().encode(cfg.secret);
  }
  if (cfg.public_key) {
    const pem = cfg.public_key.includes('-----BEGIN') ? cfg.public_key : readPem(cfg.public_key);
    let key: KeyObject;
    try {
      key = createPublicKey(pem);
    } catch {
      throw configError('auth.jwt.public_key is not a PEM public key or certificate');
    }
    const wanted = cfg.algorithm === 'RS256' ? 'rsa' : 'ec';
    if (key.asymmetricKeyType !== wanted) throw configError(`auth.jwt.public_key is not an ${wanted.toUpperCase()} key, as ${cfg.algorithm} needs`);
    return key;
  }
  if (cfg.jwks_url) return createRemoteJWKSet(new URL(cfg.jwks_url), { timeoutDuration: fetchTimeoutMs });
  throw configError(`auth.jwt: algorithm ${cfg.algorithm} needs "public_key" or "jwks_url"`);
}

function readPem(path: string): string {
  if (!existsSync(path)) throw configError(`auth.jwt.public_key: file "${path}" does not exist`);
  return readFileSync(path, 'utf8');
}
