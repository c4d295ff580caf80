// DuckDB's JSON with bare NaN / Infinity / -Infinity (src/sources/duckdb/finite-json.ts): they become
// JSON strings; the same words inside strings and keys, escaped quotes included, stay as they are.
import { describe, expect, it } from 'vitest';
import { finiteJson } from '../../src/sources/duckdb/finite-json.js';

describe('finiteJson', () => {
  it('quotes bare non-finite numbers wherever a value stands', () => {
    expect(finiteJson('{"x":NaN,"y":Infinity,"z":[NaN,1.0,-Infinity],"w":{"v":-Infinity}}')).toBe('{"x":"NaN","y":"Infinity","z":["NaN",1.0,"-Infinity"],"w":{"v":"-Infinity"}}');
    expect(JSON.parse(finiteJson('[NaN]'))).toEqual(['NaN']);
    expect(finiteJson('NaN')).toBe('"NaN"');
  });

  it('leaves strings and keys alone, escaped quotes and backslashes included', () => {
    const text = '{"NaN":"NaN","a\\"NaN":"\\\\","Infinity -Infinity":"x\\" NaN","n":1e-7}';
    expect(finiteJson(text)).toBe(text);
    expect(finiteJson('{"s":"\\\\","n":NaN}')).toBe('{"s":"\\\\","n":"NaN"}');
  });

  it('returns the same text when there is nothing to quote', () => {
    const text = '{"a":[1,2,3],"b":"plain"}';
    expect(finiteJson(text)).toBe(text);
  });
});
