// Authentication failures (seed 000 "Errors": 401 for missing or invalid credentials). Messages
// say what was wrong with a credential, never the credential itself.
import { errors as joseErrors } from 'jose';
import { ErrorCode, PublicError } from '../shared/errors.js';

export const unauthenticated = (message: string): PublicError => new PublicError(ErrorCode.Unauthenticated, message, 401);

/** The identity provider (discovery or JWKS) cannot be reached: a server-side fault, not the caller's. */
export const providerUnavailable = (what: string, why?: string): PublicError =>
  new PublicError(ErrorCode.SourceUnavailable, `${what} is unavailable${why ? ` (${why})` : ''}; try again later`, 503);

/**
 * Turns a verification failure into a PublicError. Errors of the token itself are 401; failures to
 * fetch keys are 503, so a client does not throw away a good token because the issuer was slow.
 */
export function tokenFailure(e: unknown, source: string): PublicError {
  if (e instanceof PublicError) return e;
  if (e instanceof joseErrors.JWTExpired) return unauthenticated('token has expired');
  if (e instanceof joseErrors.JWTClaimValidationFailed) {
    if (e.reason === 'missing') return unauthenticated(`token lacks the "${e.claim}" claim`);
    if (e.claim === 'nbf') return unauthenticated('token is not yet valid');
    if (e.claim === 'iss') return unauthenticated('token issuer is not accepted');
    if (e.claim === 'aud') return unauthenticated('token audience is not accepted');
    return unauthenticated(`token claim "${e.claim}" is not accepted`);
  }
  if (e instanceof joseErrors.JOSEAlgNotAllowed || e instanceof joseErrors.JOSENotSupported) return unauthenticated('token algorithm is not accepted');
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return unauthenticated('token signature is invalid');
  if (e instanceof joseErrors.JWKSNoMatchingKey) return unauthenticated('no key of the issuer matches the token');
  if (e instanceof joseErrors.JWKSMultipleMatchingKeys) return unauthenticated('the token does not say which key signed it');
  if (e instanceof joseErrors.JWKSTimeout || e instanceof joseErrors.JWKSInvalid) return providerUnavailable(source);
  if (e instanceof joseErrors.JOSEError && e.code === 'ERR_JOSE_GENERIC') return providerUnavailable(source);
  if (e instanceof TypeError && /fetch/i.test(e.message)) return providerUnavailable(source);
  return unauthenticated('malformed token');
}

/** The `reason` label of svc_auth_failures_total for an authentication failure (a few fixed values). */
export function failureReason(e: unknown): string {
  if (!(e instanceof PublicError)) return 'error';
  if (e.status === 503) return 'provider_unavailable';
  if (e.status === 403) return 'forbidden';
  const m = e.message;
  if (/expired/.test(m)) return 'expired';
  if (/^(token|malformed token|no key of the issuer|the token does not say)/.test(m)) return 'invalid_token';
  if (/disabled/.test(m)) return 'disabled_key';
  if (/Authorization scheme/.test(m)) return 'unsupported_scheme';
  if (/required/.test(m)) return 'missing_credentials';
  return 'invalid_credentials';
}
