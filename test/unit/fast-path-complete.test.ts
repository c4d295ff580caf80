// The fast path completes a root field's answer as graphql-js does (src/pipeline/fast-path/): the
// same value where graphql-js answers without errors, Incomplete where it reports one. Each case
// runs graphql-js itself on the same value and compares.
import { buildSchema, execute, type GraphQLField, isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { complete, completesToItself, Incomplete } from '../../src/pipeline/fast-path/complete.js';
import { markPlain, markReadRoot } from '../../src/pipeline/fast-path/marks.js';
import { operationShape, type RootShape } from '../../src/pipeline/fast-path/shape.js';
import { type AccessScope, accessOf, UNRESTRICTED } from '../../src/permissions/access.js';
import { byResponseKey } from '../../src/schema/by-response-key.js';

/** A scope with no rules: what the fast path reads of it is empty here. */
const EMPTY_SCOPE: AccessScope = { owners: new Map(), systemObjects: new Set(), systemFields: new Set(), openFields: new Set(), roots: new Map(), secrets: new Map(), calls: new Map() };

const schema = buildSchema(`
  scalar JSON
  enum Mode { AIR RAIL }
  type Region { r_name: String! }
  type Customer { c_name: String!, region: Region, tags: [String!], extra: JSON, mode: Mode }
  type Order { id: Int!, total: Float, note: String, customer: Customer, items: [Item!] }
  type Item { line: Int!, qty: Float! }
  type Query { orders: [Order!]! }
`);
for (const type of Object.values(schema.getTypeMap())) {
  if (!isObjectType(type) || type.name.startsWith('__')) continue;
  for (const f of Object.values(type.getFields())) (type.name === 'Query' ? markReadRoot : markPlain)(f as GraphQLField<unknown, unknown>);
}

const QUERY = `query Q($skip: Boolean = false) {
  __typename
  orders {
    __typename id amount: total note @skip(if: $skip)
    customer { c_name region { r_name } tags extra mode ... on Customer { who: c_name } }
    items { line qty }
  }
}`;

function shapeOf(query: string, variables: Record<string, unknown> = { skip: false }) {
  const doc = parse(query);
  const shape = operationShape(schema, doc.definitions[0] as never, {}, variables, accessOf(UNRESTRICTED, EMPTY_SCOPE));
  return shape!.find((r): r is RootShape => 'field' in r)!;
}

/** What graphql-js answers for the root field when its resolver returns `value`. */
function graphqlJs(value: unknown, query = QUERY, variables: Record<string, unknown> = {}) {
  const r = execute({ schema, document: parse(query), rootValue: { orders: value }, variableValues: variables, fieldResolver: byResponseKey }) as { data?: { orders?: unknown } | null; errors?: unknown[] };
  return { value: r.data?.orders ?? null, errors: r.errors?.length ?? 0 };
}

const order = (over: Record<string, unknown> = {}) => ({
  __typename: 'Order', id: 1, amount: 10.5, note: null,
  customer: { c_name: 'Ada', region: { r_name: 'EU' }, tags: ['a'], extra: { any: [1, 'x'] }, mode: 'AIR', who: 'Ada' },
  items: [{ line: 1, qty: 2 }], ...over,
});

describe('fast path completion', () => {
  it('answers exactly what graphql-js answers, and sees when the database JSON is that answer already', () => {
    const root = shapeOf(QUERY);
    const value = [order(), order({ id: 2, customer: null, items: null })];
    expect(completesToItself(root.out, value)).toBe(true);
    expect(complete(root.out, value)).toEqual(graphqlJs(value).value);
  });

  it('completes values graphql-js changes: keys read by field name, other key order, serialized leaves', () => {
    const root = shapeOf(QUERY);
    const cases = [
      [{ ...order(), amount: undefined, total: 3 }], // read by name, as byResponseKey does
      [{ id: 1, __typename: 'Order', amount: 1, note: 'n', customer: null, items: [] }], // another key order
      [order({ id: '7', amount: '2.5', items: [{ line: 1, qty: true }] })], // Int and Float coerce
      [order({ note: 5 })], // String serializes a number as text
      [{ ...order(), extra_key: 1 }],
    ];
    for (const value of cases) {
      const expected = graphqlJs(value);
      expect(expected.errors).toBe(0);
      expect(completesToItself(root.out, value)).toBe(false);
      expect(complete(root.out, value)).toEqual(expected.value);
    }
  });

  it('gives up exactly where graphql-js reports an error', () => {
    const root = shapeOf(QUERY);
    const cases = [
      [order({ id: null })], // null in a non-null field
      [order({ items: [null] })], // null item of [Item!]
      [null], // null item of [Order!]!
      [order({ id: 1.5 })], // Int cannot represent 1.5
      [order({ customer: { ...order().customer, mode: 'SEA' } })], // not an enum value
      [order({ items: 'x' })], // not a list
    ];
    for (const value of cases) {
      expect(graphqlJs(value).errors).toBeGreaterThan(0);
      expect(() => completesToItself(root.out, value)).toThrow();
      expect(() => complete(root.out, value)).toThrow();
    }
    expect(() => complete(root.out, null)).toThrow(Incomplete);
  });

  it('follows @skip with the request variables', () => {
    const root = shapeOf(QUERY, { skip: true });
    const value = [{ ...order(), note: undefined }];
    delete (value[0] as Record<string, unknown>).note;
    expect(completesToItself(root.out, value)).toBe(true);
    expect(complete(root.out, value)).toEqual(graphqlJs(value, QUERY, { skip: true }).value);
  });
});
