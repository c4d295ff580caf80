// The reader of a 1:N level's typed arrays (src/sql/pg/row-values.ts): numbers read in place equal
// Number() of their text, bit for bit; anything else as the element reader says. test/pg/rows.test.ts
// checks the same against PostgreSQL's own array text and the JSON path.
import { describe, expect, it } from 'vitest';
import { parseDbJson } from '../../src/shared/json.js';
import { ROW_VALUE_TYPES, arrayReader } from '../../src/sql/pg/row-values.js';

const NUMERIC = 1231;
const INT4 = 1007;
const INT8 = 1016;
const TEXT = 1009;

/** A seeded generator (mulberry32): the same numbers on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('typed array reader', () => {
  it('reads decimals of up to 15 digits as Number() does, and longer ones from their text', () => {
    const next = random(30);
    const texts: string[] = ['0', '-0', '0.000', '-0.000', '1.5', '16.00', '25377.75', '999999999999999', '-999999999999999', '0.000000000012345', '9007199254740993', '1234567890123456.5', '1e+20', '3.4e+38', 'NaN', 'Infinity', '-Infinity'];
    for (let k = 0; k < 20000; k++) {
      const digits = 1 + Math.floor(next() * 17);
      let d = '';
      for (let i = 0; i < digits; i++) d += String(Math.floor(next() * 10));
      const point = Math.floor(next() * (digits + 1));
      const text = `${next() < 0.3 ? '-' : ''}${point > 0 && point < digits ? `${d.slice(0, point)}.${d.slice(point)}` : d}`;
      texts.push(text);
    }
    const values = arrayReader(NUMERIC)!(`{${texts.join(',')}}`)!;
    expect(values).toHaveLength(texts.length);
    texts.forEach((t, i) => {
      const v = values[i];
      if (typeof v === 'number') expect(Object.is(v, Number(t)), `${t} read as ${v}`).toBe(true);
      else expect(typeof v === 'bigint' ? v === BigInt(t) : v === t, `${t} read as ${String(v)}`).toBe(true);
    });
  });

  it('reads integers, NULL, and integers beyond 2^53 exactly', () => {
    expect(arrayReader(INT4)!('{1,-32768,NULL,2147483647}')).toEqual([1, -32768, null, 2147483647]);
    expect(arrayReader(INT8)!('{9223372036854775807,-9007199254740993,9007199254740991}')).toEqual([9223372036854775807n, -9007199254740993n, 9007199254740991]);
  });

  it('unquotes and unescapes text as array_out writes it', () => {
    expect(arrayReader(TEXT)!('{}')).toEqual([]);
    expect(arrayReader(TEXT)!('{plain,"a b","\\"","\\\\","a,b","{}","NULL",NULL,"",é}')).toEqual(['plain', 'a b', '"', '\\', 'a,b', '{}', 'NULL', null, '', 'é']);
  });

  it('reads no nested array, bounds or unknown type (the JSON form is read instead)', () => {
    expect(arrayReader(INT4)!('{{1,2},{3,4}}')).toBeUndefined();
    expect(arrayReader(INT4)!('[0:1]={1,2}')).toBeUndefined();
    expect(arrayReader(3905)).toBeUndefined(); // int4range[]
  });

  it('reads json and jsonb values as parseDbJson does, a string without escapes between its quotes', () => {
    const texts = ['"1995-03-31"', '""', '"a b"', '"\u2028 é 中文 \u{1F600}"', '"a\\"b"', '"a\\\\b"', '"a\\u0000"', '" x "', ' "a" ', '"a" ', '"12345678901234567890"',
      '12345678901234567890', '1.5', 'null', 'true', '[1,"a"]', '{"a": "b"}', '["a", "b"]'];
    for (const oid of [114, 3802]) {
      const read = ROW_VALUE_TYPES.getTypeParser(oid);
      for (const t of texts) expect(read(t), t).toEqual(parseDbJson(t));
    }
    // json[] elements are read the same way.
    expect(arrayReader(199)!('{"\\"2024-01-02\\"",NULL,"[1, \\"x\\"]"}')).toEqual(['2024-01-02', null, [1, 'x']]);
  });
});
