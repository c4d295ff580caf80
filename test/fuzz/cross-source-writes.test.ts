// Cross-source writes: the same insert_*, update_* and delete_* mutations (nested inserts too) sent to
// DuckDB, PostgreSQL and MariaDB (test/support/cross-sources.ts: same tables, rows and catalog text) with
// edge values per type. For each case the mutation's own answer and a read of the rows it wrote (or
// should not have written) must be the same text on every source (numbers as written, errors by code
// and path). Each case uses its own ids, so the cases do not depend on each other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparable, type CrossSources, PREFIXES, rename, startCrossSources } from '../support/cross-sources.js';

let x: CrossSources;

beforeAll(async () => {
  x = await startCrossSources('svc_xsrcw');
}, 120_000);

afterAll(async () => {
  await x?.close();
});

const ITEM = 'id owner_id i2 i4 i8 dec2 dec0 f8 f4 b s d ts tz tm j';
const items = (ids: number[]) => `{ dk_item(filter: {id: {in: [${ids.join(', ')}]}}, order_by: [{field: "id"}]) { ${ITEM} } }`;

interface Case {
  /** The mutation, written for dk. */
  readonly m: string;
  readonly vars?: Record<string, unknown>;
  /** A read of the rows written (or not), for dk. */
  readonly read: string;
  /** Expected error codes (`code/reason`) of the mutation (the same on every source), none when it must succeed. */
  readonly codes?: string[];
  /** Texts DuckDB's read must hold (a value the same on every source could still be wrong on all). */
  readonly holds?: string[];
  /**
   * A deliberate database difference (docs/catalogs.md): source `p` answers the mutation with `codes`
   * (none: it stores it) where the others answer with the case's; the other two are compared with
   * each other, and `holds` checks DuckDB's read.
   */
  readonly odd?: { readonly p: 'dk' | 'my'; readonly codes: string[] };
}

/** An insert of `data` into item `id` every source refuses with `code`, writing nothing. */
const refused = (id: number, data: string, code: string): Case => ({ m: `mutation { insert_dk_item(data: {id: ${id}, ${data}}) { id } }`, read: items([id]), codes: [code] });

const CASES: Record<string, Case> = {
  'floats: 9 digits, subnormal, extremes, -0': {
    m: `mutation {
      a: insert_dk_item(data: {id: 101, f4: 1.35130985e-2, f8: -0.0}) { ${ITEM} }
      b: insert_dk_item(data: {id: 102, f4: 1e-45, f8: 5e-324}) { ${ITEM} }
      c: insert_dk_item(data: {id: 103, f4: 3.4e38, f8: 1.7976931348623157e308}) { ${ITEM} }
      d: insert_dk_item(data: {id: 104, f4: 16777217, f8: 0.1}) { ${ITEM} }
      e: insert_dk_item(data: {id: 105, f4: -1.175494e-38, f8: -2.2250738585072014e-308}) { ${ITEM} }
    }`,
    read: items([101, 102, 103, 104, 105]),
  },
  'floats as variables': {
    m: 'mutation($a: Float, $b: Float, $c: Float) { insert_dk_item(data: {id: 106, f4: $a, f8: $b, dec2: $c}) { f4 f8 dec2 } }',
    vars: { a: 123456.789, b: -0, c: 0.1 },
    read: items([106]),
  },
  'decimals: many digits, trailing zeros, -0': {
    m: `mutation {
      a: insert_dk_item(data: {id: 111, dec2: 1234567890.12, dec0: 99999999999999999999}) { dec2 dec0 }
      b: insert_dk_item(data: {id: 112, dec2: 0.10, dec0: -12345678901234567890}) { dec2 dec0 }
      c: insert_dk_item(data: {id: 113, dec2: -0.00, dec0: 0}) { dec2 dec0 }
      d: insert_dk_item(data: {id: 114, dec2: 7.50, dec0: 9007199254740993}) { dec2 dec0 }
    }`,
    read: items([111, 112, 113, 114]),
    holds: ['"dec0":99999999999999999999', '"dec0":-12345678901234567890', '"dec2":1234567890.12', '"dec0":9007199254740993'],
  },
  'decimals: more places than the scale': {
    m: 'mutation { a: insert_dk_item(data: {id: 115, dec2: 1.005}) { dec2 } b: insert_dk_item(data: {id: 116, dec2: 2.675}) { dec2 } c: insert_dk_item(data: {id: 117, dec2: 0.125}) { dec2 } }',
    read: items([115, 116, 117]),
    holds: ['"dec2":1.01', '"dec2":2.68', '"dec2":0.13'],
  },
  'integers: extremes and 2^53+1': {
    m: `mutation {
      a: insert_dk_item(data: {id: 121, i2: -32768, i4: 2147483647, i8: 9007199254740993}) { i2 i4 i8 }
      b: insert_dk_item(data: {id: 122, i2: 32767, i4: -2147483648, i8: 9223372036854775807}) { i2 i4 i8 }
      c: insert_dk_item(data: {id: 123, i8: -9223372036854775808}) { i8 }
    }`,
    read: items([121, 122, 123]),
    holds: ['"i8":9007199254740993', '"i8":9223372036854775807', '"i8":-9223372036854775808'],
  },
  'BigInt as variables (text and number)': {
    m: 'mutation($a: BigInt, $b: BigInt) { a: insert_dk_item(data: {id: 124, i8: $a}) { i8 } b: insert_dk_item(data: {id: 125, i8: $b, dec0: $a}) { i8 dec0 } }',
    vars: { a: '9223372036854775807', b: 9007199254740991 },
    read: items([124, 125]),
  },
  'strings: quotes, backslashes, newlines, emoji, unicode': {
    m: 'mutation($s: String, $t: String) { a: insert_dk_item(data: {id: 131, s: $s}) { s } b: insert_dk_item(data: {id: 132, s: $t}) { s } c: insert_dk_item(data: {id: 133, s: "lit \\" \\\\ \\n \\u00e9 \\ud83d\\ude00"}) { s } }',
    vars: { s: 'quote " single \' back \\ \\\\ nl \n cr \r tab \t emoji 😀 👩‍👩‍👧 中文 𝔘 é\u0301', t: '' },
    read: items([131, 132, 133]),
  },
  'dates, naive DateTimes, Times with fractions': {
    m: `mutation {
      a: insert_dk_item(data: {id: 141, d: "0001-01-01", ts: "0001-01-01T00:00:00", tm: "00:00:00"}) { d ts tm }
      b: insert_dk_item(data: {id: 142, d: "9999-12-31", ts: "9999-12-31T23:59:59.999999", tm: "23:59:59.999999"}) { d ts tm }
      c: insert_dk_item(data: {id: 143, d: "2024-02-29", ts: "2024-02-29 12:00:00.5", tm: "12:30:00.5"}) { d ts tm }
      d: insert_dk_item(data: {id: 144, ts: "2000-01-01T07:07:07.123456", tm: "07:07:07.123"}) { ts tm }
    }`,
    read: items([141, 142, 143, 144]),
  },
  'Timestamps with offsets and fractions': {
    m: `mutation {
      a: insert_dk_item(data: {id: 151, tz: "2024-03-10T12:30:00+05:30"}) { tz }
      b: insert_dk_item(data: {id: 152, tz: "2024-03-10T07:00:00Z"}) { tz }
      c: insert_dk_item(data: {id: 153, tz: "2000-01-01T00:00:00.5-08:00"}) { tz }
      d: insert_dk_item(data: {id: 154, tz: "2038-01-19T03:14:07.123456Z"}) { tz }
      e: insert_dk_item(data: {id: 155, tz: "1970-01-01T05:30:01+05:30"}) { tz }
    }`,
    read: items([151, 152, 153, 154, 155]),
  },
  'JSON of every shape (literals)': {
    m: `mutation {
      a: insert_dk_item(data: {id: 161, j: {big: 12345678901234567890, f: 1.5, s: "é\\n\\"", n: null, arr: [1, null, "x", {y: -0.5}], t: true}}) { j }
      b: insert_dk_item(data: {id: 162, j: [1, 2.5, "three", null, []]}) { j }
      c: insert_dk_item(data: {id: 163, j: "str"}) { j }
      d: insert_dk_item(data: {id: 164, j: 42}) { j }
      e: insert_dk_item(data: {id: 165, j: -1.25e-7}) { j }
      f: insert_dk_item(data: {id: 166, j: {}}) { j }
      g: insert_dk_item(data: {id: 167, j: false}) { j }
    }`,
    read: items([161, 162, 163, 164, 165, 166, 167]),
    holds: ['"big":12345678901234567890'],
  },
  'JSON as variables': {
    m: 'mutation($a: JSON, $b: JSON, $c: JSON) { a: insert_dk_item(data: {id: 168, j: $a}) { j } b: insert_dk_item(data: {id: 169, j: $b}) { j } c: insert_dk_item(data: {id: 170, j: $c}) { j } }',
    vars: { a: { k: 'v', '': 0, nested: { x: [1, { y: 'z' }] } }, b: ['a', 1, null], c: 'plain' },
    read: items([168, 169, 170]),
  },
  'booleans and nulls': {
    m: `mutation {
      a: insert_dk_item(data: {id: 171, b: true, s: null, i4: null, j: null, d: null, tz: null}) { ${ITEM} }
      b: insert_dk_item(data: {id: 172, b: false}) { ${ITEM} }
    }`,
    read: items([171, 172]),
  },
  'nested insert: owner, items, parts': {
    m: `mutation { insert_dk_owner(data: {id: 181, name: "nested \\"o\\"", city: "Zürich", items: [
      {id: 182, s: "first", f8: 0.1, parts: [{id: 183, qty: 1, w: 1e21, label: "😀", seen: "2000-01-01T00:00:00.1"}, {id: 184, qty: 2}]},
      {id: 185, i8: 9007199254740993, j: {a: [1]}}
    ]}) { id name city items(order_by: [{field: "id"}]) { id s f8 i8 j parts(order_by: [{field: "id"}]) { id qty w label seen } } } }`,
    read: '{ dk_owner_by_pk(id: 181) { id name city items(order_by: [{field: "id"}]) { id owner_id s f8 i8 j parts(order_by: [{field: "id"}]) { id item_id qty w label seen } } } }',
  },
  'nested insert: the N:1 owner': {
    m: 'mutation { insert_dk_item(data: {id: 186, s: "with owner", owner: {id: 187, name: "new owner"}}) { id owner_id owner { id name } } }',
    read: '{ dk_item_by_pk(id: 186) { id owner_id owner { id name city } } }',
  },
  'batch insert': {
    m: 'mutation { insert_dk_part_batch(data: [{id: 191, qty: 1, w: -0.0}, {id: 192, qty: 2, w: 5e-324, seen: "9999-12-31T23:59:59.999999"}]) { success affected_rows } }',
    read: '{ dk_part(filter: {id: {in: [191, 192]}}, order_by: [{field: "id"}]) { id item_id qty w label seen } }',
  },
  'update of edge values': {
    m: `mutation {
      i: insert_dk_item(data: {id: 201, s: "before"}) { id }
      u: update_dk_item(filter: {id: {eq: 201}}, data: {s: "after \\\\ \\"q\\" 😀\\n", f4: 1.35130985e-2, f8: 5e-324, dec2: 1234567890.12, dec0: -99999999999999999999,
        i8: 9223372036854775807, d: "9999-12-31", ts: "0001-01-01T00:00:00.5", tz: "2024-03-10T12:30:00.123456+05:30", tm: "23:59:59.5",
        j: {big: 9223372036854775808, arr: [null]}, b: false}) { success affected_rows }
    }`,
    read: items([201]),
    holds: ['"big":9223372036854775808', '"dec0":-99999999999999999999', '"dec2":1234567890.12'],
  },
  'update to null, of several rows, of none': {
    m: `mutation {
      i: insert_dk_item_batch(data: [{id: 211, s: "x", f8: 1, j: [1]}, {id: 212, s: "y", f8: 2, j: {}}]) { affected_rows }
      u: update_dk_item(filter: {id: {in: [211, 212]}}, data: {s: null, j: null, f8: null}) { success affected_rows }
      n: update_dk_item(filter: {id: {eq: -1}}, data: {s: "none"}) { success affected_rows }
    }`,
    read: items([211, 212]),
  },
  'delete, of some and of none': {
    m: `mutation {
      i: insert_dk_part_batch(data: [{id: 221, qty: 1}, {id: 222, qty: 2}, {id: 223, qty: 3}]) { affected_rows }
      d: delete_dk_part(filter: {id: {in: [221, 223]}}) { success affected_rows }
      n: delete_dk_part(filter: {id: {eq: -1}}) { success affected_rows }
    }`,
    read: '{ dk_part(filter: {id: {in: [221, 222, 223]}}, order_by: [{field: "id"}]) { id qty } }',
  },
  // Microseconds are kept, digits past them cut (PostgreSQL rounded .9999999Z to the next second); a naive
  // DateTime given with an offset is its wall time (MariaDB refused it).
  'fractions beyond microseconds, an offset on a naive DateTime, 24:00': {
    m: `mutation {
      a: insert_dk_item(data: {id: 231, ts: "2024-01-01T00:00:00.1234567", tz: "2024-01-01T00:00:00.9999999Z", tm: "10:00:00.1234567"}) { ts tz tm }
      b: insert_dk_item(data: {id: 232, ts: "2024-01-01T00:00:00+05:30"}) { ts }
      c: insert_dk_item(data: {id: 233, tm: "24:00:00"}) { tm }
    }`,
    read: items([231, 232, 233]),
    holds: ['"ts":"2024-01-01T00:00:00.123456"', '"tz":"2024-01-01T00:00:00.999999Z"', '"tm":"10:00:00.123456"', '"ts":"2024-01-01T00:00:00"'],
  },
  'update and delete through relation filters': {
    m: `mutation {
      i: insert_dk_item(data: {id: 241, s: "rel", parts: [{id: 242, qty: 1}, {id: 243, qty: 2}]}) { id }
      u: update_dk_part(filter: {item: {s: {eq: "rel"}}, qty: {eq: 1}}, data: {label: "upd"}) { affected_rows }
      d: delete_dk_part(filter: {item: {s: {eq: "rel"}}, qty: {eq: 2}}) { affected_rows }
      u2: update_dk_item(filter: {parts: {any_of: {label: {eq: "upd"}}}}, data: {s: "rel2"}) { affected_rows }
    }`,
    read: '{ dk_item_by_pk(id: 241) { s parts(order_by: [{field: "id"}]) { id qty label } } }',
  },
  'updates and deletes filtered by edge values': {
    m: `mutation {
      i: insert_dk_item_batch(data: [{id: 251, i8: 9007199254740993, f8: 5e-324, s: "a\\b", d: "0001-01-01", tz: "2000-01-01T00:00:00.5Z"}, {id: 252, i8: 9007199254740992}]) { affected_rows }
      a: update_dk_item(filter: {i8: {eq: 9007199254740993}}, data: {s: "by i8"}) { affected_rows }
      b: update_dk_item(filter: {f8: {eq: 5e-324}, id: {gt: 250}}, data: {b: true}) { affected_rows }
      c: update_dk_item(filter: {d: {eq: "0001-01-01"}, id: {gt: 250}}, data: {i4: 1}) { affected_rows }
      e: update_dk_item(filter: {tz: {eq: "2000-01-01T05:30:00.5+05:30"}}, data: {i2: 2}) { affected_rows }
      f: delete_dk_item(filter: {i8: {eq: 9007199254740992}}) { affected_rows }
    }`,
    read: items([251, 252]),
  },
  'a batch with a duplicate key writes none of its rows': {
    m: 'mutation { insert_dk_part_batch(data: [{id: 261, qty: 1}, {id: 1, qty: 2}, {id: 263, qty: 3}]) { affected_rows } }',
    read: '{ dk_part(filter: {id: {in: [1, 261, 263]}}, order_by: [{field: "id"}]) { id qty } }',
    codes: ['QUERY_FAILED/unique_violation'],
  },
  'JSON: an empty string, a huge number, -0, deep arrays': {
    m: `mutation {
      a: insert_dk_item(data: {id: 271, j: ""}) { j }
      b: insert_dk_item(data: {id: 272, j: {k: 1e400}}) { j }
      c: insert_dk_item(data: {id: 273, j: {k: -0.0, e: 1E-7, u: "\\u0000x"}}) { j }
      d: insert_dk_item(data: {id: 274, j: [[[[[]]]]]}) { j }
    }`,
    read: items([271, 272, 273, 274]),
  },
  // MariaDB's TIMESTAMP holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC only (docs/catalogs.md).
  'a Timestamp before 1970': {
    m: 'mutation { a: insert_dk_item(data: {id: 281, tz: "1969-12-31T23:59:59Z"}) { tz } }',
    read: items([281]),
    odd: { p: 'my', codes: ['QUERY_FAILED/invalid_value'] },
    holds: ['"tz":"1969-12-31T23:59:59Z"'],
  },
  'strings at their varchar(n) length in 4-byte and 2-byte characters': {
    m: `mutation { a: insert_dk_item(data: {id: 291, s: "${'😀'.repeat(100)}"}) { id } b: insert_dk_owner(data: {id: 292, name: "${'é'.repeat(40)}"}) { id } }`,
    read: '{ dk_item_by_pk(id: 291) { s } dk_owner_by_pk(id: 292) { name } }',
  },
  // Wrong input: the same error code everywhere, and nothing written.
  'out of range: 40000 into a smallint': refused(301, 'i2: 40000', 'QUERY_FAILED/out_of_range'),
  'out of range: 2^40 into an int': refused(302, 'i4: 1099511627776', 'GRAPHQL_VALIDATION_FAILED'),
  // graphql-js parses the literal to Infinity and let it through (DuckDB stored inf); as a variable it is refused.
  'out of range: 1e400 into a double, as a literal': refused(311, 'f8: 1e400', 'GRAPHQL_VALIDATION_FAILED'),
  'out of range: a 400-digit integer into a double': refused(312, `f8: 1${'0'.repeat(400)}`, 'GRAPHQL_VALIDATION_FAILED'),
  'out of range: 2^63 into a bigint': refused(303, 'i8: 9223372036854775808', 'QUERY_FAILED/out_of_range'),
  'out of range: a decimal(12, 2) of 11 integer digits': refused(304, 'dec2: 12345678901.5', 'QUERY_FAILED/out_of_range'),
  'out of range: 1e39 into a float': refused(305, 'f4: 1e39', 'QUERY_FAILED/out_of_range'),
  'an invalid date': refused(306, 'd: "2023-02-30"', 'QUERY_FAILED/invalid_value'),
  'an update out of range changes nothing': {
    m: 'mutation { update_dk_item(filter: {id: {eq: 1}}, data: {i2: 40000, s: "changed"}) { affected_rows } }',
    read: items([1]),
    codes: ['QUERY_FAILED/out_of_range'],
    holds: ['"i2":-32768'],
  },
  'a second statement failing rolls the first back': {
    m: 'mutation { a: insert_dk_item(data: {id: 307, s: "kept?"}) { id } b: insert_dk_item(data: {id: 308, i2: 99999}) { id } }',
    read: items([307, 308]),
    codes: ['QUERY_FAILED/out_of_range'],
  },
  'a nested row failing writes no parent': {
    m: 'mutation { insert_dk_owner(data: {id: 309, name: "parent", items: [{id: 310, i2: -40000}]}) { id } }',
    read: '{ dk_owner(filter: {id: {eq: 309}}) { id } dk_item(filter: {id: {eq: 310}}) { id } }',
    codes: ['QUERY_FAILED/out_of_range'],
  },
  // What differs on purpose (docs/catalogs.md): DuckDB does not enforce a VARCHAR's length.
  'a string too long for varchar(40)': {
    m: `mutation { insert_dk_owner(data: {id: 311, name: "${'x'.repeat(41)}"}) { id } }`,
    read: '{ dk_owner(filter: {id: {eq: 311}}) { id } }',
    codes: ['QUERY_FAILED/invalid_value'],
    odd: { p: 'dk', codes: [] },
    holds: ['{"id":311}'],
  },
  'a duplicate key': {
    m: 'mutation { insert_dk_item(data: {id: 1, s: "dup"}) { id } }',
    read: '{ dk_item_by_pk(id: 1) { id s } }',
    codes: ['QUERY_FAILED/unique_violation'],
  },
};

interface Answer { p: string; status: number; text: string; raw: string; codes: string[] }

async function send(text: string, vars: Record<string, unknown> | undefined, p: string): Promise<Answer> {
  const r = await x.s.app.gql(rename(text, 'dk', p), vars);
  const answer = rename(r.text, p, 'dk');
  const codes = ((r.body?.errors ?? []) as { extensions?: { code?: string; reason?: string } }[]).map((e) => [e.extensions?.code ?? '?', e.extensions?.reason].filter(Boolean).join('/'));
  return { p, status: r.status, text: comparable(answer), raw: r.text, codes };
}

/** The mutation and the read on each source; the problems found, each against DuckDB's answer (PostgreSQL's where DuckDB differs on purpose). */
async function crossWrite(c: Case): Promise<string[]> {
  const problems: string[] = [];
  const answers: { m: Answer; r: Answer }[] = [];
  for (const p of PREFIXES) {
    const m = await send(c.m, c.vars, p);
    const r = await send(c.read, undefined, p);
    answers.push({ m, r });
    const codes = p === c.odd?.p ? c.odd.codes : (c.codes ?? []);
    if (JSON.stringify(m.codes) !== JSON.stringify(codes)) problems.push(`${p}: mutation codes ${m.codes.join(',') || 'none'}: ${m.raw}`);
    if (r.codes.length) problems.push(`${p}: read failed: ${r.raw}`);
  }
  for (const h of c.holds ?? []) if (!answers[0]!.r.raw.includes(h)) problems.push(`dk: the read lacks ${h}: ${answers[0]!.r.raw}`);
  // Where one source differs on purpose, the other two must answer alike.
  const [base, ...others] = answers.filter((a) => a.m.p !== c.odd?.p);
  for (const o of others) {
    // An error's message is the database's own; its code and path are compared.
    const b = base!.m.p;
    if (o.m.text !== base!.m.text) problems.push(`${o.m.p} mutation differs from ${b}:\n    ${b} ${base!.m.raw}\n    ${o.m.p} ${o.m.raw}`);
    if (o.r.text !== base!.r.text) problems.push(`${o.r.p} read differs from ${b}:\n    ${b} ${base!.r.raw}\n    ${o.r.p} ${o.r.raw}`);
  }
  return problems;
}

describe('the same writes on DuckDB, PostgreSQL and MariaDB store and answer the same', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(name, async () => {
      const problems = await crossWrite(c);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
});
