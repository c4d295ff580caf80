// Authentication settings beyond the `auth.*` YAML block (SPEC §2): the OIDC environment variables
// that the configuration schema does not carry yet are read here when present, with their defaults.
import type { Config } from '../config/schema.js';

export interface AuthSettings {
  /** Cookie that may carry the token for web applications (SPEC §2 `OIDC_COOKIE_NAME`). */
  cookieName: string;
  /** Limit on discovery and JWKS requests to an identity provider (`OIDC_TIMEOUT`). */
  fetchTimeoutMs: number;
  /** Claims naming the user in OIDC tokens (`OIDC_USERNAME_CLAIM`, `OIDC_USERID_CLAIM`). */
  oidcUserNameClaim?: string;
  oidcUserIdClaim?: string;
  /** JWT_CLOCK_LEEWAY in seconds: accepted past `exp` and before `nbf` (default 0). */
  clockLeewayS: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function authSettings(config: Config): AuthSettings {
  // Read through an index so these start working as soon as the schema gains the keys.
  const extra = config as unknown as Record<string, unknown>;
  const text = (k: string) => (typeof extra[k] === 'string' && extra[k] !== '' ? (extra[k] as string) : undefined);
  return {
    cookieName: text('OIDC_COOKIE_NAME') ?? 'svc_session',
    fetchTimeoutMs: duration(extra.OIDC_TIMEOUT) ?? DEFAULT_TIMEOUT_MS,
    oidcUserNameClaim: text('OIDC_USERNAME_CLAIM'),
    oidcUserIdClaim: text('OIDC_USERID_CLAIM'),
    clockLeewayS: typeof config.JWT_CLOCK_LEEWAY === 'number' ? config.JWT_CLOCK_LEEWAY / 1000 : 0,
  };
}

/** `10s`, `500ms`, `1m`, or a bare number of seconds (the form of the other SPEC §2 durations). */
export function duration(v: unknown): number | undefined {
  if (typeof v === 'number' && v > 0) return v * 1000;
  if (typeof v !== 'string') return undefined;
  const m = v.trim().match(/^(\d+(?:\.\d+)?)(ms|s|m)?$/);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
}
