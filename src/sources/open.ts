// Opens the runtime of a data source row, by type (SPEC §3.1).
import type { Config } from '../config/schema.js';
import { substituteEnv } from '../shared/env-placeholders.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { DuckDbEngine } from './duckdb/engine.js';
import { DuckDbSource } from './duckdb/source.js';
import { PostgresSource } from './postgres/source.js';
import type { DataSourceRuntime } from './types.js';

export interface SourceSpec {
  readonly name: string;
  readonly type: string;
  readonly path: string;
  readonly read_only: boolean | null;
  readonly seedFile?: string;
}

export async function openSource(config: Config, engine: DuckDbEngine, spec: SourceSpec): Promise<DataSourceRuntime> {
  const path = substituteEnv(spec.path ?? '');
  switch (spec.type) {
    case 'duckdb':
      return DuckDbSource.attach(engine, { name: spec.name, path, readOnly: !!spec.read_only, ...(spec.seedFile ? { seedFile: spec.seedFile } : {}) });
    case 'postgres':
      return PostgresSource.connect({ name: spec.name, url: path, readOnly: !!spec.read_only, maxConnections: config.DB_PG_CONNECTION_LIMIT, statementTimeoutMs: config.QUERY_TIMEOUT });
    default:
      throw new PublicError(ErrorCode.BadUserInput, `data source type "${spec.type}" is not supported yet`);
  }
}
