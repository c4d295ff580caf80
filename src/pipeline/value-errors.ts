// A stored value GraphQL cannot represent (a NaN or an infinity under Float, a 2-D array or an
// integer past 32 bits under Int, ...) is a data problem, not a fault of the server: graphql-js's
// scalar refuses it while completing the field, and Apollo would code that INTERNAL_SERVER_ERROR.
// It is answered as VALUE_NOT_REPRESENTABLE at the field's path, naming the path, the type and the
// kind of value, never the value itself (it is the database's). The field is null (propagated as
// GraphQL says where it is non-null); the rest of the answer is served. Every path (the fast path's
// completion, graphql-js, /ipc, subscriptions) formats its errors through formatError, which asks here.
import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../shared/errors.js';

/** graphql-js's own serialize refusals of its built-in scalars (graphql/type/scalars.js). */
const REFUSAL = /^(Int|Float|String|Boolean|ID) cannot represent (non-integer |non 32-bit signed integer |non numeric |a non boolean )?value: ([\s\S]*)$/;

/** The kind of value in words, from graphql-js's `inspect` of it. */
function kindOf(kind: string | undefined, shown: string): string {
  const v = shown.replace(/^"(.*)"$/, '$1');
  if (v === 'NaN') return 'NaN';
  if (v === 'Infinity' || v === '-Infinity') return v;
  if (shown.startsWith('[')) return 'a list';
  if (shown.startsWith('{')) return 'an object';
  if (kind === 'non 32-bit signed integer ') return 'an integer outside the 32-bit range';
  if (shown.startsWith('"')) return 'a string';
  if (shown === 'true' || shown === 'false') return 'a boolean';
  // An exact integer (a BigInt, read without rounding) where the type wants a double or 32 bits.
  if (/^-?\d+$/.test(shown) && !Number.isSafeInteger(Number(shown))) return 'an integer beyond 2^53';
  if (/^-?\d/.test(shown)) return Number.isInteger(Number(shown)) ? 'a number' : 'a fractional number';
  return 'a value of another kind';
}

/** The error of a value the field's scalar refused, or undefined when `formatted` is another error. */
export function valueNotRepresentable(formatted: GraphQLFormattedError): GraphQLFormattedError | undefined {
  if (formatted.extensions?.code !== ErrorCode.Internal || !formatted.path) return undefined;
  const m = REFUSAL.exec(formatted.message);
  if (!m) return undefined;
  const path = formatted.path.join('.');
  return {
    ...formatted,
    message: `the value at ${path} is ${kindOf(m[2], m[3]!)}, which the GraphQL type ${m[1]} cannot represent`,
    extensions: { code: ErrorCode.ValueNotRepresentable },
  };
}
