import { readFileSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ConfigError, type SecretsConfig } from './config.js';
import { RequestContext, type App } from './context.js';
import { answerPreflight, applyCors } from './cors.js';
import { Delegations } from './delegation.js';
import { TokenExchanger } from './exchange.js';
import { messageLine, requestLine, type LogSink } from './log.js';
import { ProblemError, problem, writeProblem } from './problem.js';
import { routesFor, stripPrefix } from './router.js';
import { Minter } from './serve.js';
import { SecretStore } from './store.js';
import { TokenVerifier } from './tokens.js';

export interface ServerDeps {
  /** an already opened store; otherwise the config's store is opened (and may throw StoreOpenError) */
  store?: SecretStore;
  /** where log lines go; one JSON object per line */
  log?: LogSink;
  now?: () => number;
  fetch?: typeof fetch;
  /** bound on each identity-provider request */
  idpTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface SecretsServer {
  server: Server;
  app: App;
  /** listens on the config's address, or on the given port and host (tests use 0 and 127.0.0.1) */
  listen(port?: number, host?: string): Promise<{ host: string; port: number; url: string }>;
  close(): Promise<void>;
}

export function createSecretsServer(config: SecretsConfig, deps: ServerDeps = {}): SecretsServer {
  const sink: LogSink = deps.log ?? ((line) => process.stdout.write(`${line}\n`));
  const now = deps.now ?? Date.now;
  const log = (message: string) => sink(messageLine(message, new Date(now())));
  const store = deps.store ?? SecretStore.open({ ...config.store, env: deps.env ?? process.env, log });
  const fetchDeps = { fetch: deps.fetch ?? fetch, now, timeoutMs: deps.idpTimeoutMs ?? 5_000 };
  const verifier = new TokenVerifier(config.issuers, fetchDeps);
  const ownAudiences = [...new Set(config.issuers.map((i) => i.audience))];
  const exchanger = new TokenExchanger(verifier, fetchDeps, ownAudiences);
  const app: App = {
    config, store, verifier, exchanger, minter: new Minter(verifier, exchanger, now),
    delegations: new Delegations(now), now, log, ownAudiences,
  };
  const prefix = new URL(config.publicUrl).pathname.replace(/\/+$/, '');
  const handler = (req: IncomingMessage, res: ServerResponse) => void handle(app, prefix, sink, req, res);
  const server = config.tls ? createHttps(readTls(config.tls), handler) : createHttp(handler);
  return {
    server,
    app,
    listen(port = config.listen.port, host = config.listen.host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const a = server.address() as AddressInfo;
          const h = a.family === 'IPv6' ? `[${a.address}]` : a.address;
          resolve({ host: a.address, port: a.port, url: `${config.tls ? 'https' : 'http'}://${h}:${a.port}` });
        });
      });
    },
    close() {
      app.delegations.close();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function handle(app: App, prefix: string, sink: LogSink, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const rawUrl = req.url ?? '/';
  const [rawPath = '', rawQuery = ''] = splitOnce(rawUrl, '?');
  const ctx = new RequestContext(app, req, res, new URLSearchParams(rawQuery));
  let logged = false;
  const writeLog = () => {
    if (logged) return;
    logged = true;
    sink(requestLine({
      method: req.method ?? '?', path: rawPath, status: res.statusCode, durationMs: performance.now() - started,
      traceparent: req.headers.traceparent,
      ...(ctx.subject ? { subject: ctx.subject } : {}), ...(ctx.actor ? { actor: ctx.actor } : {}),
    }, new Date(app.now())));
  };
  res.on('finish', writeLog);
  res.on('close', writeLog);
  try {
    const routes = rawPath.startsWith('/') ? routesFor(stripPrefix(rawPath, prefix)) : undefined;
    if (req.method === 'OPTIONS' && routes) return answerPreflight(req, res, app.config.corsOrigins);
    applyCors(req, res, app.config.corsOrigins);
    const route = routes?.[req.method ?? ''];
    // Unknown routes and methods share the not_found code (SPEC §15 Errors).
    if (!route) throw problem('not_found', 'no such route');
    await route(ctx);
  } catch (err) {
    fail(app, req, res, err);
  }
}

function fail(app: App, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof ProblemError) {
    if (err.closeConnection) res.setHeader('Connection', 'close');
    writeProblem(res, err);
    return;
  }
  // Internal faults are logged by kind only: a message could quote a request value.
  app.log(`internal error on ${req.method ?? '?'}: ${err instanceof Error ? err.name : typeof err}`);
  writeProblem(res, problem('service_error', 'internal error'));
}

function readTls(tls: { cert: string; key: string }): { cert: Buffer; key: Buffer } {
  const read = (what: 'cert' | 'key') => {
    try {
      return readFileSync(tls[what]);
    } catch (err) {
      throw new ConfigError(`config tls.${what}: cannot read ${tls[what]}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  };
  return { cert: read('cert'), key: read('key') };
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}
