// Loads configuration from the environment, a `.env` file and an optional YAML file (SPEC §2).
// The environment wins over the file; an unknown YAML key or an invalid value stops the start
// with one line naming it.
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { authSchema, cacheSchema, type Config, settingsShape } from './schema.js';


export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  argv?: string[];
  cwd?: string;
}

function configFileFrom(argv: string[], env: NodeJS.ProcessEnv): string | undefined {
  const i = argv.findIndex((a) => a === '--config' || a === '-config');
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith('--config='));
  if (eq) return eq.slice('--config='.length);
  return env.CONFIG_FILE || undefined;
}

function fail(message: string): never {
  throw new PublicError(ErrorCode.ConfigInvalid, message);
}

function describeIssue(issue: z.core.$ZodIssue, origin: string): string {
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const where = path ? `${path}.` : '';
    return `unknown configuration key "${where}${issue.keys[0]}" in ${origin}`;
  }
  return `invalid configuration value for "${path}" in ${origin}: ${issue.message}`;
}

/** Reads and validates the whole configuration. Throws a PublicError with a one-line message. */
export function loadConfig(options: LoadOptions = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const dotenvPath = `${cwd}/.env`;
  const dotenv = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const env = { ...dotenv, ...(options.env ?? process.env) };
  const file = configFileFrom(options.argv ?? process.argv.slice(2), env);

  let yaml: Record<string, unknown> = {};
  if (file) {
    if (!existsSync(file)) fail(`configuration file "${file}" does not exist`);
    try {
      yaml = (parseYaml(readFileSync(file, 'utf8')) as Record<string, unknown> | null) ?? {};
    } catch (e) {
      fail(`configuration file "${file}" is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    if (typeof yaml !== 'object' || Array.isArray(yaml)) fail(`configuration file "${file}" must hold a mapping`);
  }

  const { auth, cache, ...flatYaml } = yaml;
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flatYaml)) flat[k.toUpperCase()] = v;
  for (const k of Object.keys(flat)) {
    if (!(k in settingsShape)) fail(`unknown configuration key "${k.toLowerCase()}" in ${file}`);
  }
  for (const k of Object.keys(settingsShape)) {
    const v = env[k];
    if (v !== undefined && v !== '') flat[k] = v;
  }

  const settings = z.strictObject(settingsShape).safeParse(flat);
  if (!settings.success) fail(describeIssue(settings.error.issues[0]!, file && !env[String(settings.error.issues[0]!.path[0])] ? file : 'environment'));

  const authIn = mergeAuthEnv((auth as Record<string, unknown>) ?? {}, env);
  const authParsed = authSchema.safeParse(authIn);
  if (!authParsed.success) fail(describeIssue({ ...authParsed.error.issues[0]!, path: ['auth', ...authParsed.error.issues[0]!.path] }, file ?? 'environment'));
  const cacheParsed = cacheSchema.safeParse(mergeCacheEnv((cache as Record<string, unknown>) ?? {}, env));
  if (!cacheParsed.success) fail(describeIssue({ ...cacheParsed.error.issues[0]!, path: ['cache', ...cacheParsed.error.issues[0]!.path] }, file ?? 'environment'));

  const config: Config = { ...settings.data, auth: authParsed.data, cache: cacheParsed.data, configFile: file };
  // `auth.anonymous.*` and the flat variables name the same thing; the environment wins.
  const anon = authParsed.data.anonymous;
  if (anon?.enabled !== undefined && env.ALLOWED_ANONYMOUS === undefined) config.ALLOWED_ANONYMOUS = anon.enabled;
  if (anon?.role !== undefined && env.ANONYMOUS_ROLE === undefined) config.ANONYMOUS_ROLE = anon.role;
  if (typeof yaml.secret_key === 'string' && !env.SECRET_KEY) config.SECRET_KEY = yaml.secret_key;
  // In production an instance serves every source it declares or does not start: its supervisor
  // restarts it (a database that was not up yet) and a rolling update stops at it (docs/operations.md).
  config.STRICT_SOURCES ??= env.NODE_ENV === 'production';
  checkCluster(config);
  return config;
}

/** Cluster mode (SPEC §12) needs a shared core database and a way to authenticate internal calls. */
function checkCluster(c: Config): void {
  if (!c.CLUSTER_ENABLED) return;
  if (!/^postgres(ql)?:\/\//.test(c.CORE_DB_PATH)) {
    fail('cluster mode (CLUSTER_ENABLED) needs a PostgreSQL core database shared by every node: set CORE_DB_PATH to a postgres:// connection string');
  }
  if (!c.CLUSTER_SECRET) fail('cluster mode (CLUSTER_ENABLED) needs CLUSTER_SECRET: nodes authenticate their internal calls with it');
  if (c.CORE_DB_READONLY) fail('cluster mode (CLUSTER_ENABLED) needs a writable core database (CORE_DB_READONLY is true)');
}

function mergeAuthEnv(auth: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = { ...auth };
  if (env.OIDC_ISSUER) {
    out.oidc = {
      ...(out.oidc as object),
      issuer: env.OIDC_ISSUER,
      ...(env.OIDC_CLIENT_ID ? { client_id: env.OIDC_CLIENT_ID } : {}),
      ...(env.OIDC_CLIENT_SECRET ? { client_secret: env.OIDC_CLIENT_SECRET } : {}),
      ...(env.OIDC_REDIRECT_URL ? { redirect_uri: env.OIDC_REDIRECT_URL } : {}),
      ...(env.OIDC_ROLE_CLAIM ? { role_claim: env.OIDC_ROLE_CLAIM } : {}),
      ...(env.OIDC_SCOPE_ROLE_PREFIX ? { role_scope_prefix: env.OIDC_SCOPE_ROLE_PREFIX } : {}),
      ...(env.OIDC_SCOPES ? { additional_scopes: env.OIDC_SCOPES.split(',').map((s) => s.trim()) } : {}),
    };
  }
  return out;
}

function mergeCacheEnv(cache: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = { ...cache };
  if (env.CACHE_L1_ENABLED !== undefined) {
    out.l1 = { ...(out.l1 as object), enabled: env.CACHE_L1_ENABLED, ...(env.CACHE_L1_MAX_SIZE ? { max_size: env.CACHE_L1_MAX_SIZE } : {}), ...(env.CACHE_L1_MAX_ITEM_SIZE ? { max_item_size: env.CACHE_L1_MAX_ITEM_SIZE } : {}) };
  }
  // CACHE_L2_BACKEND alone is read too: a backend svc does not have is refused, not ignored.
  if (env.CACHE_L2_ENABLED !== undefined || env.CACHE_L2_BACKEND) {
    out.l2 = {
      ...(out.l2 as object),
      ...(env.CACHE_L2_ENABLED !== undefined ? { enabled: env.CACHE_L2_ENABLED } : {}),
      ...(env.CACHE_L2_BACKEND ? { backend: env.CACHE_L2_BACKEND } : {}),
      ...(env.CACHE_L2_ADDRESSES ? { addresses: env.CACHE_L2_ADDRESSES } : {}),
      ...(env.CACHE_L2_DATABASE ? { database: env.CACHE_L2_DATABASE } : {}),
      ...(env.CACHE_L2_USERNAME ? { username: env.CACHE_L2_USERNAME } : {}),
      ...(env.CACHE_L2_PASSWORD ? { password: env.CACHE_L2_PASSWORD } : {}),
      ...(env.CACHE_L2_PREFIX ? { prefix: env.CACHE_L2_PREFIX } : {}),
    };
  }
  return out;
}

/** `:15000` → host 0.0.0.0, port 15000. */
export function parseBind(bind: string): { host: string; port: number } {
  const i = bind.lastIndexOf(':');
  const host = i > 0 ? bind.slice(0, i).replace(/^\[|\]$/g, '') : '0.0.0.0';
  const port = Number(i >= 0 ? bind.slice(i + 1) : bind);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid configuration value for "BIND": "${bind}" is not host:port`);
  return { host, port };
}
