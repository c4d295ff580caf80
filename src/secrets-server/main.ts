import { ConfigError, loadConfigFile } from './config.js';
import { createSecretsServer } from './server.js';
import { StoreOpenError } from './store-file.js';

// Entry point: `node dist/src/secrets-server/main.js -config FILE` (seed 002: the path comes by `-config`).

function configPath(argv: string[]): string {
  const i = argv.findIndex((a) => a === '-config' || a === '--config');
  if (i >= 0 && argv[i + 1]) return argv[i + 1] as string;
  const eq = argv.find((a) => a.startsWith('-config=') || a.startsWith('--config='));
  if (eq) return eq.slice(eq.indexOf('=') + 1);
  throw new ConfigError('usage: secrets-server -config FILE');
}

async function main(): Promise<void> {
  const config = loadConfigFile(configPath(process.argv.slice(2)));
  const s = createSecretsServer(config);
  const addr = await s.listen();
  s.app.log(`duckdb-secrets/1 server listening on ${addr.url} (api ${config.publicUrl}, store ${config.store.path ?? 'in memory'})`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof StoreOpenError;
  const code = (err as NodeJS.ErrnoException).code;
  process.stderr.write(`secrets-server: ${known ? (err as Error).message : `cannot start: ${code ?? (err as Error).message}`}\n`);
  process.exit(1);
});
