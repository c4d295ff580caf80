// One authentication method (SPEC §6). A provider answers an Identity when the request carries a
// credential it accepts, throws (401) when it recognises the credential but the credential fails,
// and answers undefined when the request carries nothing it recognises, so the next one is tried.
import type { Identity } from '../identity.js';
import type { AuthRequest } from '../request.js';

export interface AuthProvider {
  /** For messages and docs: `secret_key`, `api_key`, `oidc`, `jwt`. */
  readonly name: string;
  authenticate(req: AuthRequest): Promise<Identity | undefined>;
}
