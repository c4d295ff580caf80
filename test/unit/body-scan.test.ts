// The scan of a JSON body as it streams in (issue 31): it finds a list longer than the limit, or
// variables nested deeper than the limit, wherever the chunks are cut, and is never fooled by
// brackets, commas, quotes or backslashes inside strings.
import { describe, expect, it } from 'vitest';
import { BodyScan } from '../../src/pipeline/limits/body-scan.js';

const LIMITS = { maxListValues: 5, maxNesting: 4 };

/** Feeds `text` in chunks cut at `cuts` (byte offsets); the first limit crossed, if any. */
function scan(text: string, cuts: readonly number[] = [], limits = LIMITS) {
  const bytes = Buffer.from(text);
  const s = new BodyScan(limits);
  let from = 0;
  for (const at of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    const crossed = s.feed(bytes.subarray(from, at));
    if (crossed) return crossed;
    from = at;
  }
  return undefined;
}

/** Every way to cut `text` in two and in three (small texts). */
function everyCut(text: string): number[][] {
  const n = Buffer.byteLength(text);
  const out: number[][] = [[]];
  for (let a = 1; a < n; a++) {
    out.push([a]);
    for (let b = a + 1; b < n; b += 3) out.push([a, b]);
  }
  return out;
}

/** The truth from the parsed value: the longest list, and the nesting of `variables` (itself level 1). */
function truth(text: string): { list: boolean; nesting: boolean } {
  const longest = (v: unknown): number => (Array.isArray(v) ? Math.max(v.length, ...v.map(longest)) : v && typeof v === 'object' ? Math.max(0, ...Object.values(v).map(longest)) : 0);
  const depth = (v: unknown): number => (v && typeof v === 'object' ? 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depth)) : 0);
  const body = JSON.parse(text) as { variables?: unknown };
  return { list: longest(body) > LIMITS.maxListValues, nesting: depth(body.variables) > LIMITS.maxNesting };
}

describe('BodyScan', () => {
  it('refuses the list at its sixth value and names where it is, however the body is cut', () => {
    const text = JSON.stringify({ query: 'query($ids: [Int!]) { x(ids: $ids) }', variables: { ids: [1, 2, 3, 4, 5, 6, 7] } });
    for (const cuts of everyCut(text)) expect(scan(text, cuts), JSON.stringify(cuts)).toEqual({ limit: 'list', path: 'variables.ids' });
    expect(scan(JSON.stringify({ variables: { ids: [1, 2, 3, 4, 5] } }))).toBeUndefined();
    expect(scan(JSON.stringify({ variables: { ids: [] } }))).toBeUndefined();
    expect(scan(JSON.stringify({ variables: { rows: [{ tags: [] }, { tags: [1, 2, 3, 4, 5, 6] }] } }))).toEqual({ limit: 'list', path: 'variables.rows[1].tags' });
  });

  it('counts nesting from the variables object, as valueNesting does', () => {
    const nest = (levels: number) => JSON.stringify({ query: '{ x }', variables: { f: JSON.parse('{"_and":['.repeat(levels) + '1' + ']}'.repeat(levels)) } });
    // variables (1) > f (2) > {_and (3) > [ (4): 4 levels.
    expect(scan(nest(1))).toBeUndefined();
    for (const cuts of everyCut(nest(2))) expect(scan(nest(2), cuts), JSON.stringify(cuts)).toEqual({ limit: 'nesting', path: 'variables.f' });
    // The envelope itself does not count: /jq-query's {query: {variables}} is one level more.
    expect(scan(JSON.stringify({ jq: '.', query: { query: '{ x }', variables: { f: { a: [1] } } } }))).toBeUndefined();
  });

  it('is not fooled by brackets, commas, quotes and backslashes inside strings', () => {
    // Short strings are read byte by byte, long ones (over 32 bytes) by a search for the next quote.
    const long = 'x'.repeat(40);
    const strings = ['[[[[[[,,,,,,]', '"\\"[,,,,,,,', '\\', '\\\\', 'a\\"b[,,,,,,,,]', '{"variables":[1,2,3,4,5,6,7]}', 'é😀[,,,,,,,]', `${long}\\"[,,,,,,]\\`, `${long}${'\\'.repeat(41)}"[,,,,,,]`, `${'\\'.repeat(40)}",,,,,,,`];
    for (const s of strings) {
      const text = JSON.stringify({ query: s, variables: { [s]: s, l: [s, s, s] } });
      for (const cuts of everyCut(text)) expect(scan(text, cuts), `${text} ${JSON.stringify(cuts)}`).toBeUndefined();
    }
  });

  it('agrees with the parsed value on random bodies cut at random places', () => {
    let seed = 31;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const value = (depth: number): unknown => {
      const k = rand(depth > 5 ? 3 : 6);
      if (k === 0) return rand(100);
      if (k === 1) return ['a,[', '"}', '\\', 'x'][rand(4)]!.repeat(rand(3));
      if (k === 2) return null;
      if (k === 3 || k === 4) return Array.from({ length: rand(8) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: rand(4) }, (_, i) => [`k${i}${['[', '"', ''][rand(3)]}`, value(depth + 1)]));
    };
    for (let n = 0; n < 2000; n++) {
      const text = JSON.stringify({ query: '{ x }', variables: value(0) }, null, rand(2) ? 1 : undefined);
      const t = truth(text);
      const cuts = Array.from({ length: rand(4) }, () => rand(text.length));
      const got = scan(text, cuts);
      if (!t.list && !t.nesting) expect(got, text).toBeUndefined();
      else {
        expect(got, text).toBeDefined();
        expect(got!.limit === 'list' ? t.list : t.nesting, text).toBe(true);
      }
    }
  });
});

describe('BodyScan.mayHoldBigIntegers', () => {
  /** The flag after the whole body was fed in chunks cut at `cuts`. */
  const flag = (text: string, cuts: readonly number[] = []) => {
    const bytes = Buffer.from(text);
    const s = new BodyScan({ maxListValues: 0, maxNesting: 100 });
    let from = 0;
    for (const at of [...cuts, bytes.length]) {
      s.feed(bytes.subarray(from, at));
      from = at;
    }
    return s.mayHoldBigIntegers;
  };

  it('is set by an integer of 16 or more digits outside strings, wherever the body is cut (the body is then parsed exactly)', () => {
    for (const text of ['{"variables":{"id":9007199254740993}}', '{"variables":{"ids":[12345678901234567890]}}', '{"variables":{"n":-1234567890123456}}']) {
      for (const cuts of everyCut(text)) expect(flag(text, cuts[0] === undefined ? [] : [cuts[0]]), `${text} ${cuts}`).toBe(true);
    }
  });

  it('is not set by shorter numbers or by digits inside strings (JSON.parse reads those bodies)', () => {
    for (const text of ['{"query":"{ a123456789012345678: x }","variables":{"s":"12345678901234567890"}}', '{"variables":{"ids":[123456789012345,123456789012345, 1.5, -3e10]}}']) {
      for (const cuts of everyCut(text)) expect(flag(text, cuts[0] === undefined ? [] : [cuts[0]]), `${text} ${cuts}`).toBe(false);
    }
  });
});
