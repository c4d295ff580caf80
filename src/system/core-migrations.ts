// Core database schema, versioned. An older database is migrated forward at start; a newer one is
// refused with a clear message (SPEC §11). The same DDL runs on DuckDB and PostgreSQL; `JSON`
// becomes `JSONB` on PostgreSQL.

export const CORE_SCHEMA_VERSION = 1;

export const MIGRATIONS: readonly (readonly string[])[] = [
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
];
