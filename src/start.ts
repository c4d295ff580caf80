// The query service proper (src/main.ts sets the process up first).
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
  const shown = host === '0.0.0.0' ? 'localhost' : host;
  log.info(`svc listening on http://${shown}:${port}/query${config.ADMIN_UI ? ` (explorer: http://${shown}:${port}/admin)` : ''}`);
}

main().catch((e: unknown) => {
  console.error(`svc: failed to start: ${e instanceof PublicError ? e.message : (e as Error).stack ?? String(e)}`);
  process.exit(1);
});
