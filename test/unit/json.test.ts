// Reading database JSON without losing integers beyond 2^53 (SPEC §3.4).
import { describe, expect, it } from 'vitest';
import { parseDbJson, stringifyJson } from '../../src/shared/json.js';

describe('parseDbJson', () => {
  it('keeps integers beyond 2^53 exact and round-trips them as bare digits', () => {
    const v = parseDbJson('{"a": 9007199254740993, "b": [-12345678901234567890], "c": 1}') as { a: bigint; b: bigint[]; c: number };
    expect(v.a).toBe(9007199254740993n);
    expect(v.b[0]).toBe(-12345678901234567890n);
    expect(stringifyJson(v)).toBe('{"a":9007199254740993,"b":[-12345678901234567890],"c":1}');
  });

  it('leaves long fractions, exponents and digits inside strings alone', () => {
    const text = '{"avg": 0.05040935672514619883, "e": 1.5e+300, "big": 12345678901234567e2, "s": "id 12345678901234567890", "esc": "a\\"12345678901234567890"}';
    expect(parseDbJson(text)).toEqual(JSON.parse(text));
  });
});
