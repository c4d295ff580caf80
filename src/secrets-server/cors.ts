import type { IncomingMessage, ServerResponse } from 'node:http';

// Browsers (seed 002 Authentication 5): only listed origins, compared exactly, get CORS headers; no
// credentials mode, since tokens travel in the Authorization header.

const ALLOW_METHODS = 'GET, PUT, PATCH, DELETE, POST';
const ALLOW_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, Delegation, traceparent';
const EXPOSE_HEADERS = 'ETag, WWW-Authenticate';

export function allowedOrigin(req: IncomingMessage, origins: readonly string[]): string | undefined {
  const origin = req.headers.origin;
  return typeof origin === 'string' && origins.includes(origin) ? origin : undefined;
}

/** Marks an actual response; every response varies by Origin so a cache never crosses origins. */
export function applyCors(req: IncomingMessage, res: ServerResponse, origins: readonly string[]): void {
  res.setHeader('Vary', 'Origin');
  const origin = allowedOrigin(req, origins);
  if (!origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
}

/** Answers a preflight: 204 always, with the permissions only for a listed origin. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, origins: readonly string[]): void {
  res.setHeader('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  const origin = allowedOrigin(req, origins);
  if (origin && typeof req.headers['access-control-request-method'] === 'string') {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
  }
  res.statusCode = 204;
  res.end();
}
