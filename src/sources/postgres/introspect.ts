// `self_defined: true` on PostgreSQL (SPEC §3.1): the catalog is read from the database itself.
// Tables, views, columns, primary keys and foreign keys of one schema become catalog SDL (the same
// text a catalog author would write), which compileCatalog then compiles like any other catalog.
// Rules (types, names, relations) are listed in docs/postgres.md.
import pg from 'pg';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { PostgresSource, redactUrl } from './source.js';
import { mapColumnType, type PgColumnType } from './type-map.js';

/** What introspection can read from: a loaded source, a connected client, or a postgres:// URL. */
export type IntrospectionTarget = PostgresSource | pg.ClientBase | string;

export interface IntrospectedCatalog {
  readonly sdl: string;
  /** Columns served as String because their type has no svc scalar, objects skipped, ... */
  readonly warnings: readonly string[];
}

type Query = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** Type names the generated schema already uses; a table with one of these names gets a `_` suffix. */
const RESERVED_TYPES = new Set([
  'Query', 'Mutation', 'Subscription', 'Function', 'MutationFunction', 'OperationResult', 'OrderByField', 'OrderDirection',
  'TimeBucket', 'TimeExtract', 'GeometryTransform', 'GeometryMeasurementTypes', 'GeometrySpatialQueryType', 'FilterOperator',
  'String', 'Int', 'Float', 'Boolean', 'ID', 'BigInt', 'Date', 'Time', 'Timestamp', 'DateTime', 'Interval', 'JSON', 'Geometry',
  'IntRange', 'BigIntRange', 'TimestampRange', 'H3Cell', 'Vector',
]);

interface Column {
  readonly name: string;
  readonly field: string;
  readonly num: number;
  readonly notNull: boolean;
  readonly type: PgColumnType;
}

interface Relation {
  readonly oid: number;
  readonly name: string;
  readonly typeName: string;
  readonly view: boolean;
  readonly columns: Column[];
  pk: number[];
  /** Field names in use on this type (columns, relations and their generated twins). */
  readonly taken: Set<string>;
  readonly refs: string[];
  readonly fieldRefs: Map<number, string[]>;
}

interface ForeignKey {
  readonly name: string;
  readonly owner: number;
  readonly target: number;
  readonly ownerCols: number[];
  readonly targetCols: number[];
}

/** A GraphQL name for a database name: invalid characters become `_`. */
function graphqlName(name: string): string {
  let out = name.replace(/[^_0-9A-Za-z]/g, '_');
  if (!/^[_A-Za-z]/.test(out)) out = `_${out}`;
  if (out.startsWith('__')) out = `f${out}`;
  return out;
}

/** The first candidate not yet taken, else the last one with a number. */
function pick(taken: Set<string>, candidates: string[], twins: (n: string) => string[] = () => []): string {
  const free = (n: string) => NAME.test(n) && !taken.has(n) && twins(n).every((t) => !taken.has(t));
  let chosen = candidates.find(free);
  for (let i = 2; !chosen; i++) if (free(`${candidates.at(-1)}_${i}`)) chosen = `${candidates.at(-1)}_${i}`;
  taken.add(chosen);
  for (const t of twins(chosen)) taken.add(t);
  return chosen;
}

const str = (s: string): string => JSON.stringify(s);

function queryOf(target: IntrospectionTarget, sourceName: string): { query: Query; done: () => Promise<void> } {
  if (target instanceof PostgresSource) return { query: (sql, params) => target.rows(sql, params), done: async () => undefined };
  if (typeof target !== 'string') return { query: async (sql, params) => (await target.query(sql, params)).rows, done: async () => undefined };
  const url = new URL(target);
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
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
  const warnings: string[] = [];
  try {
    const relations = new Map<number, Relation>();
    const typeNames = new Set<string>();
    for (const r of await query(RELATIONS_SQL, [schema])) {
      const name = String(r.name);
      if (name.includes('.')) {
        warnings.push(`${schema}.${name}: a table name with a dot cannot be named by a catalog; skipped`);
        continue;
      }
      let typeName = graphqlName(name);
      if (RESERVED_TYPES.has(typeName)) typeName = `${typeName}_`;
      typeName = pick(typeNames, [typeName]);
      const kind = String(r.kind);
      relations.set(Number(r.oid), { oid: Number(r.oid), name, typeName, view: kind === 'v' || kind === 'm', columns: [], pk: [], taken: new Set(), refs: [], fieldRefs: new Map() });
    }
    for (const c of await query(COLUMNS_SQL, [schema])) {
      const rel = relations.get(Number(c.rel));
      if (!rel) continue;
      const name = String(c.name);
      const type = mapColumnType({
        formatted: String(c.formatted), base: String(c.base), typtype: String(c.typtype), category: String(c.category),
        element: c.element === null ? undefined : String(c.element), elementTyptype: c.element_typtype === null ? undefined : String(c.element_typtype),
        numericScale: c.numeric_scale === null ? undefined : Number(c.numeric_scale),
      });
      if (type.warning) warnings.push(`${schema}.${rel.name}.${name}: ${type.warning}`);
      rel.columns.push({ name, field: pick(rel.taken, [graphqlName(name)]), num: Number(c.num), notNull: c.not_null === true, type });
    }
    const fks: ForeignKey[] = [];
    for (const k of await query(CONSTRAINTS_SQL, [schema])) {
      const owner = relations.get(Number(k.owner));
      if (!owner) continue;
      const ownerCols = (k.owner_cols as number[]) ?? [];
      if (k.type === 'p') {
        owner.pk = ownerCols;
        continue;
      }
      if (!relations.has(Number(k.target))) {
        warnings.push(`${schema}.${owner.name}: foreign key "${String(k.name)}" references a table outside schema "${schema}"; no relation`);
        continue;
      }
      fks.push({ name: String(k.name), owner: owner.oid, target: Number(k.target), ownerCols, targetCols: (k.target_cols as number[]) ?? [] });
    }
    for (const fk of fks) addRelation(relations, fk);
    const header = [
      `# Catalog of PostgreSQL schema ${str(schema)} for data source ${str(sourceName)}, read from the database (self_defined).`,
      ...warnings.map((w) => `# warning: ${w}`),
    ];
    return { sdl: `${[header.join('\n'), ...[...relations.values()].map(typeSdl)].join('\n\n')}\n`, warnings };
  } finally {
    await done();
  }
}

/** The SDL text only (warnings as comments at its top). */
export async function introspectCatalog(target: IntrospectionTarget, schema: string, sourceName: string): Promise<string> {
  return (await introspect(target, schema, sourceName)).sdl;
}

function columnOf(rel: Relation, num: number): Column {
  const c = rel.columns.find((x) => x.num === num);
  if (!c) throw new Error(`column ${num} of "${rel.name}" not found`);
  return c;
}

/**
 * One foreign key -> an N:1 field on the owner and a 1:N list on the target, named so that
 * neither can clash with a column or another relation: `customer_id` -> `customer`, else the
 * target's name, else `<target>_by_<columns>`; the list is the owner's name, else
 * `<owner>_by_<columns>` (numbered when still taken).
 */
function addRelation(relations: Map<number, Relation>, fk: ForeignKey): void {
  const owner = relations.get(fk.owner)!;
  const target = relations.get(fk.target)!;
  const src = fk.ownerCols.map((n) => columnOf(owner, n));
  const dst = fk.targetCols.map((n) => columnOf(target, n));
  const by = src.map((c) => c.field).join('_');
  const stem = src.length === 1 ? src[0]!.field.replace(/_?id$/i, '') : '';
  const one = pick(owner.taken, [...(stem ? [stem] : []), target.typeName, `${target.typeName}_by_${by}`]);
  const self = owner === target;
  const many = pick(target.taken, [...(self ? [] : [owner.typeName]), `${owner.typeName}_by_${by}`], (n) => [`${n}_aggregation`, `${n}_bucket_aggregation`]);
  if (src.length === 1) {
    const list = owner.fieldRefs.get(src[0]!.num) ?? [];
    list.push(`@field_references(name: ${str(fk.name)}, references_name: ${str(target.typeName)}, field: ${str(dst[0]!.field)}, query: ${str(one)}, references_query: ${str(many)})`);
    owner.fieldRefs.set(src[0]!.num, list);
    return;
  }
  owner.refs.push(
    `@references(name: ${str(fk.name)}, references_name: ${str(target.typeName)}, source_fields: [${src.map((c) => str(c.field)).join(', ')}], ` +
      `references_fields: [${dst.map((c) => str(c.field)).join(', ')}], query: ${str(one)}, references_query: ${str(many)})`,
  );
}

function typeSdl(rel: Relation): string {
  const head = `type ${rel.typeName} ${rel.view ? `@view(name: ${str(rel.name)})` : `@table(name: ${str(rel.name)})`}${rel.refs.map((r) => `\n  ${r}`).join('')} {`;
  const fields = rel.columns.map((c) => {
    const t = c.type.list ? `[${c.type.scalar}]` : c.type.scalar;
    const directives = [
      ...(rel.pk.includes(c.num) ? ['@pk'] : []),
      ...(c.field !== c.name ? [`@field_source(field: ${str(c.name)})`] : []),
      ...(c.type.geometry ? [`@geometry_info(type: ${str(c.type.geometry.type)}${c.type.geometry.srid !== undefined ? `, srid: ${c.type.geometry.srid}` : ''})`] : []),
      ...(rel.fieldRefs.get(c.num) ?? []),
    ];
    return `  ${c.field}: ${t}${c.notNull && !rel.view ? '!' : ''}${directives.map((d) => ` ${d}`).join('')}`;
  });
  return `${head}\n${fields.join('\n')}\n}`;
}
