import { ErrorCode, PublicError } from '../shared/errors.js';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * A JSON object key as an SQL string literal. Keys are GraphQL response names, which the GraphQL
 * grammar restricts to [_A-Za-z][_0-9A-Za-z]*; anything else is refused rather than quoted.
 */
export function jsonKey(key: string): string {
  if (!NAME.test(key)) throw new PublicError(ErrorCode.Internal, `invalid response key "${key}"`);
  return `'${key}'`;
}
