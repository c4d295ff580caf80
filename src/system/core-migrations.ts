// Core database schema, versioned. An older database is migrated forward at start; a newer one is
// refused with a clear message (SPEC §11). The same DDL runs on DuckDB and PostgreSQL; `JSON`
// becomes `JSONB` on PostgreSQL.

export const CORE_SCHEMA_VERSION = 5;

/** A step is SQL, or a change computed in the server (values only it can compute, such as hashes). */
export type MigrationStep = string | { readonly hashApiKeys: true };

export const MIGRATIONS: readonly (readonly MigrationStep[])[] = [
  // version 1
  [
    `CREATE TABLE IF NOT EXISTS _schema_settings (key VARCHAR PRIMARY KEY, value JSON)`,
    `CREATE TABLE IF NOT EXISTS data_sources (
      name VARCHAR PRIMARY KEY, type VARCHAR NOT NULL, prefix VARCHAR NOT NULL DEFAULT '',
      as_module BOOLEAN NOT NULL DEFAULT FALSE, description VARCHAR, path VARCHAR NOT NULL DEFAULT '',
      disabled BOOLEAN DEFAULT FALSE, self_defined BOOLEAN DEFAULT FALSE, read_only BOOLEAN DEFAULT FALSE)`,
    `CREATE TABLE IF NOT EXISTS catalog_sources (
      name VARCHAR PRIMARY KEY, type VARCHAR NOT NULL, description VARCHAR, path VARCHAR NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS catalogs (
      catalog_name VARCHAR NOT NULL, data_source_name VARCHAR NOT NULL, PRIMARY KEY (catalog_name, data_source_name))`,
    `CREATE TABLE IF NOT EXISTS roles (name VARCHAR PRIMARY KEY, description VARCHAR NOT NULL DEFAULT '', disabled BOOLEAN DEFAULT FALSE)`,
    `CREATE TABLE IF NOT EXISTS role_permissions (
      role VARCHAR NOT NULL, type_name VARCHAR NOT NULL, field_name VARCHAR NOT NULL,
      hidden BOOLEAN DEFAULT FALSE, disabled BOOLEAN DEFAULT FALSE, filter JSON, data JSON,
      PRIMARY KEY (role, type_name, field_name))`,
    `CREATE TABLE IF NOT EXISTS api_keys (
      name VARCHAR PRIMARY KEY, description VARCHAR NOT NULL DEFAULT '', key VARCHAR NOT NULL UNIQUE, default_role VARCHAR,
      disabled BOOLEAN DEFAULT FALSE, is_temporal BOOLEAN DEFAULT FALSE, expires_at TIMESTAMPTZ, headers JSON, claims JSON)`,
    `INSERT INTO roles (name, description) VALUES
      ('admin', 'Full access'), ('public', 'Anonymous callers'), ('readonly', 'Reads everything, writes nothing')
      ON CONFLICT DO NOTHING`,
    `INSERT INTO role_permissions (role, type_name, field_name, disabled) VALUES ('readonly', 'Mutation', '*', TRUE)
      ON CONFLICT DO NOTHING`,
  ],
  // version 2: compiled catalogs (seed 001 "Core database tables"), read by core.catalog.
  // `vec` holds embeddings (EMBEDDER_URL); its length is the embedder's, so the list is unsized.
  [
    `CREATE TABLE IF NOT EXISTS _schema_catalogs (
      name VARCHAR PRIMARY KEY, version VARCHAR NOT NULL DEFAULT '', description VARCHAR NOT NULL DEFAULT '',
      long_description VARCHAR NOT NULL DEFAULT '', source_type VARCHAR NOT NULL DEFAULT '', prefix VARCHAR NOT NULL DEFAULT '',
      as_module BOOLEAN NOT NULL DEFAULT FALSE, read_only BOOLEAN NOT NULL DEFAULT FALSE, is_summarized BOOLEAN NOT NULL DEFAULT FALSE,
      disabled BOOLEAN NOT NULL DEFAULT FALSE, suspended BOOLEAN NOT NULL DEFAULT FALSE, vec FLOAT[])`,
    `CREATE TABLE IF NOT EXISTS _schema_types (
      name VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL, description VARCHAR NOT NULL DEFAULT '', long_description VARCHAR NOT NULL DEFAULT '',
      hugr_type VARCHAR NOT NULL DEFAULT '', module VARCHAR NOT NULL DEFAULT '', catalog VARCHAR, directives JSON DEFAULT '[]',
      interfaces VARCHAR NOT NULL DEFAULT '', union_types VARCHAR NOT NULL DEFAULT '', is_summarized BOOLEAN NOT NULL DEFAULT FALSE, vec FLOAT[])`,
    `CREATE INDEX IF NOT EXISTS _schema_types_catalog ON _schema_types (catalog)`,
    `CREATE INDEX IF NOT EXISTS _schema_types_hugr_type ON _schema_types (hugr_type)`,
    `CREATE INDEX IF NOT EXISTS _schema_types_kind ON _schema_types (kind)`,
    `CREATE TABLE IF NOT EXISTS _schema_fields (
      type_name VARCHAR NOT NULL, name VARCHAR NOT NULL, field_type VARCHAR NOT NULL, field_type_name VARCHAR NOT NULL DEFAULT '',
      description VARCHAR NOT NULL DEFAULT '', long_description VARCHAR NOT NULL DEFAULT '', hugr_type VARCHAR NOT NULL DEFAULT '',
      catalog VARCHAR, dependency_catalog VARCHAR, directives JSON DEFAULT '[]', is_pk BOOLEAN NOT NULL DEFAULT FALSE,
      is_summarized BOOLEAN NOT NULL DEFAULT FALSE, vec FLOAT[], ordinal INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (type_name, name))`,
    `CREATE INDEX IF NOT EXISTS _schema_fields_type_name ON _schema_fields (type_name)`,
    `CREATE INDEX IF NOT EXISTS _schema_fields_catalog ON _schema_fields (catalog)`,
    `CREATE INDEX IF NOT EXISTS _schema_fields_hugr_type ON _schema_fields (hugr_type)`,
    `CREATE INDEX IF NOT EXISTS _schema_fields_dependency_catalog ON _schema_fields (dependency_catalog)`,
    `CREATE TABLE IF NOT EXISTS _schema_arguments (
      type_name VARCHAR NOT NULL, field_name VARCHAR NOT NULL, name VARCHAR NOT NULL, arg_type VARCHAR NOT NULL,
      arg_type_name VARCHAR NOT NULL DEFAULT '', default_value VARCHAR, description VARCHAR NOT NULL DEFAULT '',
      directives JSON DEFAULT '[]', ordinal INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (type_name, field_name, name))`,
    `CREATE INDEX IF NOT EXISTS _schema_arguments_type_name ON _schema_arguments (type_name)`,
    `CREATE INDEX IF NOT EXISTS _schema_arguments_field ON _schema_arguments (type_name, field_name)`,
    `CREATE TABLE IF NOT EXISTS _schema_enum_values (
      type_name VARCHAR NOT NULL, name VARCHAR NOT NULL, description VARCHAR NOT NULL DEFAULT '', directives JSON DEFAULT '[]',
      ordinal INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (type_name, name))`,
    `CREATE INDEX IF NOT EXISTS _schema_enum_values_type_name ON _schema_enum_values (type_name)`,
    `CREATE TABLE IF NOT EXISTS _schema_directives (
      name VARCHAR PRIMARY KEY, description VARCHAR NOT NULL DEFAULT '', locations VARCHAR NOT NULL DEFAULT '',
      is_repeatable BOOLEAN NOT NULL DEFAULT FALSE, arguments JSON DEFAULT '[]')`,
    `CREATE TABLE IF NOT EXISTS _schema_modules (
      name VARCHAR PRIMARY KEY, description VARCHAR NOT NULL DEFAULT '', long_description VARCHAR NOT NULL DEFAULT '',
      query_root VARCHAR, mutation_root VARCHAR, function_root VARCHAR, mut_function_root VARCHAR,
      is_summarized BOOLEAN NOT NULL DEFAULT FALSE, disabled BOOLEAN NOT NULL DEFAULT FALSE, vec FLOAT[])`,
    `CREATE TABLE IF NOT EXISTS _schema_catalog_dependencies (
      catalog_name VARCHAR NOT NULL, depends_on VARCHAR NOT NULL, PRIMARY KEY (catalog_name, depends_on))`,
    `CREATE TABLE IF NOT EXISTS _schema_data_objects (name VARCHAR PRIMARY KEY, filter_type_name VARCHAR, args_type_name VARCHAR)`,
    `CREATE TABLE IF NOT EXISTS _schema_data_object_queries (
      name VARCHAR NOT NULL, object_name VARCHAR NOT NULL, query_root VARCHAR, query_type VARCHAR, PRIMARY KEY (name, object_name))`,
    `CREATE TABLE IF NOT EXISTS _schema_module_type_catalogs (
      type_name VARCHAR NOT NULL, catalog_name VARCHAR NOT NULL, PRIMARY KEY (type_name, catalog_name))`,
  ],
  // version 3 (issue 14): `public` runs no mutation (the system module is closed to it and to
  // `readonly` by the access service itself); built-in roles carry the established descriptions
  // (issue 18 item 10); API keys are stored as hashes.
  [
    `INSERT INTO role_permissions (role, type_name, field_name, disabled) VALUES ('public', 'Mutation', '*', TRUE)
      ON CONFLICT DO NOTHING`,
    `UPDATE roles SET description = 'Admin role' WHERE name = 'admin' AND description = 'Full access'`,
    `UPDATE roles SET description = 'Public role' WHERE name = 'public' AND description = 'Anonymous callers'`,
    `UPDATE roles SET description = 'Readonly role' WHERE name = 'readonly' AND description = 'Reads everything, writes nothing'`,
    { hashApiKeys: true },
  ],
  // version 4 (issue 22): cluster nodes (seed 001 `_cluster_nodes`, SPEC §12).
  [
    `CREATE TABLE IF NOT EXISTS _cluster_nodes (
      name VARCHAR PRIMARY KEY, url VARCHAR NOT NULL, role VARCHAR NOT NULL, version VARCHAR,
      started_at TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP, last_heartbeat TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP, error VARCHAR)`,
  ],
  // version 5 (issue 17 item 8): object storages of core.storage. The secret is stored like the
  // other credentials of the core database (data source paths): in its own column, which no view
  // and no GraphQL field reads.
  [
    `CREATE TABLE IF NOT EXISTS _object_storages (
      name VARCHAR PRIMARY KEY, type VARCHAR NOT NULL, scope VARCHAR NOT NULL, key_id VARCHAR NOT NULL DEFAULT '',
      secret VARCHAR NOT NULL DEFAULT '', region VARCHAR NOT NULL DEFAULT '', endpoint VARCHAR NOT NULL DEFAULT '',
      use_ssl BOOLEAN NOT NULL DEFAULT TRUE, url_style VARCHAR NOT NULL DEFAULT 'path', url_compatibility BOOLEAN NOT NULL DEFAULT FALSE,
      kms_key_id VARCHAR NOT NULL DEFAULT '', account_id VARCHAR NOT NULL DEFAULT '')`,
  ],
];
