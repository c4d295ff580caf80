// A streamed DuckDB list writes a row as DuckDB wrote it only where JSON.stringify writes the same
// bytes for its value (src/pipeline/streamed-rows.ts, issue 31): every row the check lets through
// as it is must be its own stringify. Rows written by real DuckDB (to_json of a struct, as the rows
// statement builds them) over doubles, floats and decimals of every magnitude, and strings holding
// every character up to U+FFFF. Rows the check sends to be parsed must be ones that can differ
// (else the check costs the big answer for nothing): the bench list's rows go through as they are.
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayDiffer } from '../../src/pipeline/streamed-rows.js';
import { finiteJson } from '../../src/sources/duckdb/finite-json.js';
import { parseDbJson, stringifyJson } from '../../src/shared/json.js';

let c: DuckDBConnection;
beforeAll(async () => {
  c = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => c?.closeSync());

async function rows(sql: string): Promise<string[]> {
  const r = await c.runAndReadAll(sql);
  return r.getRows().map((row) => finiteJson(String(row[0])));
}

function passedAsIs(texts: readonly string[]): number {
  let asIs = 0;
  for (const text of texts) {
    if (mayDiffer(text, true)) continue;
    asIs++;
    expect(stringifyJson(parseDbJson(text)), text).toBe(text);
  }
  return asIs;
}

describe('rows written as DuckDB wrote them are what JSON.stringify writes', () => {
  it('doubles, floats and decimals of every magnitude', async () => {
    const values = `(SELECT i, CASE WHEN i % 50 < 40 THEN (random() * 10) * 10 ** (i % 50 - 30) ELSE (i % 1000) / 8 END AS x FROM range(20000) t(i))`;
    const kinds = ['x', '-x', 'x::FLOAT', 'round(x, 3)', 'x::DECIMAL(38, 10)', 'x::DECIMAL(15, 2)', 'x::DECIMAL(18, 6)'];
    const texts = await rows(kinds.map((k) => `SELECT to_json({v: ${k}}) FROM ${values} WHERE abs(x) < 1e7`).join(' UNION ALL '));
    const special = await rows(`SELECT to_json({v: v}) FROM (VALUES (0.0::DOUBLE), (-0.0::DOUBLE), (7.0::DOUBLE), (1e21::DOUBLE), (1e-7::DOUBLE), (0.000001::DOUBLE),
      (123456789012345680000::DOUBLE), ('NaN'::DOUBLE), ('Infinity'::DOUBLE), ('-Infinity'::DOUBLE), (5e-324::DOUBLE), (1.7976931348623157e308::DOUBLE), (0.1::DOUBLE)) t(v)`);
    expect(passedAsIs([...texts, ...special])).toBeGreaterThan(20000);
  });

  it('strings with every character up to U+FFFF', async () => {
    const texts = await rows(`SELECT to_json({s: chr(i::INTEGER) || 'x' || chr(((i * 7) % 65536)::INTEGER)}) FROM range(1, 65536) t(i) WHERE NOT (i BETWEEN 55296 AND 57343) AND NOT (((i * 7) % 65536) BETWEEN 55296 AND 57343) AND (i * 7) % 65536 <> 0`);
    expect(passedAsIs(texts)).toBeGreaterThan(60000);
  });

  it("the bench list's rows (bench/big-answer.mjs) go through as they are", async () => {
    const texts = await rows(`SELECT to_json({id: i, name: 'item number ' || i, qty: ((i % 1000) / 10 + 0.25)::DECIMAL(15, 2), day: DATE '2020-01-01' + (i % 1500)::INTEGER,
      note: 'a comment of some length about row ' || (i * 7919 % 100003)}) FROM range(5000) t(i)`);
    expect(texts.filter((t) => mayDiffer(t, true))).toEqual([]);
    expect(passedAsIs(texts)).toBe(texts.length);
  });
});
