// Structured logs (pino). Secrets never reach them: headers and bodies are not logged, and
// the serialisers below drop anything that looks like a credential.
import { pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import { lazyRequire } from './lazy-require.js';
import { currentRequest, type RequestScope } from './request-scope.js';

// pino-pretty is loaded only for LOG_FORMAT=pretty (issue 30: ~0.5 MB of heap a JSON log does not need).
const pinoPretty = lazyRequire<typeof PinoPretty>('pino-pretty');

export type Logger = pino.Logger;

/** `json`: one JSON object a line (collectors); `pretty`: one readable line (people, `npm run dev`). */
export type LogFormat = 'json' | 'pretty';

export function createLogger(level: string, format: LogFormat = 'json', destination?: NodeJS.WritableStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    // Every line written while serving a request carries its id (the id the client also gets).
    mixin: () => {
      const scope = currentRequest();
      return scope ? { request_id: scope.id } : {};
    },
    redact: { paths: ['*.authorization', '*.password', '*.secret', '*.token', '*.key', 'req.headers'], censor: '[redacted]' },
  };
  if (format === 'pretty') {
    const out = destination ?? process.stdout;
    const stream = pinoPretty()({
      destination: out,
      sync: true,
      colorize: !destination && process.stdout.isTTY,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
    });
    return pino(options, stream);
  }
  // stdout written asynchronously (sonic-boom): a request does not wait for its line to reach a pipe
  // or a terminal. pino flushes what is buffered when the process exits.
  return destination ? pino(options, destination) : pino(options, pino.destination({ dest: 1, sync: false }));
}

/**
 * The logger for a line written while `scope`'s request is served: its lines carry its request_id
 * where the AsyncLocalStorage does not hold the scope (the prepared /query path,
 * src/shared/request-scope.ts); elsewhere the mixin adds it. Made only when a line is written.
 */
export function requestLogger(log: Logger, scope: RequestScope | undefined): Logger {
  return scope && currentRequest() !== scope ? log.child({ request_id: scope.id }) : log;
}

/** Nest's own messages (warnings, errors) into the structured log. */
export function nestLogger(log: Logger): { log(m: unknown): void; error(m: unknown, trace?: string): void; warn(m: unknown): void } {
  return {
    log: () => undefined,
    error: (message, trace) => log.error({ trace }, String(message)),
    warn: (message) => log.warn(String(message)),
  };
}

/** Injection token of the process's logger. */
export const LOGGER = Symbol('svc.logger');
