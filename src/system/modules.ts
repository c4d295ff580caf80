// The system modules of seed 001 as one list, so the server and codegen serve the same surface:
// the server's own functions, the types they return, and the system catalogs beside `core`.
import { AUTH_FUNCTIONS, AUTH_TYPES_SDL, OPEN_AUTH_HANDLERS } from './auth-functions.js';
import type { SecretKind } from '../permissions/access.js';
import type { SystemSurface } from '../permissions/scope.js';
import { CORE_SOURCE } from './core-catalog.js';
import type { ResolvedCatalog } from '../catalog/model.js';
import type { SystemFunction } from '../schema/surface.js';
import { SYSTEM_FUNCTIONS } from './functions.js';
import { INFO_FUNCTIONS, INFO_TYPES_SDL } from './info.js';
import { compileMetaCatalog, META_SOURCE } from './meta/catalog.js';
import { SCHEMA_FUNCTIONS } from './catalog/functions.js';
import { CATALOG_VIEWS_SOURCE, compileCatalogViews } from './catalog/views.js';
import { GIS_FUNCTIONS } from './gis/functions.js';
import { CLUSTER_FUNCTIONS } from './cluster/functions.js';
import { CLUSTER_SOURCE, compileClusterViews } from './cluster/nodes.js';
import { STORAGE_FUNCTIONS, STORAGE_TYPES_SDL } from './storage/functions.js';
import { compileStorageViews, STORAGE_SOURCE } from './storage/views.js';

export const ALL_SYSTEM_FUNCTIONS: readonly SystemFunction[] = [...SYSTEM_FUNCTIONS, ...AUTH_FUNCTIONS, ...INFO_FUNCTIONS, ...SCHEMA_FUNCTIONS, ...GIS_FUNCTIONS, ...CLUSTER_FUNCTIONS, ...STORAGE_FUNCTIONS];

export const SYSTEM_TYPES_SDL: readonly string[] = [...AUTH_TYPES_SDL, ...INFO_TYPES_SDL, ...STORAGE_TYPES_SDL];

/** System catalogs other than `core` (codegen shows them compiled for a DuckDB core database). */
export const SYSTEM_CATALOGS = (): ResolvedCatalog[] => [compileMetaCatalog(), compileCatalogViews('duckdb'), compileClusterViews('duckdb'), compileStorageViews('duckdb')];

/**
 * The system modules as access decisions see them (issue 14): their objects are closed to every role
 * but admin unless a row grants them; `me`, `my_permissions` and `check_access` are open to all;
 * API keys are stored hashed and passwords in paths are shown masked.
 */
export const SYSTEM_SURFACE: SystemSurface = {
  sources: new Set([CORE_SOURCE, META_SOURCE, CATALOG_VIEWS_SOURCE, CLUSTER_SOURCE, STORAGE_SOURCE]),
  openHandlers: OPEN_AUTH_HANDLERS,
  secrets: new Map<string, ReadonlyMap<string, SecretKind>>([
    [`${CORE_SOURCE}.api_keys`, new Map([['key', 'hash']])],
    [`${CORE_SOURCE}.data_sources`, new Map([['path', 'mask']])],
    [`${CORE_SOURCE}.catalog_sources`, new Map([['path', 'mask']])],
  ]),
};
