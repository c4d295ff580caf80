// Catalog SDL from a database's own description (SPEC §3.1 self_defined), whatever the engine:
// tables, views, columns with their svc scalars, primary and foreign keys -> the text a catalog
// author would write, which compileCatalog then compiles like any other catalog. The PostgreSQL and
// MySQL introspectors read their system catalogs into this shape.

export interface DbColumnType {
  readonly scalar: import('../catalog/model.js').ScalarName;
  readonly list: boolean;
  readonly geometry?: { readonly type: string; readonly srid?: number };
  readonly warning?: string;
}

export interface DbDescription {
  /** Tables and views: `kind` v or m for views. */
  readonly relations: readonly { readonly oid: number; readonly name: string; readonly kind: string }[];
  /** Columns in order, their types already mapped. */
  readonly columns: readonly { readonly rel: number; readonly name: string; readonly num: number; readonly notNull: boolean; readonly type: DbColumnType }[];
  /** `type` p (primary key) or f (foreign key); columns by `num`. */
  readonly constraints: readonly { readonly name: string; readonly type: string; readonly owner: number; readonly target: number; readonly ownerCols: readonly number[]; readonly targetCols: readonly number[] }[];
}

export interface IntrospectedCatalog {
  readonly sdl: string;
  /** Columns served as String because their type has no svc scalar, objects skipped, ... */
  readonly warnings: readonly string[];
}

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
  readonly type: DbColumnType;
}

interface Relation {
  readonly oid: number;
  readonly name: string;
  readonly typeName: string;
  readonly view: boolean;
  readonly columns: Column[];
  pk: readonly number[];
  /** Field names in use on this type (columns, relations and their generated twins). */
  readonly taken: Set<string>;
  readonly refs: string[];
  readonly fieldRefs: Map<number, string[]>;
}

interface ForeignKey {
  readonly name: string;
  readonly owner: number;
  readonly target: number;
  readonly ownerCols: readonly number[];
  readonly targetCols: readonly number[];
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

/** `engine` names the database kind and `schema` the schema (or database) read, in the SDL header. */
export function catalogSdl(db: DbDescription, engine: string, schema: string, sourceName: string, found: readonly string[] = []): IntrospectedCatalog {
  const warnings: string[] = [...found];
  const relations = new Map<number, Relation>();
  const typeNames = new Set<string>();
  for (const r of db.relations) {
    if (r.name.includes('.')) {
      warnings.push(`${schema}.${r.name}: a table name with a dot cannot be named by a catalog; skipped`);
      continue;
    }
    let typeName = graphqlName(r.name);
    if (RESERVED_TYPES.has(typeName)) typeName = `${typeName}_`;
    typeName = pick(typeNames, [typeName]);
    relations.set(r.oid, { oid: r.oid, name: r.name, typeName, view: r.kind === 'v' || r.kind === 'm', columns: [], pk: [], taken: new Set(), refs: [], fieldRefs: new Map() });
  }
  for (const c of db.columns) {
    const rel = relations.get(c.rel);
    if (!rel) continue;
    if (c.type.warning) warnings.push(`${schema}.${rel.name}.${c.name}: ${c.type.warning}`);
    rel.columns.push({ name: c.name, field: pick(rel.taken, [graphqlName(c.name)]), num: c.num, notNull: c.notNull, type: c.type });
  }
  const fks: ForeignKey[] = [];
  for (const k of db.constraints) {
    const owner = relations.get(k.owner);
    if (!owner) continue;
    if (k.type === 'p') {
      owner.pk = k.ownerCols;
      continue;
    }
    if (!relations.has(k.target)) {
      warnings.push(`${schema}.${owner.name}: foreign key "${k.name}" references a table outside schema "${schema}"; no relation`);
      continue;
    }
    fks.push({ name: k.name, owner: owner.oid, target: k.target, ownerCols: k.ownerCols, targetCols: k.targetCols });
  }
  for (const fk of fks) addRelation(relations, fk);
  const header = [
    `# Catalog of ${engine} schema ${str(schema)} for data source ${str(sourceName)}, read from the database (self_defined).`,
    ...warnings.map((w) => `# warning: ${w}`),
  ];
  return { sdl: `${[header.join('\n'), ...[...relations.values()].map(typeSdl)].join('\n\n')}\n`, warnings };
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
