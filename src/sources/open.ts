// Opens the runtime of a data source row, by type (SPEC §3.1).
import type { ResolvedCatalog } from '../catalog/model.js';
import type { Config } from '../config/schema.js';
import { substituteEnv } from '../shared/env-placeholders.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { DuckDbEngine } from './duckdb/engine.js';
import { ExtensionSource } from './extension/source.js';
import { DuckDbSource } from './duckdb/source.js';
import type { JqRunner } from './http/request.js';
import { HttpSource, type LocalFileReader } from './http/source.js';
import { MysqlSource } from './mysql/source.js';
import { PostgresSource } from './postgres/source.js';
import type { DataSourceRuntime } from './types.js';

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
  /** jq for http sources in hugr's form (their catalog SQL's jq argument). */
  readonly jq?: JqRunner;
  /** Local files an http source's x-svc-spec-path may name (within CATALOG_ALLOWED_PATHS). */
  readonly readFile?: LocalFileReader;
}

/** `data/x.duckdb?create=true` -> the path and the opt-in to create the file. */
function duckPath(path: string, create: boolean): { path: string; create: boolean } {
  const m = /^(.*)\?create=(true|false)$/.exec(path);
  return m ? { path: m[1]!, create: m[2] === 'true' } : { path, create };
}

export async function openSource(config: Config, engine: DuckDbEngine, spec: SourceSpec): Promise<DataSourceRuntime> {
  const path = substituteEnv(spec.path ?? '');
  switch (spec.type) {
    case 'duckdb':
      return DuckDbSource.attach(engine, { name: spec.name, ...duckPath(path, !!spec.create), readOnly: !!spec.read_only, ...(spec.seedFile ? { seedFile: spec.seedFile } : {}) });
    case 'postgres':
      return PostgresSource.connect({ name: spec.name, url: path, readOnly: !!spec.read_only, maxConnections: config.DB_PG_CONNECTION_LIMIT, maxIdle: config.DB_MAX_IDLE_CONNS, statementTimeoutMs: config.QUERY_TIMEOUT });
    case 'extension':
      return new ExtensionSource(spec.name);
    case 'http':
      return HttpSource.connect({ name: spec.name, path, readOnly: !!spec.read_only, queryTimeoutMs: config.QUERY_TIMEOUT, engine, ...(spec.jq ? { jq: spec.jq } : {}), ...(spec.readFile ? { readFile: spec.readFile } : {}), ...(spec.catalog ? { catalog: spec.catalog } : {}) });
    case 'mysql':
      return MysqlSource.connect({ name: spec.name, url: path, readOnly: !!spec.read_only, maxConnections: config.DB_PG_CONNECTION_LIMIT, maxIdle: config.DB_MAX_IDLE_CONNS, statementTimeoutMs: config.QUERY_TIMEOUT });
    default:
      throw new PublicError(ErrorCode.BadUserInput, `data source type "${spec.type}" is not supported yet`);
  }
}
