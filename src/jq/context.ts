// What a jq evaluation knows about its request: who asks (authInfo, querySvc permissions), the time
// zone (localTime and the defaults of the time functions) and how to run a GraphQL query as the
// caller (querySvc).
import type { ExecutionResult, GraphQLFormattedError } from 'graphql';
import type { Identity } from '../auth/identity.js';

/** Runs a GraphQL request as the caller; resolves to the complete response `{data, extensions, errors?}`. */
export type QueryRunner = (query: string, variables: Record<string, unknown>) => Promise<unknown>;

export interface JqContext {
  /** The caller; null where there is none (authInfo then yields null). */
  readonly identity: Identity | null;
  /** IANA zone of the request (see requestTimezone in src/jq/timezone.ts). */
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

/** The response shape of /query (SPEC §1) for an in-process execution result. */
export function responseBody(
  result: ExecutionResult,
  format: (e: NonNullable<ExecutionResult['errors']>[number]) => GraphQLFormattedError = (e) => e.toJSON(),
): { data: unknown; extensions: Record<string, unknown>; errors?: GraphQLFormattedError[] } {
  return {
    data: result.data ?? null,
    extensions: (result.extensions as Record<string, unknown> | undefined) ?? {},
    ...(result.errors?.length ? { errors: result.errors.map(format) } : {}),
  };
}
