// `self_defined: true` on PostgreSQL (SPEC §3.1): the catalog is read from the database itself.
// Tables, views, columns, primary keys and foreign keys of one schema become catalog SDL (the same
// text a catalog author would write), which compileCatalog then compiles like any other catalog.
// Rules (types, names, relations) are listed in docs/postgres.md.
import pg from 'pg';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { PostgresSource, redactUrl } from './source.js';
import { catalogSdl, type IntrospectedCatalog } from '../introspect-sdl.js';
import { mapColumnType } from './type-map.js';

export type { IntrospectedCatalog };

/** What introspection can read from: a loaded source, a connected client, or a postgres:// URL. */
export type IntrospectionTarget = PostgresSource | pg.ClientBase | string;


type Query = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

function queryOf(target: IntrospectionTarget, sourceName: string): { query: Query; done: () => Promise<void> } {
  if (target instanceof PostgresSource) return { query: (sql, params) => target.rows(sql, params), done: async () => undefined };
  if (typeof target !== 'string') return { query: async (sql, params) => (await target.query(sql, params)).rows, done: async () => undefined };
  const url = new URL(target);
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
  // A server that goes away mid-read rejects the query in flight; the event itself must not end the process.
  client.on('error', () => undefined);
  const connected = client.connect().catch((e: unknown) => {
    throw new PublicError(ErrorCode.SourceUnavailable, `data source "${sourceName}" (${redactUrl(target)}) is unreachable: ${(e as Error).message}`);
  });
  return {
    query: async (sql, params) => {
      await connected;
      return (await client.query(sql, params)).rows;
    },
    done: async () => {
      await connected.catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

const RELATIONS_SQL = `
SELECT c.oid::int AS oid, c.relname AS name, c.relkind::text AS kind
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
ORDER BY c.relname`;

const COLUMNS_SQL = `
SELECT a.attrelid::int AS rel, a.attname AS name, a.attnum::int AS num, a.attnotnull AS not_null,
       format_type(a.atttypid, a.atttypmod) AS formatted,
       COALESCE(NULLIF(t.typbasetype, 0), t.oid)::regtype::text AS base,
       bt.typtype::text AS typtype, bt.typcategory::text AS category,
       et.typname AS element, et.typtype::text AS element_typtype,
       CASE WHEN bt.typname = 'numeric' AND a.atttypmod > 0 THEN ((a.atttypmod - 4) & 65535) END AS numeric_scale
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_type bt ON bt.oid = COALESCE(NULLIF(t.typbasetype, 0), t.oid)
LEFT JOIN pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A'
WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attrelid, a.attnum`;

const CONSTRAINTS_SQL = `
SELECT k.conname AS name, k.contype::text AS type, k.conrelid::int AS owner, k.confrelid::int AS target,
       k.conkey::int[] AS owner_cols, k.confkey::int[] AS target_cols
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND k.contype IN ('p', 'f')
ORDER BY c.relname, k.conname`;

/** Reads schema `schema` and returns catalog SDL with the findings worth a warning. */
export async function introspect(target: IntrospectionTarget, schema: string, sourceName: string): Promise<IntrospectedCatalog> {
  const { query, done } = queryOf(target, sourceName);
  try {
    const relations = (await query(RELATIONS_SQL, [schema])).map((r) => ({ oid: Number(r.oid), name: String(r.name), kind: String(r.kind) }));
    const columns = (await query(COLUMNS_SQL, [schema])).map((c) => ({
      rel: Number(c.rel), name: String(c.name), num: Number(c.num), notNull: c.not_null === true,
      type: mapColumnType({
        formatted: String(c.formatted), base: String(c.base), typtype: String(c.typtype), category: String(c.category),
        element: c.element === null ? undefined : String(c.element), elementTyptype: c.element_typtype === null ? undefined : String(c.element_typtype),
        numericScale: c.numeric_scale === null ? undefined : Number(c.numeric_scale),
      }),
    }));
    const constraints = (await query(CONSTRAINTS_SQL, [schema])).map((k) => ({
      name: String(k.name), type: String(k.type), owner: Number(k.owner), target: Number(k.target),
      ownerCols: (k.owner_cols as number[]) ?? [], targetCols: (k.target_cols as number[]) ?? [],
    }));
    return catalogSdl({ relations, columns, constraints }, 'PostgreSQL', schema, sourceName);
  } finally {
    await done();
  }
}
