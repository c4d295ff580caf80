// Structured logs (pino). Secrets never reach them: headers and bodies are not logged, and
// the serialisers below drop anything that looks like a credential.
import { pino } from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['*.authorization', '*.password', '*.secret', '*.token', '*.key', 'req.headers'], censor: '[redacted]' },
  });
}
