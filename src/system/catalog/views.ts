// `core.catalog` (seed 001): read-only views over the `_schema_*` tables, with the relations seed
// 001 names, served like any views (filters, ordering, paging, aggregations). Rows of unloaded
// catalogs stay in the tables (for descriptions and reloads) but are left out here, except in
// `catalogs`, where they show `disabled: true`.
import { compileCatalog } from '../../catalog/compile.js';
import type { ResolvedCatalog, SourceType } from '../../catalog/model.js';

export const CATALOG_VIEWS_SOURCE = 'core.catalog';
export const CATALOG_VIEWS_PREFIX = 'core_catalog';

/** Rows whose catalog is served (system rows have none). */
const served = (alias: string, column = 'catalog') =>
  `(${alias}.${column} IS NULL OR ${alias}.${column} IN (SELECT name FROM [$catalog]._schema_catalogs WHERE NOT disabled))`;

/**
 * Cosine distance between a row's `vec` and the query's vector (`svc_embed`, see similarity.ts);
 * NULL without a query. PostgreSQL keeps `vec` as real[] (no pgvector here): summed over unnest.
 */
const distance = (pg: boolean, alias: string) =>
  pg
    ? `(SELECT 1 - sum(a * b) / NULLIF(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0) FROM unnest(${alias}.vec, svc_embed([$query])) AS u(a, b))`
    : `list_cosine_distance(${alias}.vec, svc_embed([$query]))`;

const SEARCH = '@args(name: "catalog_search", required: false)';
const DISTANCE_FIELD = `"Cosine distance of vec to the embedding of args.query (null without one): order_by it to rank by meaning"
  distance: Float`;

export const catalogViewsSdl = (type: SourceType): string => {
  const pg = type === 'postgres';
  return /* GraphQL */ `
"""A text to rank rows by: its embedding's distance to each row's vec (needs EMBEDDER_URL)."""
input catalog_search {
  query: String
}

"""Compiled catalogs: one per data source (and the system modules)."""
type catalogs @view(name: "_schema_catalogs", sql: "SELECT c.name, c.version, c.description, c.long_description, c.source_type AS type, c.prefix, c.as_module, c.read_only, c.disabled, c.suspended, c.is_summarized, c.vec, ${distance(pg, 'c')} AS distance FROM [$catalog]._schema_catalogs c") ${SEARCH} {
  name: String! @pk
  "Hash of the compiled catalog"
  version: String
  description: String
  long_description: String
  type: String
  prefix: String
  as_module: Boolean
  read_only: Boolean
  "Not served now (unloaded); its rows are kept"
  disabled: Boolean!
  "A dependency is unavailable"
  suspended: Boolean!
  is_summarized: Boolean!
  vec: Vector
  ${DISTANCE_FIELD}
}

"""Which catalog depends on which."""
type catalog_dependencies @view(name: "_schema_catalog_dependencies", sql: "SELECT catalog_name AS catalog, depends_on FROM [$catalog]._schema_catalog_dependencies")
  @references(references_name: "catalogs", source_fields: ["catalog"], references_fields: ["name"], query: "catalog_info", references_query: "dependencies")
  @references(references_name: "catalogs", source_fields: ["depends_on"], references_fields: ["name"], query: "depends_on_info", references_query: "dependents") {
  catalog: String! @pk
  depends_on: String! @pk
}

"""Named types of the served schema."""
type types @view(name: "_schema_types", sql: "SELECT t.name, t.kind, t.description, t.long_description, t.hugr_type, t.module, t.catalog, t.is_summarized, t.vec, ${distance(pg, 't')} AS distance FROM [$catalog]._schema_types t WHERE ${served('t')}") ${SEARCH}
  @references(references_name: "modules", source_fields: ["module"], references_fields: ["name"], query: "module_info", references_query: "types")
  @references(references_name: "catalogs", source_fields: ["catalog"], references_fields: ["name"], query: "catalog_info", references_query: "types") {
  name: String! @pk
  "OBJECT, INPUT_OBJECT, ENUM, SCALAR, INTERFACE, UNION"
  kind: String!
  description: String
  long_description: String
  "What the type is for: table, view, filter, filter_list, mut_input, mut_data, aggregation, bucket_aggregation, sub_aggregation, object, input, module, or empty for built-in types"
  hugr_type: String
  module: String
  catalog: String
  is_summarized: Boolean!
  vec: Vector
  ${DISTANCE_FIELD}
}

"""Fields of object and input types."""
type fields @view(name: "_schema_fields", sql: "SELECT f.type_name, f.name, f.description, f.long_description, f.field_type, f.field_type_name, f.hugr_type, f.catalog, f.dependency_catalog, f.is_pk, f.is_summarized, f.ordinal, f.vec, ${distance(pg, 'f')} AS distance FROM [$catalog]._schema_fields f WHERE ${served('f')}") ${SEARCH}
  @references(references_name: "types", source_fields: ["type_name"], references_fields: ["name"], query: "root_type", references_query: "fields")
  @references(references_name: "types", source_fields: ["field_type_name"], references_fields: ["name"], query: "type", references_query: "used_by_fields")
  @references(references_name: "catalogs", source_fields: ["catalog"], references_fields: ["name"], query: "catalog_info", references_query: "fields")
  @references(references_name: "catalogs", source_fields: ["dependency_catalog"], references_fields: ["name"], query: "dependency_catalog_info", references_query: "dependent_fields") {
  type_name: String! @pk
  name: String! @pk
  description: String
  long_description: String
  "Full signature, e.g. [shop_orders!]!"
  field_type: String
  "The named type inside the signature"
  field_type_name: String
  "column, relation, select, select_one, aggregate, bucket_aggregate, insert, update, delete, function, mut_function, submodule"
  hugr_type: String
  catalog: String
  dependency_catalog: String
  is_pk: Boolean
  is_summarized: Boolean!
  ordinal: Int!
  vec: Vector
  ${DISTANCE_FIELD}
}

"""Arguments of fields."""
type arguments @view(name: "_schema_arguments", sql: "SELECT a.type_name, a.field_name, a.name, a.description, a.arg_type, a.arg_type_name, a.arg_type LIKE '[%' AS is_list, a.arg_type LIKE '%!' AS is_non_null, a.default_value, a.ordinal FROM [$catalog]._schema_arguments a JOIN [$catalog]._schema_fields f ON f.type_name = a.type_name AND f.name = a.field_name WHERE ${served('f')}")
  @references(references_name: "fields", source_fields: ["type_name", "field_name"], references_fields: ["type_name", "name"], query: "field", references_query: "arguments")
  @references(references_name: "types", source_fields: ["arg_type_name"], references_fields: ["name"], query: "argument_type", references_query: "used_by_arguments") {
  type_name: String! @pk
  field_name: String! @pk
  name: String! @pk
  description: String
  arg_type: String
  arg_type_name: String
  is_list: Boolean
  is_non_null: Boolean
  default_value: String
  ordinal: Int
}

"""Modules (dotted paths) and their root types."""
type modules @view(name: "_schema_modules", sql: "SELECT m.name, m.description, m.long_description, m.query_root, m.mutation_root, m.function_root, m.mut_function_root, m.is_summarized, m.vec, ${distance(pg, 'm')} AS distance FROM [$catalog]._schema_modules m") ${SEARCH}
  @references(references_name: "types", source_fields: ["query_root"], references_fields: ["name"], query: "query_root_type", references_query: "query_root_of")
  @references(references_name: "types", source_fields: ["mutation_root"], references_fields: ["name"], query: "mutation_root_type", references_query: "mutation_root_of")
  @references(references_name: "types", source_fields: ["function_root"], references_fields: ["name"], query: "function_root_type", references_query: "function_root_of")
  @references(references_name: "types", source_fields: ["mut_function_root"], references_fields: ["name"], query: "mut_function_root_type", references_query: "mut_function_root_of") {
  name: String! @pk
  description: String
  long_description: String
  query_root: String
  mutation_root: String
  function_root: String
  mut_function_root: String
  is_summarized: Boolean!
  vec: Vector
  ${DISTANCE_FIELD}
}

"""Which catalogs contribute to which module."""
type module_catalogs @view(name: "_schema_module_type_catalogs", sql: "SELECT DISTINCT m.name AS module, c.catalog_name AS catalog FROM [$catalog]._schema_modules m JOIN [$catalog]._schema_module_type_catalogs c ON c.type_name IN (m.query_root, m.mutation_root, m.function_root, m.mut_function_root) WHERE ${served('c', 'catalog_name')}")
  @references(references_name: "modules", source_fields: ["module"], references_fields: ["name"], query: "module_info", references_query: "catalogs")
  @references(references_name: "catalogs", source_fields: ["catalog"], references_fields: ["name"], query: "catalog_info", references_query: "modules") {
  module: String! @pk
  catalog: String! @pk
}

"""Data objects (tables and views) and their filter and argument types."""
type data_objects @view(name: "_schema_data_objects", sql: "SELECT d.name, d.filter_type_name, d.args_type_name FROM [$catalog]._schema_data_objects d JOIN [$catalog]._schema_types t ON t.name = d.name WHERE ${served('t')}")
  @references(references_name: "types", source_fields: ["name"], references_fields: ["name"], query: "type", references_query: "data_object") {
  name: String! @pk
  filter_type_name: String
  args_type_name: String
}

"""The root fields that query or change each data object."""
type data_object_queries @view(name: "_schema_data_object_queries", sql: "SELECT q.name, q.object_name, q.query_root, q.query_type FROM [$catalog]._schema_data_object_queries q JOIN [$catalog]._schema_types t ON t.name = q.object_name WHERE ${served('t')}")
  @references(references_name: "data_objects", source_fields: ["object_name"], references_fields: ["name"], query: "object", references_query: "queries") {
  name: String! @pk
  object_name: String! @pk
  "The (module) root type holding the field"
  query_root: String
  "select, select_one, aggregate, bucket_aggregate, insert, update, delete"
  query_type: String
}

"""Every operation of every module, flat."""
type module_intro @view(name: "_schema_modules", sql: "SELECT r.module, r.type_type, f.type_name, f.name AS field_name, f.description AS field_description, f.hugr_type, f.catalog FROM (SELECT name AS module, 'queries' AS type_type, query_root AS type_name FROM [$catalog]._schema_modules UNION ALL SELECT name, 'mutation', mutation_root FROM [$catalog]._schema_modules UNION ALL SELECT name, 'function', function_root FROM [$catalog]._schema_modules UNION ALL SELECT name, 'mut_function', mut_function_root FROM [$catalog]._schema_modules) r JOIN [$catalog]._schema_fields f ON f.type_name = r.type_name WHERE f.hugr_type <> 'submodule' AND ${served('f')}") {
  module: String!
  "queries, mutation, function or mut_function"
  type_type: String!
  type_name: String!
  field_name: String!
  field_description: String
  hugr_type: String
  catalog: String
}

"""Values of enum types."""
type enum_values @view(name: "_schema_enum_values", sql: "SELECT e.type_name, e.name, e.description, e.ordinal FROM [$catalog]._schema_enum_values e JOIN [$catalog]._schema_types t ON t.name = e.type_name WHERE ${served('t')}")
  @references(references_name: "types", source_fields: ["type_name"], references_fields: ["name"], query: "type", references_query: "enum_values") {
  type_name: String! @pk
  name: String! @pk
  description: String
  ordinal: Int!
}
`;
};

/** The compiled catalog views, on the core database's kind, at `{ core { catalog { ... } } }`. */
export function compileCatalogViews(type: SourceType): ResolvedCatalog {
  return compileCatalog(
    { name: CATALOG_VIEWS_SOURCE, type, prefix: CATALOG_VIEWS_PREFIX, asModule: true, readOnly: true, module: 'core.catalog' },
    [{ file: 'src/system/catalog/views.ts', text: catalogViewsSdl(type) }],
  );
}
