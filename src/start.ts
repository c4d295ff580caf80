// The query service proper (src/main.ts sets the process up first).
import { createServer } from 'node:http';
import { loadConfig, parseBind } from './config/load.js';
import { PublicError } from './shared/errors.js';
import { createLogger } from './shared/logger.js';
import { createApp } from './server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    // One line naming the bad key or value (SPEC §2), and no stack trace.
    console.error(`svc: ${e instanceof PublicError ? e.message : (e as Error).message}`);
    process.exit(2);
  }
  const log = createLogger(config.LOG_LEVEL);
  const { host, port } = parseBind(config.BIND);
  const app = await createApp(config, log);
  await app.listen(port, host);
  if (config.SERVICE_BIND) {
    // /health and /metrics on their own listener (SPEC §2 SERVICE_BIND), e.g. for a probe port.
    const service = parseBind(config.SERVICE_BIND);
    const fastify = app.getHttpAdapter().getInstance();
    createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/health' && path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      void fastify.inject({ method: 'GET', url: path }).then((r) => {
        res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'text/plain') }).end(r.body);
      });
    }).listen(service.port, service.host);
    log.info(`svc health and metrics on http://${service.host}:${service.port}/health`);
  }
  const shown = host === '0.0.0.0' ? 'localhost' : host;
  const scheme = config.TLS_CERT_FILE && config.TLS_KEY_FILE ? 'https' : 'http';
  log.info(`svc listening on ${scheme}://${shown}:${port}/query${config.ADMIN_UI ? ` (explorer: ${scheme}://${shown}:${port}/admin)` : ''}`);
}

main().catch((e: unknown) => {
  console.error(`svc: failed to start: ${e instanceof PublicError ? e.message : (e as Error).stack ?? String(e)}`);
  process.exit(1);
});
