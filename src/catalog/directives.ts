// The directives a catalog author writes (SPEC §3.3): where each applies and the arguments it takes,
// with their types. An unknown directive or argument, a directive where it does not apply and an
// argument of the wrong type are compile errors that name the file and line (issue 15).
import { type ConstArgumentNode, type ConstValueNode, Kind, print } from 'graphql';

export type DirectiveSite = 'type' | 'field' | 'argument';

/** `names`: a name or a list of names, written as strings or enum values (`[ne, in]`). */
type ArgKind = 'string' | 'boolean' | 'int' | 'names' | 'object' | 'any' | EnumKind;

/**
 * An argument whose type is an enum in hugr's directive definitions (`@geometry_info(type: POINT)`,
 * `@embeddings(distance: Cosine)`): written as the enum value or as a string, compared without case
 * (svc's own introspection writes `type: "Point"`).
 */
interface EnumKind {
  readonly enum: string;
  readonly values: readonly string[];
  /** Other names are accepted too (PostGIS subtypes such as PointZ, Triangle, CircularString). */
  readonly open?: boolean;
}

const GEOMETRY_TYPE: EnumKind = {
  enum: 'GeometryType',
  values: ['POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION'],
  open: true,
};
const VECTOR_DISTANCE: EnumKind = { enum: 'VectorDistanceType', values: ['L2', 'Cosine', 'Inner'] };

interface DirectiveSpec {
  readonly on: readonly DirectiveSite[];
  readonly args: Readonly<Record<string, ArgKind>>;
}

const T: readonly DirectiveSite[] = ['type'];
const F: readonly DirectiveSite[] = ['field'];
const TF: readonly DirectiveSite[] = ['type', 'field'];
const s = 'string' as const;
const b = 'boolean' as const;
const names = 'names' as const;

export const DIRECTIVES: Readonly<Record<string, DirectiveSpec>> = {
  table: { on: T, args: { name: s, is_m2m: b, soft_delete: b, soft_delete_cond: s, soft_delete_set: s } },
  view: { on: T, args: { name: s, sql: s } },
  args: { on: T, args: { name: s, required: b } },
  pk: { on: F, args: {} },
  unique: { on: T, args: { fields: names, query_suffix: s, skip_query: b } },
  default: { on: F, args: { value: 'any', sequence: s, insert_exp: s, update_exp: s } },
  sql: { on: F, args: { exp: s } },
  field_source: { on: F, args: { field: s } },
  geometry_info: { on: F, args: { type: GEOMETRY_TYPE, srid: 'int' } },
  exclude_filter: { on: F, args: { operations: names } },
  filter_required: { on: F, args: {} },
  references: {
    on: T,
    args: {
      name: s, references_name: s, source_fields: names, references_fields: names, query: s, description: s,
      references_query: s, references_description: s, is_m2m: b, m2m_name: s,
    },
  },
  field_references: { on: F, args: { name: s, references_name: s, field: s, query: s, description: s, references_query: s, references_description: s } },
  join: { on: F, args: { references_name: s, source_fields: names, references_fields: names, sql: s } },
  function_call: { on: F, args: { references_name: s, args: 'object', module: s } },
  table_function_call_join: { on: F, args: { references_name: s, args: 'object', source_fields: names, references_fields: names, sql: s, module: s } },
  function: { on: F, args: { name: s, sql: s, skip_null_arg: b, is_table: b, json_cast: b } },
  arg_default: { on: ['argument'], args: { value: 'any' } },
  module: { on: TF, args: { name: s } },
  dependency: { on: T, args: { name: s } },
  cache: { on: TF, args: { ttl: 'any', key: s, tags: names } },
  no_cache: { on: TF, args: {} },
  embeddings: { on: T, args: { model: s, vector: s, distance: VECTOR_DISTANCE } },
  dim: { on: F, args: { len: 'int' } },
  // hugr's special table types (docs/catalogs.md "Cubes and hypertables"): a cube's @measurement
  // fields aggregate by a query's `measurement_func`; a hypertable is a table whose @timescale_key
  // field is its time axis.
  cube: { on: T, args: {} },
  measurement: { on: F, args: {} },
  hypertable: { on: T, args: {} },
  timescale_key: { on: F, args: {} },
  drop: { on: TF, args: {} },
  replace: { on: TF, args: {} },
  if_not_exists: { on: TF, args: {} },
  drop_directive: { on: TF, args: { name: s } },
  deprecated: { on: ['field', 'argument'], args: { reason: s } },
};

const WORDS: Record<Exclude<ArgKind, EnumKind>, string> = { string: 'a string', boolean: 'true or false', int: 'an integer', names: 'a name or a list of names', object: 'an object', any: 'a value' };

function words(kind: ArgKind): string {
  return typeof kind === 'string' ? WORDS[kind] : `one of ${kind.values.join(', ')} (${kind.enum})`;
}

function fits(kind: ArgKind, v: ConstValueNode): boolean {
  if (typeof kind !== 'string') {
    if (v.kind !== Kind.ENUM && v.kind !== Kind.STRING) return false;
    const word = v.value.toUpperCase();
    return kind.open || kind.values.some((x) => x.toUpperCase() === word);
  }
  switch (kind) {
    case 'string': return v.kind === Kind.STRING;
    case 'boolean': return v.kind === Kind.BOOLEAN;
    case 'int': return v.kind === Kind.INT;
    case 'object': return v.kind === Kind.OBJECT;
    case 'names': return v.kind === Kind.STRING || v.kind === Kind.ENUM || (v.kind === Kind.LIST && v.values.every((x) => x.kind === Kind.STRING || x.kind === Kind.ENUM));
    case 'any': return true;
  }
}

const SITE_WORDS: Record<DirectiveSite, string> = { type: 'a type', field: 'a field', argument: 'an argument' };

/** What is wrong with `@name` placed on `site`, or undefined; the caller adds the location. */
export function siteProblem(name: string, site: DirectiveSite): string | undefined {
  const spec = DIRECTIVES[name];
  if (!spec) return `unknown directive "@${name}"`;
  if (spec.on.includes(site)) return undefined;
  return `directive "@${name}" does not apply to ${SITE_WORDS[site]} (it applies to ${spec.on.map((x) => `${x}s`).join(' and ')})`;
}

/** What is wrong with one argument of a known directive, or undefined. */
export function argumentProblem(name: string, a: ConstArgumentNode): string | undefined {
  const kind = DIRECTIVES[name]?.args[a.name.value];
  if (!kind) return `unknown argument "${a.name.value}" of directive "@${name}"`;
  if (fits(kind, a.value)) return undefined;
  return `argument "${a.name.value}" of directive "@${name}" must be ${words(kind)}, not ${print(a.value)}`;
}
