// What a jq evaluation knows about its request: who asks (authInfo, querySvc permissions), the time
// zone (localTime and the defaults of the time functions) and how to run a GraphQL query as the
// caller (querySvc).
import type { Identity } from '../auth/identity.js';
import type { QueryRunner } from '../pipeline/in-process.js';

export type { QueryRunner };

export interface JqContext {
  /** The caller; null where there is none (authInfo then yields null). */
  readonly identity: Identity | null;
  /** IANA zone of the request (decided by src/pipeline/context.factory.ts). */
  readonly timezone: string;
  /** Runs querySvc queries; without it querySvc fails with a clear message. */
  readonly querySvc?: QueryRunner;
  /** A fixed "now" (tests); otherwise the clock at the start of the evaluation. */
  readonly now?: Date;
}

/** `authInfo` of SPEC §8. */
export function authInfo(identity: Identity | null): { userId: string | null; userName: string; role: string } | null {
  return identity ? { userId: identity.userId, userName: identity.userName, role: identity.role } : null;
}
