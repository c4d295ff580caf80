// A function returning an object type (SPEC §4.4): its Timestamp members are answered as every other
// Timestamp svc answers (RFC 3339, `Z` for UTC, the request zone's offset otherwise), on DuckDB (a
// struct) and PostgreSQL (a composite type), not as the database's own text for the value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSources, type Sources } from '../support/sources.js';

const DUCK = {
  name: 'duck',
  yaml: 'type: duckdb\npath: ":memory:"\nprefix: duck\n',
  schema: `type stamp { n: BigInt label: String at: Timestamp day: Date }
extend type Function {
  stamp_of(n: Int!): stamp @function(name: "stamp_of", sql: "SELECT CASE WHEN [n] > 0 THEN {'n': [n], 'label': 'x', 'at': TIMESTAMPTZ '2024-02-11 12:00:00+00', 'day': DATE '2024-02-11'} END")
}
`,
};
const PG = {
  name: 'pgf',
  yaml: 'type: postgres\npath: "[$PG]"\nprefix: pgf\n',
  schema: `type stamp { n: BigInt label: String at: Timestamp day: Date }
extend type Function {
  stamp_of(n: Int!): stamp @function(name: "stamp_of")
}
`,
};
const PG_SQL = `CREATE TYPE stamp AS (n bigint, label text, at timestamptz, day date);
CREATE FUNCTION stamp_of(n int) RETURNS stamp LANGUAGE sql AS $$ SELECT ROW(n, 'x', TIMESTAMPTZ '2024-02-11 12:00:00+00', DATE '2024-02-11')::stamp $$;`;

let s: Sources;
beforeAll(async () => {
  s = await startSources({ name: 'svc_fn_struct', pgSql: PG_SQL, sources: [DUCK, PG] });
}, 60_000);
afterAll(() => s?.close());

const Q = '{ function { d: duck_stamp_of(n: 2) { n label at day } p: pgf_stamp_of(n: 3) { n label at day } } }';

describe('Timestamp members of a function\'s object result', () => {
  it('are RFC 3339 in UTC on DuckDB and PostgreSQL', async () => {
    const r = await s.app.gql(Q);
    expect(r.body).toEqual({ data: { function: {
      d: { n: 2, label: 'x', at: '2024-02-11T12:00:00Z', day: '2024-02-11' },
      p: { n: 3, label: 'x', at: '2024-02-11T12:00:00Z', day: '2024-02-11' },
    } }, extensions: {} });
  });

  it('carry the request zone\'s offset', async () => {
    const r = await s.app.gql(Q, undefined, { 'x-svc-timezone': 'Asia/Tokyo' });
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.function.d.at).toBe('2024-02-11T21:00:00+09:00');
    expect(r.body.data.function.p.at).toBe('2024-02-11T21:00:00+09:00');
  });

  it('a null object stays null', async () => {
    const r = await s.app.gql('{ function { duck_stamp_of(n: 0) { at } } }');
    expect(r.body).toEqual({ data: { function: { duck_stamp_of: null } }, extensions: {} });
  });
});
