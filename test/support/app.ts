// Starts the whole HTTP application in-process on a fresh working directory; requests go through
// Fastify's inject (real routing, parsing and Apollo, no socket).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '../../src/config/load.js';
import { createApp } from '../../src/server.js';
import { createLogger } from '../../src/shared/logger.js';
import { type NodeParts, partsOf } from './node.js';

export const CATALOGS = join(import.meta.dirname, '..', '..', 'catalogs');
export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export interface Reply {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  runtime: NodeParts;
  dir: string;
  gql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<Reply>;
  request(opts: { method: 'GET' | 'POST'; url: string; payload?: string | Buffer; headers?: Record<string, string> }): Promise<Reply>;
  close(): Promise<void>;
}

/** A fresh working directory (DuckDB files, core database) for one test app. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

/** The app being started: the next waits for it (see startApp). */
let starting: Promise<unknown> = Promise.resolve();

/**
 * A test app in its own working directory. Apps start one at a time: the directory is the process's
 * (process.chdir), and the example catalog's DuckDB file is a relative path opened while the app
 * starts, so two apps started side by side both opened the second one's file, and one of them read
 * it half-seeded (test/jq/wait.test.ts once read no shop_tags).
 */
export function startApp(env: Record<string, string> = {}, imports: import('@nestjs/common').ModuleMetadata['imports'] = []): Promise<TestApp> {
  const started = starting.then(() => start(env, imports));
  starting = started.catch(() => undefined);
  return started;
}

async function start(env: Record<string, string>, imports: import('@nestjs/common').ModuleMetadata['imports']): Promise<TestApp> {
  const dir = env.SVC_TEST_DIR ?? tempDir();
  process.chdir(dir);
  // Tests register catalogs from the fixtures and from temporary directories (CATALOG_ALLOWED_PATHS).
  const allowed = [CATALOGS, FIXTURES, tmpdir()].join(',');
  // Every anonymous request of an in-process test comes from one address (inject's 127.0.0.1), and
  // several tests send anonymous requests side by side on purpose (concurrent misses, parallel writes):
  // they keep MAX_REQUESTS_PER_CALLER's 4 rather than one per anonymous address, which
  // test/e2e/caller-gate.test.ts checks against a real server. Likewise they send documents up to
  // MAX_TOKENS (the limits tests) without signing in: ANONYMOUS_MAX_TOKENS is off here, and
  // test/e2e/refusal-hold.test.ts checks it against a real server.
  const config = loadConfig({ env: { CORE_DB_PATH: join(dir, 'core.duckdb'), CATALOGS_DIR: CATALOGS, CATALOG_ALLOWED_PATHS: allowed, LOG_LEVEL: process.env.TEST_LOG ?? 'silent', ANONYMOUS_MAX_REQUESTS_PER_ADDRESS: '0', ANONYMOUS_MAX_TOKENS: '0', ...env }, argv: [], cwd: dir });
  const app = await createApp(config, createLogger(config.LOG_LEVEL), imports);
  await app.getHttpAdapter().getInstance().ready();
  const fastify = app.getHttpAdapter().getInstance();
  const request: TestApp['request'] = async (opts) => {
    const r = await fastify.inject({ method: opts.method, url: opts.url, payload: opts.payload, headers: opts.headers });
    let body: unknown;
    try {
      body = JSON.parse(r.body);
    } catch {
      body = undefined;
    }
    return { status: r.statusCode, headers: r.headers, body, text: r.body };
  };
  return {
    app,
    runtime: partsOf(app),
    dir,
    request,
    gql: (query, variables, headers) =>
      request({ method: 'POST', url: '/query', payload: JSON.stringify({ query, variables }), headers: { 'content-type': 'application/json', ...headers } }),
    close: () => app.close(),
  };
}
