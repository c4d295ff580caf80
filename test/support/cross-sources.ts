// The cross-source fuzz's app (test/fuzz/cross-source*.test.ts): the same tables and rows on DuckDB,
// PostgreSQL and MariaDB (test/fixtures/fuzz/cross-*.sql), one catalog text (cross.graphql) for the three
// (prefixes dk, pgs, my), and the helpers that compare their answers as text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './app.js';
import { createMysqlDatabase, type TestMysqlDatabase } from './mysql.js';
import { startSources, type Sources } from './sources.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'fuzz', name), 'utf8');

// Not `pg`: a message naming `pg_item` reads as PostgreSQL's own text (harness.ts DATABASE_TEXT).
export const PREFIXES = ['dk', 'pgs', 'my'] as const;

/**
 * The rows (comments out) as MariaDB reads them: backslashes in plain strings doubled (they are escapes there), E''
 * strings written plain (their escapes are MariaDB's), instants without their `+00` (the session is UTC).
 */
const mariadbRows = (sql: string) => sql
  .replace(/^--.*$/gm, '')
  .replace(/(E?)'((?:[^']|'')*)'/g, (_m, e: string, body: string) => `'${e ? body : body.replace(/\\/g, '\\\\')}'`)
  .replace(/(\d\d:\d\d(?:\.\d+)?)\+00'/g, "$1'");

export interface CrossSources {
  readonly s: Sources;
  close(): Promise<void>;
}

/** The three sources with the fixture's rows, in one app; `name` prefixes the throwaway databases. */
export async function startCrossSources(name: string): Promise<CrossSources> {
  const schema = fixture('cross.graphql');
  const rows = fixture('cross-rows.sql');
  const my: TestMysqlDatabase = await createMysqlDatabase(name);
  await my.exec(fixture('cross-mysql.sql') + mariadbRows(rows));
  const s = await startSources({
    name,
    pgSql: fixture('cross-pg.sql') + rows,
    sources: [
      { name: 'dk', yaml: 'type: duckdb\npath: dk.duckdb\ncreate: true\nseed: seed.sql\nprefix: dk\n', schema, seed: fixture('cross-duckdb.sql') + rows },
      { name: 'pgs', yaml: 'type: postgres\npath: "[$PG]"\nprefix: pgs\n', schema },
      { name: 'my', yaml: `type: mysql\npath: "${my.url}"\nprefix: my\n`, schema },
    ],
  });
  return {
    s,
    async close() {
      await s.close();
      await my.drop();
    },
  };
}

/** The query for source `to`: root fields and type names (`dk_item`, `_dk_item_aggregation`, `insert_dk_item`) renamed. */
export const rename = (text: string, from: string, to: string) => text.replace(new RegExp(`(?<![A-Za-z0-9])(_?)${from}_`, 'g'), `$1${to}_`);

/**
 * An answer as compared: `data` with every number kept as the text the server wrote (so `1.1` and
 * `1.100000023841858` differ, and so do 2^53 and 2^53+1), and each error as its code and path.
 */
export function comparable(text: string, reviver?: (key: string, v: unknown) => unknown): string {
  try {
    const body = JSON.parse(text.replace(/([:[,])(-?\d[\d.eE+-]*)(?=[,\]}])/g, '$1"#$2"'), reviver) as { data?: unknown; errors?: { path?: unknown[]; extensions?: { code?: string } }[] };
    const errors = body.errors?.map((e) => `${e.extensions?.code} at ${e.path?.join('.') ?? '-'}`).sort();
    return JSON.stringify({ data: body.data, ...(errors ? { errors } : {}) });
  } catch {
    return text;
  }
}
