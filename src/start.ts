// The query service proper (src/main.ts sets the process up first).
import { createServer, type Server } from 'node:http';
import { loadConfig, parseBind } from './config/load.js';
import type { Config } from './config/schema.js';
import { PublicError } from './shared/errors.js';
import { createLogger, type Logger } from './shared/logger.js';
import { createApp } from './server.js';
import { loadExtensionModules } from './extensions/load.js';
import { ReadinessProbe } from './system/readiness.js';
import { tracingRequested } from './tracing/requested.js';
import { slowStep, startStep } from './shared/start-steps.js';

const PROBES = new Set(['/health', '/ready', '/metrics']);

async function main(): Promise<void> {
  // Node's clock starts with the process: what has passed is the loading of the server's code.
  const loaded = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    // One line naming the bad key or value (SPEC §2), and no stack trace.
    console.error(`svc: ${e instanceof PublicError ? e.message : (e as Error).message}`);
    process.exit(2);
  }
  const log = createLogger(config.LOG_LEVEL, config.LOG_FORMAT);
  slowStep(log, 'loading the server code', loaded);
  // Tracing only when the OTEL_* variables ask for it; the SDK is not even loaded otherwise.
  const tracing = tracingRequested(process.env) ? (await import('./tracing/sdk.js')).startTracing(process.env) : undefined;
  if (tracing) log.info('svc: OpenTelemetry tracing on');
  const { host, port } = parseBind(config.BIND);
  // A team's own Nest modules (EXTENSIONS), imported into the application (docs/extending.md).
  const extensions = await startStep(log, 'loading extension modules', () => loadExtensionModules(config.EXTENSIONS, process.cwd()));
  const app = await startStep(log, 'building the application (core database, data sources, schema)', () => createApp(config, log, extensions));
  await startStep(log, 'opening the listener', () => app.listen(port, host));
  let service: Server | undefined;
  if (config.SERVICE_BIND) {
    // /health, /ready and /metrics on their own listener (SPEC §2 SERVICE_BIND), e.g. for a probe port.
    const bind = parseBind(config.SERVICE_BIND);
    const fastify = app.getHttpAdapter().getInstance();
    service = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (!PROBES.has(path)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      void fastify.inject({ method: 'GET', url: path }).then((r) => {
        res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'text/plain') }).end(r.body);
      });
    }).listen(bind.port, bind.host);
    log.info(`svc health and metrics on http://${bind.host}:${bind.port}/health`);
  }
  stopOnSignals(config, log, async () => {
    app.get(ReadinessProbe).markStopping();
    if (config.SHUTDOWN_DELAY) {
      // Load balancers see /ready at 503 and stop sending before the listener goes away.
      log.info({ delay_ms: config.SHUTDOWN_DELAY }, 'svc: /ready is 503; serving on for SHUTDOWN_DELAY');
      await new Promise((r) => setTimeout(r, config.SHUTDOWN_DELAY));
    }
    service?.close();
    // Fastify stops accepting connections, lets the requests in flight finish, then the Nest
    // shutdown hooks stop Apollo and close the sources. A keep-alive connection whose request
    // finishes during the wait would hold the close open until the client drops it: close
    // connections as soon as they turn idle.
    const http = app.getHttpServer() as Server;
    const idle = setInterval(() => http.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearInterval(idle);
    }
    // The last spans go out before the process ends.
    await tracing?.shutdown();
  });
  const shown = host === '0.0.0.0' ? 'localhost' : host;
  const scheme = config.TLS_CERT_FILE && config.TLS_KEY_FILE ? 'https' : 'http';
  log.info(`svc listening on ${scheme}://${shown}:${port}/query${config.ADMIN_UI ? ` (explorer: ${scheme}://${shown}:${port}/admin)` : ''}`);
}

/**
 * SIGTERM or SIGINT: /ready turns 503, requests in flight finish, sources close, exit 0. Exit 1
 * when SHUTDOWN_TIMEOUT passes first or a second signal comes.
 */
function stopOnSignals(config: Config, log: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C does not wait.
      log.warn({ signal }, 'svc: second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'svc stopping: finishing the requests in flight');
    setTimeout(() => {
      log.error({ timeout_ms: config.SHUTDOWN_TIMEOUT }, 'svc: requests still running at SHUTDOWN_TIMEOUT, exiting');
      process.exit(1);
    }, config.SHUTDOWN_DELAY + config.SHUTDOWN_TIMEOUT).unref();
    stop().then(
      () => {
        log.info('svc stopped');
        log.flush?.();
        process.exit(0);
      },
      (e: unknown) => {
        log.error({ err: e }, 'svc: error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

main().catch((e: unknown) => {
  // One line and exit 2, like a bad configuration (docs/configuration.md): a source that does not
  // open, a Redis setting, a port in use. The first line of the message, never a stack trace.
  const message = e instanceof Error ? e.message : String(e);
  console.error(`svc: failed to start: ${message.split('\n')[0]}`);
  process.exit(2);
});
