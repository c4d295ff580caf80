// What a kind of data source is (SPEC §3.1 `type`), said once, in its own folder
// (src/sources/<kind>/index.ts), the way Kysely's `Dialect` gathers a driver, a query compiler and an
// introspector. The registry (src/sources/kinds.ts) lists the kinds; every list of kinds the server
// keeps (source.yaml's `type`, opening a source, self-defined catalogs, the h3 root query, the
// database check, codegen's order) is read from it, so a new kind is its folder plus one line there.
import type { CatalogTraits } from '../catalog/compile.js';
import type { ResolvedCatalog } from '../catalog/model.js';
import type { Config } from '../config/schema.js';
import type { DbColumnKind } from './column-types.js';
import type { DuckDbEngine } from './duckdb/engine.js';
import type { JqRunner } from './http/request.js';
import type { LocalFileReader } from './http/source.js';
import type { IntrospectedCatalog } from './introspect-sdl.js';
import type { DataSourceRuntime, Row, StatementCompiler } from './types.js';

/** A data source row, as far as opening it is concerned (core.data_sources, source.yaml). */
export interface SourceSpec {
  readonly name: string;
  readonly type: string;
  readonly path: string;
  readonly read_only: boolean | null;
  readonly seedFile?: string;
  /** A DuckDB file may be created (source.yaml `create: true`, a `?create=true` path, the core database). */
  readonly create?: boolean;
  /** The compiled catalog: an http source builds its endpoints from the catalog's functions. */
  readonly catalog?: ResolvedCatalog;
}

/** What the server lends a kind to open and read its sources. */
export interface KindContext {
  readonly config: Config;
  /** The embedded DuckDB: it attaches DuckDB files and runs http sources' views. */
  readonly engine: DuckDbEngine;
  /** jq for http sources in hugr's form (their catalog SQL's jq argument). */
  readonly jq?: JqRunner;
  /** Local files an http source's x-svc-spec-path may name (within CATALOG_ALLOWED_PATHS). */
  readonly readFile?: LocalFileReader;
}

/** How the load check (src/sources/schema-check.ts) reads a table's columns from the database. */
export interface ColumnReader {
  /** information_schema.columns of one table, `name` and `type` (and what `kindOf` needs); `$1` schema, `$2` table, `$3` database. */
  readonly sql: string;
  /** A row of `sql` -> the type as the database names it, and what it holds. */
  columnOf(row: Row): { readonly type: string; readonly kind: DbColumnKind };
  /** Timestamp fields over naive timestamps are cast to instants (MySQL sessions read DATETIME in UTC already). */
  readonly castsNaive: boolean;
}

export interface SourceCapabilities {
  /** The catalog compiler's kind-dependent rules (src/catalog/compile.ts). */
  readonly catalog: CatalogTraits;
  /** The root h3 query offers this kind's objects (its compiler groups by H3 cell: `h3Cells`). */
  readonly h3: boolean;
  /** Served with no catalog files of its own (an http source answers core.http_data_source_request_scalar, as in hugr). */
  readonly catalogOptional: boolean;
  /** Its SDL changes other sources' objects: compiled against the served sources, loaded after them (SPEC §3.1). */
  readonly extendsOthers: boolean;
  /**
   * Its database is a file the embedded engine attaches: an object-storage path is read from a local
   * copy (no httpfs), and a self-defined source is opened before it is read.
   */
  readonly attachesFile: boolean;
  /** Its tables and columns are checked against the catalog when it loads (issue 29). */
  readonly columns?: ColumnReader;
  /** OpenTelemetry's `db.system.name` of its statements (default: the kind's name). */
  readonly otelName?: string;
}

export interface SourceKind<T extends string = string> {
  /** The `type` of a data source row and of source.yaml. */
  readonly type: T;
  /** Opens (connects, attaches) the runtime of a source of this kind. */
  open(spec: SourceSpec, ctx: KindContext): Promise<DataSourceRuntime>;
  /**
   * The statement compiler every source of this kind uses (the SQL dialect, src/sql/dialects/);
   * absent where each source builds its own (http, from its endpoints) or has none (extension).
   */
  readonly compiler?: StatementCompiler;
  /**
   * `self_defined: true`: the catalog SDL the source describes (its database's tables, or an
   * OpenAPI document). `loaded`: the source's runtime when it is open. Absent: the kind cannot.
   */
  introspect?(spec: SourceSpec, ctx: KindContext, loaded?: DataSourceRuntime): Promise<IntrospectedCatalog>;
  readonly capabilities: SourceCapabilities;
}

/** Whether a compiler can group rows by H3 cell (`h3Cells` of src/sql/compiler.ts): the kind's `h3`. */
export const groupsByH3Cell = (compiler: StatementCompiler): boolean => (compiler.h3Cells ?? 'none') !== 'none';
