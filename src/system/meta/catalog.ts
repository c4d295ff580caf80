// `core.meta` (seed 001): read-only views over the embedded engine's own system functions
// (`duckdb_tables()`, ...), served like any other views: filters, ordering, paging, aggregations.
// They read the embedded DuckDB, whatever database CORE_DB_PATH names.
import { compileCatalog } from '../../catalog/compile.js';
import type { ResolvedCatalog } from '../../catalog/model.js';

/** Registry name of the engine views; a dot keeps it apart from any data source a user registers. */
export const META_SOURCE = 'core.meta';
export const META_PREFIX = 'core_meta';

/**
 * Settings whose values are credentials (S3 keys, tokens, passwords of extensions) are shown as
 * `***`: secrets never reach a GraphQL read.
 */
const SECRET_SETTING = `regexp_matches(name, '(secret|password|token|access_key|key_id|credential)', 'i')`;

export const META_CATALOG_SDL = /* GraphQL */ `
"""Databases attached to the embedded engine (the engine's own, the core database, DuckDB sources)."""
type databases @view(name: "duckdb_databases", sql: "SELECT database_oid AS id, database_name AS name, type, comment, readonly, internal, path FROM duckdb_databases()") @unique(fields: ["name"], query_suffix: "by_name") {
  id: BigInt! @pk
  name: String!
  type: String
  comment: String
  readonly: Boolean
  internal: Boolean
  path: String
}

"""Schemas of the attached databases."""
type schemas @view(name: "duckdb_schemas", sql: "SELECT oid AS id, schema_name AS name, database_oid AS database_id, database_name, internal FROM duckdb_schemas()") {
  id: BigInt! @pk
  name: String! @pk
  database_id: BigInt @field_references(references_name: "databases", field: "id", query: "database", references_query: "schemas")
  database_name: String
  internal: Boolean
}

"""Tables of the attached databases."""
type tables @view(name: "duckdb_tables", sql: "SELECT table_oid AS id, table_name AS name, database_oid AS database_id, database_name, schema_oid AS schema_id, schema_name, estimated_size, column_count, index_count, has_primary_key, temporary, comment FROM duckdb_tables()") {
  id: BigInt! @pk
  name: String!
  database_id: BigInt @field_references(references_name: "databases", field: "id", query: "database", references_query: "tables")
  database_name: String
  schema_id: BigInt
  schema_name: String
  "Estimated number of rows"
  estimated_size: BigInt
  column_count: BigInt
  index_count: BigInt
  has_primary_key: Boolean
  temporary: Boolean
  comment: String
}

"""Views of the attached databases (the engine's internal ones included)."""
type views @view(name: "duckdb_views", sql: "SELECT view_oid AS id, view_name AS name, database_oid AS database_id, database_name, schema_oid AS schema_id, schema_name, column_count, temporary, internal, sql FROM duckdb_views()") {
  id: BigInt! @pk
  name: String! @pk
  database_id: BigInt @field_references(references_name: "databases", field: "id", query: "database", references_query: "views")
  database_name: String
  schema_id: BigInt
  schema_name: String
  column_count: BigInt
  temporary: Boolean
  internal: Boolean
  sql: String
}

"""Columns of tables and views; a column is named by its table and its name."""
type columns @view(name: "duckdb_columns", sql: "SELECT column_name AS name, database_oid AS database_id, database_name, schema_oid AS schema_id, schema_name, table_oid AS table_id, table_name, data_type, is_nullable, column_default AS \\"default\\", column_index AS ordinal_position, comment FROM duckdb_columns()") {
  table_id: BigInt! @pk @field_references(references_name: "tables", field: "id", query: "table", references_query: "columns")
  name: String! @pk
  database_id: BigInt
  database_name: String
  schema_id: BigInt
  schema_name: String
  table_name: String
  data_type: String
  is_nullable: Boolean
  default: String
  "1-based position in the table"
  ordinal_position: Int
  comment: String
}

"""Constraints of tables: PRIMARY KEY, FOREIGN KEY, UNIQUE, CHECK, NOT NULL."""
type constraints @view(name: "duckdb_constraints", sql: "SELECT constraint_name AS name, table_oid AS table_id, table_name, database_name, schema_name, constraint_type AS type, constraint_text AS text, constraint_column_names AS columns, referenced_table AS references_table_name, referenced_column_names AS references_columns FROM duckdb_constraints()") {
  table_id: BigInt! @pk @field_references(references_name: "tables", field: "id", query: "table", references_query: "constraints")
  name: String! @pk
  table_name: String
  database_name: String
  schema_name: String
  type: String
  text: String
  columns: [String!]
  references_table_name: String
  references_columns: [String!]
}

"""Extensions known to the engine (none can be installed from the network here)."""
type extensions @view(name: "duckdb_extensions", sql: "SELECT extension_name AS name, loaded, installed, install_path, description, extension_version AS version FROM duckdb_extensions()") {
  name: String! @pk
  loaded: Boolean
  installed: Boolean
  install_path: String
  description: String
  version: String
}

"""Functions and macros of the engine; overloads share a name."""
type functions @view(name: "duckdb_functions", sql: "SELECT function_name AS name, database_name, schema_name, function_type AS type, return_type, parameters, parameter_types, has_side_effects, description FROM duckdb_functions()") {
  name: String!
  database_name: String
  schema_name: String
  "scalar, aggregate, table, macro, table_macro, pragma"
  type: String
  return_type: String
  parameters: [String]
  parameter_types: [String]
  has_side_effects: Boolean
  description: String
}

"""Engine settings; values of credential settings are shown as ***."""
type settings @view(name: "duckdb_settings", sql: "SELECT name, CASE WHEN ${SECRET_SETTING} AND value IS NOT NULL AND value <> '' THEN '***' ELSE value END AS value, description, input_type, scope FROM duckdb_settings()") {
  name: String! @pk
  value: String
  description: String
  input_type: String
  scope: String
}

"""Memory use of the engine by component, in bytes."""
type duckdb_memory @view(name: "duckdb_memory", sql: "SELECT tag, memory_usage_bytes AS memory_usage, temporary_storage_bytes AS temporary_storage FROM duckdb_memory()") {
  tag: String! @pk
  memory_usage: BigInt
  temporary_storage: BigInt
}

"""Secrets known to the engine: names and scopes only, never their values."""
type secrets @view(name: "duckdb_secrets", sql: "SELECT name, type AS type_name, provider, persistent, storage, scope FROM duckdb_secrets(redact := true)") {
  name: String! @pk
  type_name: String
  provider: String
  persistent: Boolean
  storage: String
  scope: [String]
}

"""Kinds of secrets the engine can hold."""
type secret_types @view(name: "duckdb_secret_types", sql: "SELECT type, default_provider, extension AS extension_name FROM duckdb_secret_types()") {
  type: String! @pk
  default_provider: String
  extension_name: String
}

"""Contexts of the engine's log entries."""
type log_contexts @view(name: "duckdb_log_contexts", sql: "SELECT CAST(context_id AS BIGINT) AS id, scope, CAST(connection_id AS BIGINT) AS connection_id, CAST(transaction_id AS BIGINT) AS transaction_id, CAST(query_id AS BIGINT) AS query_id FROM duckdb_log_contexts()") {
  id: BigInt! @pk
  scope: String
  connection_id: BigInt
  transaction_id: BigInt
  query_id: BigInt
}

"""The engine's log (empty unless logging is enabled with CALL enable_logging())."""
type log_entries @view(name: "duckdb_logs", sql: "SELECT CAST(context_id AS BIGINT) AS context_id, timestamp, type, log_level, message FROM duckdb_logs()") {
  context_id: BigInt
  timestamp: Timestamp!
  type: String
  log_level: String
  message: String
}

"""Files the engine spilled to disk, with their sizes in bytes."""
type temporary_files @view(name: "duckdb_temporary_files", sql: "SELECT path, size FROM duckdb_temporary_files()") {
  path: String! @pk
  size: BigInt
}

extend type Function {
  "Version of the embedded engine"
  engine_version: String! @function(name: "version", sql: "version()")
}
`;

/** The compiled engine views, placed at \`{ core { meta { ... } } }\`. */
export function compileMetaCatalog(): ResolvedCatalog {
  return compileCatalog(
    { name: META_SOURCE, type: 'duckdb', prefix: META_PREFIX, asModule: true, readOnly: true, module: 'core.meta' },
    [{ file: 'src/system/meta/catalog.ts', text: META_CATALOG_SDL }],
  );
}
