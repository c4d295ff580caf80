import { isIP } from 'node:net';

/** Loopback by address or the name `localhost`; decides where plain http and missing TLS are tolerated. */
export function isLoopbackHost(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}

/** https, or http to a loopback host (seed 002: "Issuers must use https unless they are on loopback"). */
export function isSafeUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** Splits `host:port`, `[v6]:port`; the port must be a number 0-65535. */
export function parseListen(listen: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(listen);
  if (!m || m[1] === undefined || m[2] === undefined) return undefined;
  const port = Number(m[2]);
  if (port > 65535) return undefined;
  const host = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  return { host, port };
}
