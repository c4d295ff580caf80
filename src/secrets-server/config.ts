import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { isLoopbackHost, isSafeUrl, parseListen } from './net.js';
import { VERBS, isPrincipal } from './policy-names.js';

// The configuration file of seed 002 "Configuration file" and SPEC §15; every object is strict so a
// misspelt key stops the start instead of silently weakening the policy.

// Asymmetric only (seed 002 rule 5): `none` and HS* never verify a token here.
export const ASYMMETRIC_ALGORITHMS = [
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519',
] as const;

const nonEmpty = z.string().min(1);
const principal = nonEmpty.refine(isPrincipal, { message: 'must be subject:<issuer>|<sub>, role:<name>, group:<name> or client:<name>' });

const issuerSchema = z.strictObject({
  issuer: nonEmpty,
  audience: nonEmpty,
  client_id: nonEmpty.optional(),
  scopes: z.array(nonEmpty).optional(),
  human_flows: z.array(z.enum(['authorization_code', 'device_code'])).optional(),
  service_flows: z.array(z.enum(['client_credentials', 'private_key_jwt', 'federated', 'managed_identity'])).optional(),
  audience_parameter: z.boolean().optional(),
  roles_claim: nonEmpty.optional(),
  groups_claim: nonEmpty.optional(),
  service: z.strictObject({ claim: nonEmpty, equals: z.union([z.string(), z.number(), z.boolean()]).optional() }).optional(),
  client_claim: nonEmpty.default('azp'),
  exchange: z.strictObject({ client_id: nonEmpty, client_secret_env: nonEmpty }).optional(),
  algorithms: z.array(z.enum(ASYMMETRIC_ALGORITHMS)).min(1).default(['RS256', 'ES256']),
});

const actorSchema = z.strictObject({
  principal,
  issuer: nonEmpty.optional(),
  verbs: z.array(z.enum(VERBS)),
});

const configSchema = z.strictObject({
  listen: nonEmpty,
  public_url: nonEmpty.optional(),
  tls: z.strictObject({ cert: nonEmpty, key: nonEmpty }).optional(),
  store: z.strictObject({ path: nonEmpty.optional(), key_env: nonEmpty.optional() }).optional(),
  issuers: z.array(issuerSchema).min(1),
  policy: z.strictObject({
    admins: z.array(principal).default([]),
    actors: z.array(actorSchema).default([]),
  }).default({ admins: [], actors: [] }),
  cors_origins: z.array(nonEmpty).default([]),
});

type RawConfig = z.infer<typeof configSchema>;
export type RawIssuer = z.infer<typeof issuerSchema>;

export interface IssuerConfig extends Omit<RawIssuer, 'exchange'> {
  /** The exchange client with its secret already read from the environment. */
  exchange?: { client_id: string; client_secret: string };
}

export interface ActorConfig { principal: string; issuer?: string; verbs: string[] }

export interface SecretsConfig {
  listen: { host: string; port: number };
  publicUrl: string;
  tls?: { cert: string; key: string };
  store: { path?: string; keyEnv?: string };
  issuers: IssuerConfig[];
  admins: string[];
  actors: ActorConfig[];
  corsOrigins: string[];
}

export class ConfigError extends Error {}

/** Reads and validates the file named by `-config`; every refusal names the key it is about. */
export function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): SecretsConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new ConfigError(`config file ${path} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  return parseConfig(doc, env);
}

export function parseConfig(doc: unknown, env: NodeJS.ProcessEnv = process.env): SecretsConfig {
  const policy = (doc as { policy?: Record<string, unknown> } | null)?.policy;
  if (policy && typeof policy === 'object' && 'create' in policy) {
    // Versioning 3 of seed 002: refused with the way out rather than as a bare unknown key.
    throw new ConfigError(
      'policy.create is no longer supported: principals who may create secrets are listed in policy.admins, ' +
        'and readers get `use` through grants to a role or group; move its entries to policy.admins',
    );
  }
  const parsed = configSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(top level)';
    throw new ConfigError(`config ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return finish(parsed.data, env);
}

function finish(raw: RawConfig, env: NodeJS.ProcessEnv): SecretsConfig {
  const listen = parseListen(raw.listen);
  if (!listen) throw new ConfigError(`config listen: "${raw.listen}" is not host:port`);
  if (!raw.tls && !isLoopbackHost(listen.host)) {
    throw new ConfigError(`config tls: required when listening on ${listen.host}, which is not loopback`);
  }
  const scheme = raw.tls ? 'https' : 'http';
  const publicUrl = (raw.public_url ?? `${scheme}://${raw.listen}`).replace(/\/+$/, '');
  let pub: URL;
  try {
    pub = new URL(publicUrl);
  } catch {
    throw new ConfigError(`config public_url: "${raw.public_url}" is not a URL`);
  }
  if (pub.search || pub.hash) throw new ConfigError('config public_url: no query or fragment');
  if (raw.store?.path && !raw.store.key_env) throw new ConfigError('config store.key_env: required with store.path');

  const seen = new Set<string>();
  const issuers = raw.issuers.map((iss, i): IssuerConfig => {
    let url: URL;
    try {
      url = new URL(iss.issuer);
    } catch {
      throw new ConfigError(`config issuers.${i}.issuer: "${iss.issuer}" is not a URL`);
    }
    if (!isSafeUrl(url)) throw new ConfigError(`config issuers.${i}.issuer: https required unless on loopback`);
    if (seen.has(iss.issuer)) throw new ConfigError(`config issuers.${i}.issuer: "${iss.issuer}" is listed twice`);
    seen.add(iss.issuer);
    const { exchange, ...rest } = iss;
    if (!exchange) return rest;
    const secret = env[exchange.client_secret_env];
    if (!secret) {
      throw new ConfigError(`config issuers.${i}.exchange.client_secret_env: environment variable ${exchange.client_secret_env} is not set`);
    }
    return { ...rest, exchange: { client_id: exchange.client_id, client_secret: secret } };
  });

  raw.policy.actors.forEach((a, i) => {
    if (a.issuer !== undefined && !seen.has(a.issuer)) {
      throw new ConfigError(`config policy.actors.${i}.issuer: "${a.issuer}" is not one of the issuers`);
    }
  });

  const corsOrigins = raw.cors_origins.map((o, i) => checkOrigin(o, i));
  return {
    listen,
    publicUrl,
    ...(raw.tls ? { tls: raw.tls } : {}),
    store: { ...(raw.store?.path ? { path: raw.store.path } : {}), ...(raw.store?.key_env ? { keyEnv: raw.store.key_env } : {}) },
    issuers,
    admins: raw.policy.admins,
    actors: raw.policy.actors.map((a) => ({ principal: a.principal, ...(a.issuer ? { issuer: a.issuer } : {}), verbs: a.verbs })),
    corsOrigins,
  };
}

/** An origin is written exactly as a browser sends it: `https://host[:port]`, http only for loopback. */
function checkOrigin(origin: string, i: number): string {
  const bad = (why: string) => new ConfigError(`config cors_origins.${i}: "${origin}" ${why}`);
  if (origin.includes('*')) throw bad('contains a wildcard; list each origin');
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw bad('is not an origin');
  }
  if (!isSafeUrl(url)) throw bad('must be https (http only on loopback)');
  if (url.origin !== origin) throw bad(`is not in origin form; write "${url.origin}"`);
  return origin;
}
