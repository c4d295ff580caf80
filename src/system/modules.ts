// The system modules of seed 001 as one list, so the server and codegen serve the same surface:
// the server's own functions, the types they return, and the system catalogs beside `core`.
import { AUTH_FUNCTIONS, AUTH_TYPES_SDL } from '../auth/functions.js';
import type { ResolvedCatalog } from '../catalog/model.js';
import type { SystemFunction } from '../schema/surface.js';
import { SYSTEM_FUNCTIONS } from './functions.js';
import { INFO_FUNCTIONS, INFO_TYPES_SDL } from './info.js';
import { compileMetaCatalog } from './meta/catalog.js';
import { SCHEMA_FUNCTIONS } from './catalog/functions.js';
import { compileCatalogViews } from './catalog/views.js';

export const ALL_SYSTEM_FUNCTIONS: readonly SystemFunction[] = [...SYSTEM_FUNCTIONS, ...AUTH_FUNCTIONS, ...INFO_FUNCTIONS, ...SCHEMA_FUNCTIONS];

export const SYSTEM_TYPES_SDL: readonly string[] = [...AUTH_TYPES_SDL, ...INFO_TYPES_SDL];

/** System catalogs other than `core` (codegen shows them compiled for a DuckDB core database). */
export const SYSTEM_CATALOGS = (): ResolvedCatalog[] => [compileMetaCatalog(), compileCatalogViews('duckdb')];
