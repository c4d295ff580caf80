import { request } from 'node:http';
import { parseConfig } from '../../../src/secrets-server/config.js';
import { createSecretsServer, type SecretsServer, type ServerDeps } from '../../../src/secrets-server/server.js';
import { logLines } from './sensitive.js';
import type { TestIdp } from './idp.js';

// Starts a secrets server on 127.0.0.1, port 0, from a config document, and talks to it over raw HTTP so
// that tests control every byte of the path, headers and body.

export const AUDIENCE = 'svc-secrets';
export const EXCHANGE_CLIENT = { id: 'secrets-exchange', secret: 'exchange-client-secret-value' };

export interface Started {
  url: string;
  s: SecretsServer;
  lines: string[];
  call(method: string, path: string, o?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** sent as is, no JSON encoding */
  raw?: Buffer | string;
  /** send the body chunked, without Content-Length */
  chunked?: boolean;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** A config document with one issuer per identity provider, admins and actors as given. */
export function configDoc(idps: TestIdp[], extra: Record<string, unknown> = {}, issuerExtra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    listen: '127.0.0.1:0',
    issuers: idps.map((idp) => ({
      issuer: idp.issuer,
      audience: AUDIENCE,
      roles_claim: 'realm_access.roles',
      groups_claim: 'groups',
      service: { claim: 'client_type', equals: 'service' },
      exchange: { client_id: EXCHANGE_CLIENT.id, client_secret_env: 'TEST_EXCHANGE_SECRET' },
      ...issuerExtra,
    })),
    policy: { admins: ['role:admin'], actors: [] },
    ...extra,
  };
}

export const testEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ TEST_EXCHANGE_SECRET: EXCHANGE_CLIENT.secret, ...extra });

export async function startServer(doc: Record<string, unknown>, deps: ServerDeps = {}): Promise<Started> {
  const env = deps.env ?? testEnv();
  const config = parseConfig(doc, env);
  const lines: string[] = [];
  const s = createSecretsServer(config, {
    idpTimeoutMs: 2_000,
    ...deps,
    env,
    log: (line) => {
      lines.push(line);
      logLines.push(line);
    },
  });
  const { url } = await s.listen(0, '127.0.0.1');
  return { url, s, lines, call: (m, p, o) => call(url, m, p, o), close: () => s.close() };
}

export function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: Buffer | undefined;
  if (o.raw !== undefined) body = Buffer.from(o.raw);
  else if (o.body !== undefined) body = Buffer.from(JSON.stringify(o.body));
  if (body) {
    headers['content-type'] ??= 'application/json';
    if (!o.chunked) headers['content-length'] = String(body.length);
  }
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Encodes a name as one path segment. */
export const seg = (name: string): string => encodeURIComponent(name);

export const secretBody = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 's3', provider: 'config', scope: ['s3://bucket'], params, redact_keys: [], ...extra,
});
