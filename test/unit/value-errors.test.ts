// A stored value GraphQL cannot represent is VALUE_NOT_REPRESENTABLE (src/pipeline/value-errors.ts):
// graphql-js's own refusals, worded by graphql-js itself here, become a message naming the path, the
// type and the kind of value, never the value; every other error is left to formatError as before.
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString, type GraphQLScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { valueNotRepresentable } from '../../src/pipeline/value-errors.js';

/** graphql-js's message when `type` refuses `value`, as Apollo formats it (INTERNAL_SERVER_ERROR). */
function refused(type: GraphQLScalarType, value: unknown, path: (string | number)[] = ['t', 0, 'f']) {
  try {
    type.serialize(value);
  } catch (e) {
    return { message: (e as Error).message, path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  throw new Error(`${type.name} took ${String(value)}`);
}

describe('values GraphQL cannot represent', () => {
  it.each([
    [GraphQLFloat, 'NaN', 'NaN'],
    [GraphQLFloat, NaN, 'NaN'],
    [GraphQLFloat, 'Infinity', 'Infinity'],
    [GraphQLFloat, -Infinity, '-Infinity'],
    [GraphQLFloat, 'abc', 'a string'],
    [GraphQLInt, [1, 2], 'a list'],
    [GraphQLInt, 4294967295, 'an integer outside the 32-bit range'],
    [GraphQLInt, 1.5, 'a fractional number'],
    [GraphQLFloat, 123456789012345678901234567890n, 'an integer beyond 2^53'],
    [GraphQLString, { a: 1 }, 'an object'],
    [GraphQLBoolean, 'yes', 'a string'],
    [GraphQLID, [1], 'a list'],
  ] as const)('%s refusing %s: %s', (type, value, kind) => {
    const out = valueNotRepresentable(refused(type, value));
    expect(out).toEqual({ message: `the value at t.0.f is ${kind}, which the GraphQL type ${type.name} cannot represent`, path: ['t', 0, 'f'], extensions: { code: 'VALUE_NOT_REPRESENTABLE' } });
    // Never the database's text: the value itself is not in the message.
    if (typeof value === 'string' && kind === 'a string') expect(out!.message).not.toContain(value);
  });

  it('leaves other errors alone: coded ones, input coercion, errors without a path', () => {
    const nan = refused(GraphQLFloat, NaN);
    expect(valueNotRepresentable({ ...nan, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })).toBeUndefined();
    expect(valueNotRepresentable({ message: nan.message, extensions: nan.extensions })).toBeUndefined();
    expect(valueNotRepresentable({ ...nan, message: `Variable "$x" got invalid value NaN; ${nan.message}` })).toBeUndefined();
    expect(valueNotRepresentable({ message: 'internal server error', path: ['a'], extensions: { code: 'INTERNAL_SERVER_ERROR' } })).toBeUndefined();
  });
});
