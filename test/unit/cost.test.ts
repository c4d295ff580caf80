// The cost model of src/pipeline/limits/cost-limit.ts on the benchmark's own queries (issue 15 item 5): every
// `npm run bench` workload fits inside the default limits, with the figures the model gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLocation, getOperationAST, Lexer, parse, Source, TokenKind, visit } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../src/catalog/compile.js';
import { loadConfig } from '../../src/config/load.js';
import { costError, measureRequest, requestGuard, scanDocument } from '../../src/pipeline/limits/cost-limit.js';
import { compileSchema } from '../../src/pipeline/schema.service.js';
// @ts-expect-error: plain JavaScript module of the benchmark
import { CASES, variants } from '../../bench/lib/workloads.mjs';

const BENCH = join(import.meta.dirname, '..', '..', 'bench', 'catalogs');

describe('the benchmark inside the default limits', () => {
  const config = loadConfig({ env: {}, argv: [] });
  const limits = { maxCost: config.MAX_QUERY_COST, maxRootFields: config.MAX_ROOT_FIELDS, maxAliases: config.MAX_ALIASES };
  for (const [engine, folder, prefix] of [['duckdb', 'tpch_duck', 'duck'], ['postgres', 'tpch_pg', 'pg']] as const) {
    const catalog = compileCatalog({ name: folder, type: engine, prefix, asModule: false, readOnly: true }, [
      { file: `${folder}/schema.graphql`, text: readFileSync(join(BENCH, folder, 'schema.graphql'), 'utf8') },
    ]);
    const { schema } = compileSchema([catalog], []);
    for (const name of CASES as string[]) {
      for (const v of variants(engine, name) as { id: string; graphql: string }[]) {
        it(`${engine} ${v.id}`, () => {
          const document = parse(v.graphql);
          const cost = measureRequest(schema, document, getOperationAST(document)!);
          expect(costError(cost, limits)).toBeUndefined();
          expect(cost.cost).toBeGreaterThan(0);
        });
      }
    }
  }
});

describe('the scan that refuses before parsing (issue 15 item 8)', () => {
  const parsed = (q: string) => {
    let aliases = 0;
    visit(parse(q), { Field: (f) => void (f.alias && aliases++) });
    return aliases;
  };
  // Colons that are not aliases: arguments, object values, variable definitions and defaults,
  // directive arguments, strings and block strings, comments; and aliases written unusually.
  const documents = [
    '{ a: shop_tags { id } b : shop_tags { id } shop_tags { id } }',
    'query Q($a: Int = 3, $f: F = {x: {y: 1}}) { x: f(a: $a, b: {c: "d: e", f: [1, {g: h}]}) @include(if: true) { y:z, ...F ... on T { w # not: this\n : v } } }\nfragment F on T { p: q r { s: t } }',
    '{ a(s: """ x: y { z: w } \\""" u: v """) { b: c } }',
    'mutation { i: insert_x(data: {a: 1, b: [{c: 2}]}) { _id: id } }',
    '{ "a: b" }',
  ];
  it.each(documents)('counts the aliases graphql-js finds: %s', (q) => {
    let expected: number;
    try {
      expected = parsed(q);
    } catch {
      expected = 0; // not a document: the scan must not find aliases in a string
    }
    expect(scanDocument(q).aliases).toBe(expected);
  });

  it('measures nesting and aliases of 5,000 root aliases in one pass', () => {
    const q = `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: shop_tags { id }`).join(' ')} }`;
    expect(scanDocument(q)).toMatchObject({ nesting: 2, aliases: 5000 });
  });

  it('stops at the first limit crossed and says where (issue 31): the part read, not the whole text', () => {
    const q = `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: shop_tags { id }`).join(' ')} }`;
    const aliases = scanDocument(q, { nesting: 100, aliases: 500, tokens: 0 });
    expect(aliases.crossed).toEqual({ limit: 'aliases', offset: q.indexOf('a500:') + 4 });
    expect(aliases.aliases).toBe(501);
    const deep = `{ x(f: ${'{a: ['.repeat(5000)}1${']}'.repeat(5000)}) { id } }`;
    const nesting = scanDocument(deep, { nesting: 100, aliases: 500, tokens: 0 });
    expect(nesting.crossed?.limit).toBe('nesting');
    expect(deep.slice(0, nesting.crossed!.offset + 1).split(/[{[(]/).length - 1).toBe(101);
    expect(scanDocument(`{ ${'id '.repeat(60)} }`, { nesting: 100, aliases: 500, tokens: 50 }).crossed).toEqual({ limit: 'tokens', offset: 2 + 3 * 49 });
    expect(scanDocument(q, { nesting: 100, aliases: 5000, tokens: 0 }).crossed).toBeUndefined();
  });
});

describe('token count before parsing (issue 31: MAX_TOKENS refused before a full parse)', () => {
  const lexed = (text: string): number => {
    const lexer = new Lexer(new Source(text));
    let n = 0;
    while (lexer.advance().kind !== TokenKind.EOF) n++;
    return n;
  };
  it.each([
    '{ shop_tags { id name } }',
    'query Q($ids: [Int!] = [1, -2, 3.5e3]) { a: shop_orders(filter: {id: {in: $ids}}, limit: 10) { id ...F @include(if: true) } } fragment F on shop_orders { status }',
    '# a comment { [ (\n{ x(s: "a \\" { string", b: """block "" { """) }',
    '{ f(x: [1,2,3,,,4]) { ... on T { y } } }',
  ])('counts the tokens graphql-js counts: %s', (text) => {
    expect(scanDocument(text).tokens).toBe(lexed(text));
  });

  it('refuses a document over MAX_TOKENS before graphql-js reads it, naming the setting', () => {
    const guard = requestGuard({ MAX_DEPTH: 7, MAX_QUERY_COST: 0, MAX_ROOT_FIELDS: 0, MAX_ALIASES: 0, MAX_TOKENS: 50, MAX_LIST_VALUES: 100, COST_LIMITS_EXEMPT: [] });
    const identity = { role: 'admin', userId: null, userName: 'a', authType: 'anonymous' };
    const error = guard.before?.(`{ shop_tags { ${'id '.repeat(60)} } }`, undefined, identity);
    expect(error?.message).toBe('the query document has more than 50 tokens (MAX_TOKENS)');
    expect(error?.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    // The 51st token: `{`, `shop_tags`, `{` and 47 `id`s before it.
    expect(error?.locations).toEqual([{ line: 1, column: 14 + 3 * 47 + 1 }]);
    expect(guard.before?.(`{ shop_tags { ${'id '.repeat(40)} } }`, undefined, identity)).toBeUndefined();
  });

  it('locates the token that crossed the limit on its line, with line breaks (\\n, \\r\\n, \\r) before and after it', () => {
    const guard = requestGuard({ MAX_DEPTH: 7, MAX_QUERY_COST: 0, MAX_ROOT_FIELDS: 0, MAX_ALIASES: 0, MAX_TOKENS: 10, MAX_LIST_VALUES: 100, COST_LIMITS_EXEMPT: [] });
    const identity = { role: 'admin', userId: null, userName: 'a', authType: 'anonymous' };
    // `{ shop_tags {` on line 1, `id` 2, `a` 3, `b` 4 (after a lone \r), `x y c d` 5 (after \r\n, one break): the 11th token is `e`.
    const text = '{ shop_tags {\n  id\r\n  a\rb\r\n  x y c d\n e\n f } }\n';
    const error = guard.before?.(text, undefined, identity);
    expect(error?.locations).toEqual([{ line: 6, column: 2 }]);
    // What graphql-js says of the whole text.
    expect(error?.locations).toEqual([getLocation(new Source(text), text.indexOf('e\n'))]);
  });

  it('refuses a list in the variables longer than MAX_LIST_VALUES before graphql-js coerces it', () => {
    const guard = requestGuard({ MAX_DEPTH: 7, MAX_QUERY_COST: 0, MAX_ROOT_FIELDS: 0, MAX_ALIASES: 0, MAX_TOKENS: 0, MAX_LIST_VALUES: 100, COST_LIMITS_EXEMPT: [] });
    const identity = { role: 'admin', userId: null, userName: 'a', authType: 'anonymous' };
    const q = 'query($ids: [Int!]) { shop_orders(filter: {id: {in: $ids}}) { id } }';
    const error = guard.before?.(q, { f: { ids: Array.from({ length: 101 }, (_, i) => i) } }, identity);
    expect(error?.message).toBe('the request variables hold a list of 101 values, more than the limit of 100 (MAX_LIST_VALUES); split the request');
    expect(error?.extensions.code).toBe('BAD_USER_INPUT');
    expect(guard.before?.(q, { ids: Array.from({ length: 100 }, (_, i) => i) }, identity)).toBeUndefined();
  });
});
