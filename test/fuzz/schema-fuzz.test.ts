// A schema-walking fuzz test (issue 31 item 6): random valid queries and mutations over the served
// example schema, as three callers (admin, a role with a row filter and a disabled field, a role
// that may not write). Each answer is checked: no 5xx, no INTERNAL_SERVER_ERROR, no database text in
// a message, and no row or field the role may not see. A fixed seed and a bounded count here
// (FUZZ_SEED, FUZZ_RUNS change them: `npm run fuzz` runs longer); a failure prints the document.
import {
  type GraphQLField, type GraphQLInputType, type GraphQLObjectType, type GraphQLSchema, getNamedType, getNullableType, isEnumType,
  isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaService } from '../../src/pipeline/schema.service.js';
import { startApp, type TestApp } from '../support/app.js';
import { DATABASE_TEXT } from './differential/harness.js';
import { random } from './differential/generator.js';

const SEED = Number(process.env.FUZZ_SEED ?? 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const ADMIN = { 'x-svc-secret-key': 'k' };
const CALLERS: Record<string, Record<string, string>> = {
  admin: ADMIN,
  gb_reader: { ...ADMIN, 'x-svc-role': 'gb_reader', 'x-svc-user-id': '7' },
  reader: { ...ADMIN, 'x-svc-role': 'reader', 'x-svc-user-id': '8' },
};

class Generator {
  constructor(private readonly schema: GraphQLSchema, private readonly rnd: () => number) {}

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }

  private chance(p: number): boolean {
    return this.rnd() < p;
  }

  scalar(name: string): string {
    switch (name) {
      case 'Int':
      case 'BigInt':
        return String(this.pick([0, 1, 2, 3, -1, 7, 2147483647]));
      case 'Float':
        return String(this.pick([0, 1.5, -2, 100.25]));
      case 'Boolean':
        return this.pick(['true', 'false']);
      case 'String':
        return JSON.stringify(this.pick(['GB', 'FR', 'a', '', "O'Brien", '%', 'paid', 'Ada Lovelace', '"; DROP TABLE x; --']));
      case 'Date':
        return JSON.stringify(this.pick(['2025-01-01', '1999-12-31']));
      case 'Timestamp':
      case 'DateTime':
        return JSON.stringify(this.pick(['2025-01-01T00:00:00Z', '2025-06-30T12:00:00Z']));
      default:
        return 'null';
    }
  }

  /** A value for an input type, or undefined when none is safe to make (then the argument is left out). */
  input(type: GraphQLInputType, depth: number): string | undefined {
    const t = getNullableType(type) as GraphQLInputType;
    if (isListType(t)) {
      const v = this.input(t.ofType, depth + 1);
      return v === undefined ? undefined : `[${v}${this.chance(0.5) ? `, ${this.input(t.ofType, depth + 1) ?? v}` : ''}]`;
    }
    if (isEnumType(t)) return this.pick(t.getValues()).name;
    if (isScalarType(t)) return ['Int', 'BigInt', 'Float', 'Boolean', 'String', 'Date', 'Timestamp', 'DateTime'].includes(t.name) ? this.scalar(t.name) : undefined;
    if (isInputObjectType(t)) {
      if (depth > 3) return undefined;
      const fields = Object.values(t.getFields());
      const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
      const optional = fields.filter((f) => !required.includes(f) && !f.name.startsWith('_'));
      const chosen = [...required, ...(optional.length ? [this.pick(optional)] : [])];
      const parts: string[] = [];
      for (const f of chosen) {
        const v = this.input(f.type, depth + 1);
        if (v === undefined) {
          if (required.includes(f)) return undefined;
          continue;
        }
        parts.push(`${f.name}: ${v}`);
      }
      return `{${parts.join(', ')}}`;
    }
    return undefined;
  }

  private args(field: GraphQLField<unknown, unknown>): string | undefined {
    const parts: string[] = [];
    for (const a of field.args) {
      const required = isNonNullType(a.type) && a.defaultValue === undefined;
      if (!required && (a.name === 'distinct_on' || a.name === 'order_by' || a.name === 'fields' || !this.chance(0.35))) continue;
      if (a.name === 'limit' || a.name === 'nested_limit') {
        parts.push(`${a.name}: ${this.pick([0, 1, 2, 5])}`);
        continue;
      }
      const v = this.input(a.type, 0);
      if (v === undefined) {
        if (required) return undefined;
        continue;
      }
      parts.push(`${a.name}: ${v}`);
    }
    return parts.length ? `(${parts.join(', ')})` : '';
  }

  /** A selection set for an object type: some scalars, sometimes a relation. */
  selection(type: GraphQLObjectType, depth: number): string {
    const fields = Object.values(type.getFields()).filter((f) => !f.name.startsWith('_') || f.name === '_rows_count');
    const scalars = fields.filter((f) => !isObjectType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)));
    const objects = fields.filter((f) => isObjectType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined));
    const out = new Set<string>();
    for (let i = 0; i < 1 + Math.floor(this.rnd() * 3) && scalars.length; i++) out.add(this.pick(scalars).name);
    if (depth < 2 && objects.length && this.chance(0.4)) {
      const f = this.pick(objects);
      const args = f.args.some((a) => a.name === 'limit') ? `(limit: ${this.pick([1, 2])})` : '';
      out.add(`${f.name}${args} { ${this.selection(getNamedType(f.type) as GraphQLObjectType, depth + 1)} }`);
    }
    if (!out.size) out.add('__typename');
    return [...out].join(' ');
  }

  /** A root field of `root` (Query or Mutation) with arguments and a selection, or undefined. */
  operation(root: GraphQLObjectType, prefix: string): string | undefined {
    const fields = Object.values(root.getFields()).filter((f) => f.name.includes(prefix));
    if (!fields.length) return undefined;
    const f = this.pick(fields);
    const args = this.args(f);
    if (args === undefined) return undefined;
    const type = getNamedType(f.type);
    const selection = isObjectType(type) ? ` { ${this.selection(type, 0)} }` : '';
    return `${f.name}${args}${selection}`;
  }
}

let t: TestApp;
let schema: GraphQLSchema;

beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k' });
  const roles = await t.gql(`mutation { core {
    a: insert_roles(data: {name: "gb_reader", permissions: [
      {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}},
      {type_name: "shop_customers", field_name: "email", disabled: true}]}) { name }
    b: insert_roles(data: {name: "reader", permissions: [{type_name: "Mutation", field_name: "*", disabled: true}]}) { name }
  } }`, undefined, ADMIN);
  expect(roles.body.errors, roles.text).toBeUndefined();
  schema = t.app.get(SchemaService).current.schema;
}, 60_000);

afterAll(() => t?.close());

/** Every object in the answer that is a customer row (has `country` next to `id` or `name`), wherever it is. */
function customerRows(v: unknown, path: string[] = [], out: { path: string; row: Record<string, unknown> }[] = []) {
  if (Array.isArray(v)) v.forEach((x, i) => customerRows(x, [...path, String(i)], out));
  else if (v && typeof v === 'object') {
    const row = v as Record<string, unknown>;
    // A row (not an aggregation, whose `country` is an object of aggregates).
    if (path.some((p) => p.includes('customer')) && (typeof row.country === 'string' || typeof row.email === 'string')) out.push({ path: path.join('.'), row });
    for (const [k, x] of Object.entries(row)) customerRows(x, [...path, k], out);
  }
  return out;
}

describe(`schema fuzz (seed ${SEED}, ${RUNS} operations per caller)`, () => {
  it('answers every random operation without a 5xx, an internal error, database text or data the role may not see', async () => {
    const rnd = random(SEED);
    const gen = new Generator(schema, rnd);
    const failures: string[] = [];
    for (const [caller, headers] of Object.entries(CALLERS)) {
      for (let i = 0; i < RUNS; i++) {
        const mutation = rnd() < 0.25;
        // Mutations of one to three fields (the fields after a failed one must say they were not run).
        const count = mutation ? 1 + Math.floor(rnd() * 3) : 1;
        const fields = Array.from({ length: count }, (_, n) => gen.operation((mutation ? schema.getMutationType() : schema.getQueryType())!, 'shop_'))
          .filter((f): f is string => f !== undefined)
          .map((f, n) => (count > 1 ? `f${n}: ${f}` : f));
        if (!fields.length) continue;
        const doc = `${mutation ? 'mutation' : 'query'} { ${fields.join(' ')} }`;
        const r = await t.gql(doc, undefined, headers);
        const problems: string[] = [];
        if (r.status >= 500) problems.push(`status ${r.status}`);
        for (const e of (r.body?.errors ?? []) as { message: string; extensions?: { code?: string } }[]) {
          if (e.extensions?.code === 'INTERNAL_SERVER_ERROR') problems.push(`internal error: ${e.message}`);
          if (DATABASE_TEXT.test(e.message)) problems.push(`database text: ${e.message}`);
        }
        if (caller === 'gb_reader') {
          for (const { path, row } of customerRows(r.body?.data)) {
            if (typeof row.country === 'string' && row.country !== 'GB') problems.push(`a customer outside GB at ${path}`);
            if (typeof row.email === 'string') problems.push(`a disabled email at ${path}`);
          }
        }
        if (caller === 'reader' && mutation && r.body?.data && Object.values(r.body.data).some((v) => v !== null)) problems.push('a write answered for a role that may not write');
        if (problems.length) failures.push(`${caller}: ${doc}\n  ${problems.join('\n  ')}\n  ${r.text.slice(0, 300)}`);
      }
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  }, 300_000);
});
