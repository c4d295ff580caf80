// Cache keys (SPEC §9): an explicit key or a hash of the field's text and variables, always
// namespaced by role, user id, timezone and schema version, so that no user is ever served rows
// cached for another user, another zone's rendering of timestamps, or an older schema.
import { createHash } from 'node:crypto';
import { stringifyJson } from '../shared/json.js';

export interface CacheKeyParts {
  /** The query text (or the printed field) the result answers. */
  readonly query?: string;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
  /** Path of the cached field within the operation, e.g. `shop.products`. */
  readonly fieldPath?: string;
  readonly role: string;
  readonly userId?: string | null;
  /** The caller's `[$auth.*]` values when its role's rules may read them (JSON text). */
  readonly auth?: string;
  readonly timezone?: string | null;
  readonly schemaVersion?: string | number | null;
  /** `@cache(key:)`; `$name` references are replaced by the variable's value (see expandKey). */
  readonly explicitKey?: string | null;
}

/** Whose an entry is: the part of every cache key that keeps one caller's answers from another's. */
export type CacheScope = Pick<CacheKeyParts, 'role' | 'userId' | 'auth' | 'timezone' | 'schemaVersion'>;

const scopeParts = (s: CacheScope): string[] => [s.role, s.userId ?? '', s.timezone ?? '', String(s.schemaVersion ?? ''), ...(s.auth ? [s.auth] : [])];

/**
 * The scope as text, for keys made elsewhere (/jq-query's, src/jq/cache.ts): the role, then a hash of
 * the rest, the same parts a field result's key is scoped by (issue 14 item 11, SPEC §9).
 */
export function cacheScope(s: CacheScope): string {
  return `${s.role}:${createHash('sha256').update(stableJson(scopeParts(s))).digest('hex').slice(0, 32)}`;
}

/** sha256 (hex) of the parts; equal parts (variables in any key order) give equal keys. */
export function cacheKey(parts: CacheKeyParts): string {
  const scope = scopeParts(parts);
  const what = parts.explicitKey
    ? ['key', expandKey(parts.explicitKey, parts.variables ?? undefined)]
    : ['query', parts.query ?? '', parts.operationName ?? '', parts.fieldPath ?? '', stableJson(parts.variables ?? null)];
  return createHash('sha256').update(stableJson([...scope, ...what])).digest('hex');
}

/** `"products:$category"` with `{category: "tea"}` -> `products:"tea"` (JSON of the value, so `1` and `"1"` differ). */
export function expandKey(template: string, variables: Readonly<Record<string, unknown>> | undefined): string {
  return template.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => stableJson(variables?.[name] ?? null));
}

/** JSON with object keys sorted at every level; BigInt as `<digits>n` (only ever hashed, never read back). */
export function stableJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object') {
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return stableJson(withJson.toJSON());
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`).join(',')}}`;
  }
  return stringifyJson(value) ?? 'null';
}

/** sha256 (hex) of a request body: its text when it is text, else its JSON. */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(typeof body === 'string' ? body : (stringifyJson(body) ?? '')).digest('hex');
}
