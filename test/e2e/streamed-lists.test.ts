// Large root lists of /query are written row by row (issue 30, STREAM_LIST_ROWS): the answer text is
// the same, byte for byte, as when the list is read whole, on DuckDB (rows as the database wrote
// them) and PostgreSQL (rows written from their values); the first request (Apollo with the fast
// path) and the next (prepared) alike; lists under the limit, and reads the fast path does not
// answer, are read whole as before.
import type { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';
import { streamedBody } from '../../src/pipeline/streamed.js';
import { ErrorCode, PublicError } from '../../src/shared/errors.js';
import { StreamedList } from '../../src/shared/json.js';

let streamed: Dialects;
let whole: Dialects;
beforeAll(async () => {
  // Any root list asked for more than 2 rows is streamed here.
  streamed = await startDialects({ STREAM_LIST_ROWS: '2' });
  whole = await startDialects({ STREAM_LIST_ROWS: '0' });
}, 180_000);
afterAll(async () => {
  await streamed?.close();
  await whole?.close();
});

const CASES: [string, string, Record<string, unknown>?][] = [
  ['a list with relations', '{ shop_orders(order_by: [{field: "id"}], limit: 50) { id note status ordered_at customer { name email } items(nested_order_by: [{field: "line"}]) { line quantity } } }'],
  ['two lists, a key lookup and __typename, with variables', `query Q($n: Int!) {
    __typename
    a: shop_orders(order_by: [{field: "id", direction: DESC}], limit: $n) { __typename id note }
    b: shop_customers(order_by: [{field: "id"}], limit: 100) { id name orders(nested_order_by: [{field: "id"}]) { id } }
    one: shop_orders_by_pk(id: 2) { id status }
  }`, { n: 3 }],
  ['an empty list', '{ shop_orders(filter: {id: {eq: -1}}, limit: 10) { id } }'],
  ['an unordered list with an offset (DuckDB: cut by the reader)', '{ shop_orders(limit: 4, offset: 3) { id note status } }'],
  ['an unordered list past its last row', '{ shop_orders(filter: {id: {gt: 1}}, limit: 50, offset: 2) { id } }'],
  ['an ordered list with an offset, by a column with ties', '{ shop_orders(order_by: [{field: "status"}, {field: "id", direction: DESC}], limit: 4, offset: 1) { id status } }'],
  ['a list under the limit (read whole)', '{ shop_orders(order_by: [{field: "id"}], limit: 2) { id } }'],
  ['a list with a directive (read whole)', '{ shop_orders(order_by: [{field: "id"}], limit: 10) @cache(ttl: 60) { id } }'],
];

describe.each(['duckdb', 'postgres'] as const)('%s', (name) => {
  const on = () => streamed.all.find((d) => d.name === name)!;
  const off = () => whole.all.find((d) => d.name === name)!;

  it.each(CASES)('%s: the same answer text, first and prepared', async (_label, query, variables) => {
    for (const round of [1, 2]) {
      const a = await on().app.gql(query, variables);
      const b = await off().app.gql(query, variables);
      expect(a.status).toBe(200);
      expect(a.body?.errors).toBeUndefined();
      expect(a.text, `round ${round}`).toBe(b.text);
      expect(a.text).not.toContain('\u0000');
      expect(b.headers['content-length']).toBeDefined();
    }
  });

  it('writes a streamed answer without a length (it is not held whole)', async () => {
    const a = await on().app.gql('{ shop_orders(order_by: [{field: "id"}], limit: 50) { id } }');
    const b = await on().app.gql('{ shop_orders(order_by: [{field: "id"}], limit: 2) { id } }');
    expect(a.headers['content-length']).toBeUndefined();
    expect(b.headers['content-length']).toBeDefined();
    expect(a.body.data.shop_orders.length).toBeGreaterThan(2);
  });
});

describe('streamedBody', () => {
  async function* rows(batches: unknown[][], fail?: Error): AsyncGenerator<readonly unknown[]> {
    for (const b of batches) yield b;
    if (fail) throw fail;
  }
  // No list here has a row to complete: the error formatter is never asked.
  const asIs = (e: GraphQLError) => e.toJSON();
  const read = async (gen: AsyncGenerator<string>) => {
    let out = '';
    for await (const s of gen) out += s;
    return out;
  };

  it('puts each list in place of its marker, text rows as they are and values as JSON', async () => {
    const lists = [new StreamedList(0, () => rows([['{"a":1.50}', '{"a":2}'], [], ['{"a":3}']])), new StreamedList(1, () => rows([[{ b: 10n ** 20n }, { b: null }]]))];
    const text = `{"data":{"x":${lists[0]!.text},"y":{"z":1},"w":${lists[1]!.text}},"extensions":{}}`;
    expect(await read(streamedBody(text, lists, asIs))).toBe('{"data":{"x":[{"a":1.50},{"a":2},{"a":3}],"y":{"z":1},"w":[{"b":100000000000000000000},{"b":null}]},"extensions":{}}');
  });

  it('writes a large batch in pieces small enough for V8 to free young (no 250 KB string per batch)', async () => {
    const batch = Array.from({ length: 2048 }, (_, i) => `{"id":${i},"note":"${'x'.repeat(100)}"}`);
    const list = new StreamedList(0, () => rows([batch, batch.slice(0, 3)]));
    const pieces: string[] = [];
    for await (const s of streamedBody(`{"data":{"x":${list.text}}}`, [list], asIs)) pieces.push(s);
    expect(pieces.join('')).toBe(`{"data":{"x":[${[...batch, ...batch.slice(0, 3)].join(',')}]}}`);
    expect(pieces.length).toBeGreaterThan(4);
    // V8's largest young object is 128 KB: a piece above it goes where only a full collection frees it.
    for (const p of pieces) expect(p.length).toBeLessThan(64 * 1024);
  });

  it('ends a list cut by the response limits with a whole document and the error at its path', async () => {
    const tooLarge = new PublicError(ErrorCode.ResponseTooLarge, 'too large');
    const lists = [new StreamedList(0, () => rows([['{"a":1}']], tooLarge), ['x']), new StreamedList(1, () => rows([], tooLarge), ['w'])];
    const out = await read(streamedBody(`{"data":{"x":${lists[0]!.text},"w":${lists[1]!.text}},"extensions":{}}`, lists, asIs));
    expect(JSON.parse(out)).toEqual({
      data: { x: [{ a: 1 }], w: [] },
      extensions: {},
      errors: [{ message: 'too large', path: ['x'], extensions: { code: 'RESPONSE_TOO_LARGE' } }, { message: 'too large', path: ['w'], extensions: { code: 'RESPONSE_TOO_LARGE' } }],
    });
  });

  it('ends with the error when the rows fail half-way (the JSON is never completed)', async () => {
    const list = new StreamedList(0, () => rows([['{"a":1}']], new Error('cursor broke')));
    let out = '';
    await expect((async () => {
      for await (const s of streamedBody(`{"data":{"x":${list.text}}}`, [list], asIs)) out += s;
    })()).rejects.toThrow('cursor broke');
    expect(out).toBe('{"data":{"x":[{"a":1}');
  });
});
