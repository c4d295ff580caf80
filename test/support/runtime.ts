// Starts the data side of the server (no HTTP) on a fresh temporary directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execute, parse, validate } from 'graphql';
import { loadConfig } from '../../src/config/load.js';
import { RequestContext } from '../../src/executor/request-context.js';
import { byResponseKey } from '../../src/pipeline/by-response-key.js';
import { createLogger } from '../../src/shared/logger.js';
import { SvcRuntime } from '../../src/system/runtime.js';

const CATALOGS = join(import.meta.dirname, '..', '..', 'catalogs');

export async function startRuntime(env: Record<string, string> = {}): Promise<SvcRuntime> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const allowed = [CATALOGS, join(import.meta.dirname, '..', 'fixtures'), tmpdir()].join(',');
  const config = loadConfig({ env: { CORE_DB_PATH: join(dir, 'core.duckdb'), CATALOGS_DIR: CATALOGS, CATALOG_ALLOWED_PATHS: allowed, SVC_DATA_DIR: dir, ...env }, argv: [] });
  return SvcRuntime.start(config, createLogger(process.env.TEST_LOG ?? 'silent'));
}

export async function run(rt: SvcRuntime, query: string, variables: Record<string, unknown> = {}) {
  const { schema } = rt.schema.current;
  const doc = parse(query);
  const errors = validate(schema, doc);
  if (errors.length) return { errors: errors.map((e) => e.message) };
  const ctx = new RequestContext({ role: 'admin', userId: null, userName: 'test', authType: 'test' });
  const result = await execute({ schema, document: doc, variableValues: variables, contextValue: ctx, fieldResolver: byResponseKey });
  await ctx.transactions.end(!result.errors?.length);
  return { data: result.data, errors: result.errors?.map((e) => e.message), statements: ctx.statements };
}
