// The `core` module (seed 001, SPEC §11): the core tables, served through the same catalog
// machinery as user sources, on whichever database CORE_DB_PATH names.

import { compileCatalog } from '../catalog/compile.js';
import type { ResolvedCatalog, SourceType } from '../catalog/model.js';
import { SOURCE_TYPES } from '../sources/kinds.js';

export const CORE_SOURCE = 'core';
/**
 * The core source carries the prefix `core`, as on the established servers (issue 17 item 10):
 * its types are `core_data_sources`, `core_roles`, ... while its module fields stay
 * `{ core { data_sources } }`.
 */
export const CORE_PREFIX = 'core';

/** The GraphQL type name of a core table (`roles` -> `core_roles`); write events and cache tags use it. */
export const coreObject = (table: string): string => `${CORE_PREFIX}_${table}`;


export const CORE_CATALOG_SDL = /* GraphQL */ `
"""Data sources registered with the server."""
type data_sources @table(name: "data_sources") {
  name: String! @pk
  "${SOURCE_TYPES.slice(0, -1).join(', ')} or ${SOURCE_TYPES.at(-1)}"
  type: String!
  "Prefix added to all types of the source"
  prefix: String!
  "Expose the source as a separate module"
  as_module: Boolean!
  description: String
  "File path, connection string or URL depending on type"
  path: String!
  disabled: Boolean
  "The source returns its own schema"
  self_defined: Boolean
  read_only: Boolean
}

"""Where catalog SDL files come from."""
type catalog_sources @table(name: "catalog_sources") {
  name: String! @pk
  "localFS, uri or uriFile (one file or URL)"
  type: String!
  description: String
  "Directory or URI"
  path: String!
}

"""Which catalog sources make up a data source's catalog."""
type catalogs @table(name: "catalogs", is_m2m: true) {
  catalog_name: String! @pk @field_references(references_name: "catalog_sources", field: "name", query: "catalog", references_query: "data_sources")
  data_source_name: String! @pk @field_references(references_name: "data_sources", field: "name", query: "data_source", references_query: "catalogs")
}

"""Roles; built in: admin, public, readonly."""
type roles @table(name: "roles") {
  name: String! @pk
  description: String!
  disabled: Boolean
}

"""What a role may see and do (SPEC §7)."""
type role_permissions @table(name: "role_permissions") {
  role: String! @pk @field_references(references_name: "roles", field: "name", query: "role_info", references_query: "permissions")
  type_name: String! @pk
  field_name: String! @pk
  hidden: Boolean
  disabled: Boolean
  filter: JSON
  data: JSON
}

"""Managed API keys (seed 000)."""
type api_keys @table(name: "api_keys") @unique(fields: ["key"], query_suffix: "by_key") {
  name: String! @pk
  description: String!
  key: String!
  default_role: String @field_references(references_name: "roles", field: "name", query: "role", references_query: "api_keys")
  disabled: Boolean
  is_temporal: Boolean
  expires_at: Timestamp
  headers: JSON
  claims: JSON
}
`;

/** The compiled core catalog, for the runtime and for codegen alike. */
export function compileCoreCatalog(type: SourceType, readOnly: boolean): ResolvedCatalog {
  return compileCatalog(
    { name: CORE_SOURCE, type, prefix: CORE_PREFIX, asModule: true, readOnly },
    [{ file: 'src/system/core-catalog.ts', text: CORE_CATALOG_SDL }],
  );
}
