// One authentication method (SPEC §6). A provider answers an Identity when the request carries a
// credential it accepts, throws (401) when it recognises the credential but the credential fails,
// and answers undefined when the request carries nothing it recognises, so the next one is tried.
// A throw is a refusal whether the answer is synchronous or a promise.
import type { Identity } from '../identity.js';
import type { AuthRequest } from '../request.js';
import type { MaybePromise } from '../../shared/maybe-async.js';

export interface AuthProvider {
  /** For messages and docs: `secret_key`, `api_key`, `oidc`, `jwt`. */
  readonly name: string;
  /** Synchronous when it can decide without waiting (no credential of its kind, a static key). */
  authenticate(req: AuthRequest): MaybePromise<Identity | undefined>;
}
