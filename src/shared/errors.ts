// Errors carry a public code and a visibility (DESIGN.md §3.6). Internal faults are logged with
// detail and shown to clients as a generic message.
import { GraphQLError } from 'graphql';

export enum ErrorCode {
  BadRequest = 'BAD_REQUEST',
  GraphQLParseFailed = 'GRAPHQL_PARSE_FAILED',
  ValidationFailed = 'GRAPHQL_VALIDATION_FAILED',
  BadUserInput = 'BAD_USER_INPUT',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  /** A caller over MAX_REQUESTS_PER_CALLER (429, retryable). */
  TooManyRequests = 'TOO_MANY_REQUESTS',
  /** An answer over MAX_RESPONSE_ROWS / MAX_RESPONSE_BYTES. */
  ResponseTooLarge = 'RESPONSE_TOO_LARGE',
  Unauthenticated = 'UNAUTHENTICATED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  CatalogInvalid = 'CATALOG_INVALID',
  ConfigInvalid = 'CONFIG_INVALID',
  SourceUnavailable = 'SOURCE_UNAVAILABLE',
  QueryFailed = 'QUERY_FAILED',
  QueryTimeout = 'QUERY_TIMEOUT',
  MaxDepth = 'MAX_DEPTH_EXCEEDED',
  ReadOnly = 'READ_ONLY',
  /** A typed client's selection the served schema does not have (the calling code's fault; logged). */
  InvalidSelection = 'INVALID_SELECTION',
  /** A stored value the field's GraphQL type cannot carry (NaN, an infinity, a 2-D array under [Int]). */
  ValueNotRepresentable = 'VALUE_NOT_REPRESENTABLE',
  Internal = 'INTERNAL_SERVER_ERROR',
}

/**
 * Faults of the server or of a team's code rather than of the request: logged with the request's
 * id, and the client's error carries that id.
 */
export const isLoggedCode = (code: string): boolean => code === ErrorCode.Internal || code === ErrorCode.InvalidSelection;

/** An error whose message may be shown to the client as it is. */
export class PublicError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status = 200,
  ) {
    super(message);
    this.name = 'PublicError';
  }

  toGraphQL(): GraphQLError {
    return new GraphQLError(this.message, { extensions: { code: this.code } });
  }
}

/** Thrown by exhaustive switches over IR node kinds. */
export class UnreachableCaseError extends Error {
  constructor(value: never) {
    super(`unreachable case: ${JSON.stringify(value)}`);
  }
}
