// The answer text written straight from rows (src/pipeline/fast-path/write.ts): the same bytes as
// the objects completed and stringified, or no text at all where a value is not its own completion
// (the objects are completed then, as before). test/pg/rows.test.ts and test/mysql/rows.test.ts
// compare whole responses against the JSON path; these check the writer's own decisions.
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, type GraphQLLeafType, GraphQLScalarType, GraphQLString } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ResponseBudget } from '../../src/executor/response-budget.js';
import { completesToItself } from '../../src/pipeline/fast-path/complete.js';
import type { Out } from '../../src/pipeline/fast-path/shape.js';
import { rowsWriter, writerSource } from '../../src/pipeline/fast-path/write.js';
import { stringifyJson } from '../../src/shared/json.js';
import { assembler } from '../../src/sql/rows/assemble.js';
import { RowsAnswer } from '../../src/sql/rows/answer.js';
import type { RowsLayout } from '../../src/sql/rows/layout.js';

const BigIntType = new GraphQLScalarType({ name: 'BigInt' });
const leaf = (type: GraphQLLeafType): Out => ({ kind: 'leaf', type });
const nn = (of: Out): Out => ({ kind: 'non_null', of });
const list = (of: Out): Out => ({ kind: 'list', of });
const obj = (fields: Record<string, Out>): Out => ({
  kind: 'object', keys: Object.keys(fields), fields: Object.entries(fields).map(([key, out]) => ({ key, name: key, out })),
});

// { id: Int!, name: String, big: BigInt, owner { ok: Boolean }, items: [{ n: Float, __proto__: String }] }
const LAYOUT: RowsLayout = {
  many: true,
  fields: [
    { key: 'id', value: { kind: 'column', index: 0 } },
    { key: 'name', value: { kind: 'column', index: 1 } },
    { key: 'big', value: { kind: 'column', index: 2 } },
    { key: 'owner', value: { kind: 'object', present: 3, bit: 1, fields: [{ key: 'ok', value: { kind: 'column', index: 4 } }] } },
    { key: 'items', value: { kind: 'children', index: 5, rows: { fields: [{ kind: 'value', key: 'n' }, { kind: 'value', key: '__proto__' }] } } },
  ],
};
const ITEM = obj({ n: leaf(GraphQLFloat), ['__proto__']: leaf(GraphQLString) });
const OUT = nn(list(nn(obj({
  id: nn(leaf(GraphQLInt)), name: leaf(GraphQLString), big: leaf(BigIntType), owner: obj({ ok: leaf(GraphQLBoolean) }), items: list(nn(ITEM)),
}))));
const asm = assembler(LAYOUT)!;

const ROWS: unknown[][] = [
  [1, 'quote " back \\ nl \n ctl \u0001 sep \u2028 emoji \u{1F600}', 9007199254740993n, 1, true, '[[1.5, "a"], [-0, ""]]'],
  [2, null, -12345678901234567890n, null, null, '[]'],
  [3, '', 0, 1, null, null],
];

/** What the fast path wrote before: the objects, checked, then stringified. */
function before(rows: unknown[][], out: Out): string | undefined {
  const v = asm(rows);
  try {
    return completesToItself(out, v) ? stringifyJson(v) : undefined;
  } catch {
    return undefined; // graphql-js reports the error
  }
}

describe('the rows writer', () => {
  it('writes the bytes the completed objects stringify to, and counts their objects', () => {
    const w = rowsWriter(asm, OUT)!;
    const text = w.write(ROWS, Infinity);
    expect(text).toBe(before(ROWS, OUT));
    // 3 rows, 2 owners present, 2 items.
    expect(w.objects()).toBe(7);
  });

  it('writes every UTF-16 code unit in a string as JSON.stringify does (escapes, lone surrogates)', () => {
    const w = rowsWriter(asm, OUT)!;
    const rows = Array.from({ length: 0x10000 }, (_, c) => [c, `a${String.fromCharCode(c)}b`, 1, null, null, null]);
    rows.push([0, 'pair \u{1F600} \ud83d\ude00 end', 1, null, null, null]);
    expect(w.write(rows, Infinity)).toBe(before(rows, OUT));
  });

  it('writes a non-null String between literal quotes with the same bytes (escapes, surrogates), and no text for a null or a number', () => {
    const strict = nn(list(nn(obj({
      id: nn(leaf(GraphQLInt)), name: nn(leaf(GraphQLString)), big: leaf(BigIntType), owner: obj({ ok: leaf(GraphQLBoolean) }), items: list(nn(ITEM)),
    }))));
    const w = rowsWriter(asm, strict)!;
    // The quotes are literal text of the generated writer, the string goes in as it is.
    expect(writerSource(asm, strict)).toContain('\\"name\\":\\""');
    const rows = Array.from({ length: 0x10000 }, (_, c) => [c, `a${String.fromCharCode(c)}b`, 1, null, null, null]);
    rows.push([0, 'pair \u{1F600} \ud83d\ude00 end', 1, null, null, null], [1, '', 1, null, null, null]);
    expect(w.write(rows, Infinity)).toBe(before(rows, strict));
    expect(w.write([[1, null, 1, null, null, null]], Infinity)).toBeUndefined();
    expect(w.write([[1, 5, 1, null, null, null]], Infinity)).toBeUndefined();
  });

  it('writes no text where a value is not its own completion (completed from the objects instead)', () => {
    const w = rowsWriter(asm, OUT)!;
    for (const bad of [
      [null, 'x', 1, null, null, null], // null in Int!
      [2 ** 31, 'x', 1, null, null, null], // beyond GraphQL's Int
      [1, 5, 1, null, null, null], // a number where String serializes to text
      [1, 'x', 1, null, null, '[["NaN", "a"]]'], // Float cannot represent NaN (PostgreSQL quotes it)
      [1, 'x', 1, 1, 'yes', null], // Boolean over a string
    ]) {
      expect(w.write([bad], Infinity), JSON.stringify(bad, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toBeUndefined();
      expect(before([bad], OUT)).toBeUndefined();
    }
  });

  it('reads 1:N text without the big-integer scan, and stops at a number the scan would have kept exact', () => {
    const w = rowsWriter(asm, OUT)!;
    // Read by JSON.parse, as no column of the level can hold an object: the same text.
    const plain = [[1, 'x', 1, null, null, '[[12345678901234.5, "a"], [-9007199254740991, "b"]]']];
    expect(w.write(plain, Infinity)).toBe(before(plain, OUT));
    expect(w.write(plain, Infinity)).toContain('-9007199254740991');
    for (const big of ['[[9007199254740993, "big"]]', '[[1e300, "x"]]']) {
      const rows = [[1, 'x', 1, null, null, big]];
      // Beyond 2^53: the writer stops; the objects, read with the scan, hold the exact value.
      expect(w.write(rows, Infinity)).toBeUndefined();
    }
    expect((asm([[1, 'x', 1, null, null, '[[9007199254740993, "big"]]']]) as { items: { n: unknown }[] }[])[0]!.items[0]!.n).toBe(9007199254740993n);
    expect(before([[1, 'x', 1, null, null, '[[1e300, "x"]]']], OUT)).toContain('"n":1e+300');
  });

  it('reads each to-one relation from its own bit of a shared presence column', () => {
    // { id, a { x }, b { y { z } } }: three relations, bits 1, 2 and 4 of column 1.
    const layout: RowsLayout = {
      many: true,
      fields: [
        { key: 'id', value: { kind: 'column', index: 0 } },
        { key: 'a', value: { kind: 'object', present: 1, bit: 1, fields: [{ key: 'x', value: { kind: 'column', index: 2 } }] } },
        { key: 'b', value: { kind: 'object', present: 1, bit: 2, fields: [{ key: 'y', value: { kind: 'object', present: 1, bit: 4, fields: [{ key: 'z', value: { kind: 'column', index: 3 } }] } }] } },
      ],
    };
    const out = nn(list(nn(obj({ id: nn(leaf(GraphQLInt)), a: obj({ x: leaf(GraphQLInt) }), b: obj({ y: obj({ z: leaf(GraphQLInt) }) }) }))));
    const rows = [[1, null, null, null], [2, 1, 5, null], [3, 2, null, null], [4, 6, null, 7], [5, 7, 8, null]];
    const objects = [
      { id: 1, a: null, b: null },
      { id: 2, a: { x: 5 }, b: null },
      { id: 3, a: null, b: { y: null } },
      { id: 4, a: null, b: { y: { z: 7 } } },
      { id: 5, a: { x: 8 }, b: { y: { z: null } } },
    ];
    const a = assembler(layout)!;
    expect(a(rows)).toEqual(objects);
    expect(rowsWriter(a, out)!.write(rows, Infinity)).toBe(JSON.stringify(objects));
  });

  it('has no writer for a shape its layout does not hold (another key order, an object read as a leaf)', () => {
    const swapped = nn(list(nn(obj({ name: leaf(GraphQLString), id: nn(leaf(GraphQLInt)), big: leaf(BigIntType), owner: obj({ ok: leaf(GraphQLBoolean) }), items: list(nn(ITEM)) }))));
    expect(rowsWriter(asm, swapped)).toBeUndefined();
    const leafOwner = nn(list(nn(obj({ id: nn(leaf(GraphQLInt)), name: leaf(GraphQLString), big: leaf(BigIntType), owner: leaf(GraphQLString), items: list(nn(ITEM)) }))));
    expect(rowsWriter(asm, leafOwner)).toBeUndefined();
  });

  it('counts a written answer into the budget, and refuses one over it at the field', () => {
    const budget = new ResponseBudget({ rows: 0, bytes: 100 });
    const rows = Array.from({ length: 1000 }, (_, i) => [i, 'name', 1, null, null, null]);
    const answer = new RowsAnswer(rows, asm).countedBy(budget);
    expect(() => answer.writeWith(rowsWriter(asm, OUT)!)).toThrow(/larger than 100 bytes/);
    const small = new ResponseBudget({ rows: 2, bytes: 0 });
    // Three rows and two owners: five objects over a limit of two.
    expect(() => new RowsAnswer(ROWS, asm).countedBy(small).writeWith(rowsWriter(asm, OUT)!)).toThrow(/more than 2 rows/);
    const roomy = new ResponseBudget({ rows: 100, bytes: 10_000 });
    // A copy: the answer empties its rows once built (RowsAnswer.release).
    const ok = new RowsAnswer(ROWS.map((r) => [...r]), asm).countedBy(roomy);
    expect(ok.writeWith(rowsWriter(asm, OUT)!)).toBe(before(ROWS, OUT));
    // Counted once: asking for the objects afterwards (graphql-js completing) does not count them again.
    ok.parse();
    expect(roomy.bytesLeft).toBe(10_000 - before(ROWS, OUT)!.length);
  });

  it("lets go of the driver's rows once the answer is built or written (RowsAnswer.release)", () => {
    // Built: the objects are kept, the driver's array is emptied (it outlives the request).
    const rows = ROWS.map((r) => [...r]);
    const built = new RowsAnswer(rows, asm);
    const objects = built.parse();
    expect(objects).toEqual(asm(ROWS));
    expect(rows).toHaveLength(0);
    expect(built.parse()).toBe(objects);
    // Written: the fast path releases the rows once the whole answer is text; the objects cannot be built after.
    const written = ROWS.map((r) => [...r]);
    const answer = new RowsAnswer(written, asm);
    expect(answer.writeWith(rowsWriter(asm, OUT)!)).toBe(before(ROWS, OUT));
    expect(written).toHaveLength(3);
    answer.release();
    expect(written).toHaveLength(0);
    expect(() => answer.parse()).toThrow(/read after it was released/);
  });
});
