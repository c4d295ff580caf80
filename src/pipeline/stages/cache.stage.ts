// The result cache around root reads and query functions (SPEC §9): the key is namespaced by role,
// user, time zone and schema version; the tags are the explicit ones, the field's own and every data
// object the resolution read, plus `$role_permissions` so a permission change drops the entry.
import {
  DirectiveLocation, getDirectiveValues, GraphQLDirective, GraphQLList, GraphQLNonNull, type GraphQLResolveInfo, GraphQLScalarType, GraphQLString, Kind, print,
  responsePathAsArray, valueFromASTUntyped,
} from 'graphql';
import type { DataObject } from '../../catalog/model.js';
import { cacheKey, type ResultCache } from '../../cache/index.js';
import type { RequestContext } from '../../executor/request-context.js';
import { ROLE_PERMISSIONS_TAG } from '../../permissions/service.js';
import { RawJson } from '../../shared/json.js';
import { scopeOf } from '../../shared/request-scope.js';
import { inSpan } from '../../shared/tracing.js';
import { parseTtl } from '../../shared/ttl.js';
import type { FieldCall, FieldStage } from '../field-stage.js';

interface CacheRule {
  readonly ttlMs?: number;
  readonly key?: string;
  readonly tags: readonly string[];
  readonly refresh: boolean;
}

/** `@cache` / `@no_cache` / `@invalidate_cache` on the field, else `@cache` on the object's type. */
function cacheRule(info: GraphQLResolveInfo, fallback: DataObject['cache'] | undefined): CacheRule | undefined {
  const node = info.fieldNodes[0]!;
  const has = (name: string) => node.directives?.some((d) => d.name.value === name) ?? false;
  if (has('no_cache')) return undefined;
  const refresh = has('invalidate_cache');
  const d = getDirectiveValues(CACHE_DIRECTIVE, node, info.variableValues) as { ttl?: number; key?: string; tags?: string[] } | undefined;
  const spec = d ?? fallback;
  if (!spec) return refresh ? { tags: [], refresh } : undefined;
  const ttlMs = parseTtl(spec.ttl as number | string | undefined);
  return { ...(ttlMs !== undefined ? { ttlMs } : {}), ...(spec.key ? { key: spec.key } : {}), tags: spec.tags ?? [], refresh };
}

/** Seconds or a duration string: the served schema declares `ttl: Int`; validation lets durations through (src/pipeline/validation.ts). */
const TTL = new GraphQLScalarType({ name: 'Int', parseValue: (v) => v, parseLiteral: (node) => (node.kind === Kind.STRING ? node.value : valueFromASTUntyped(node)) });

const CACHE_DIRECTIVE = new GraphQLDirective({
  name: 'cache', locations: [DirectiveLocation.FIELD],
  args: { ttl: { type: TTL }, key: { type: GraphQLString }, tags: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) } },
});

const documents = new WeakMap<object, string>();
/** The operation and its fragments as text: two documents share cache entries only if equal. */
function documentText(info: GraphQLResolveInfo): string {
  let text = documents.get(info.operation);
  if (text === undefined) {
    text = [print(info.operation), ...Object.values(info.fragments).map((f) => print(f))].join('\n');
    documents.set(info.operation, text);
  }
  return text;
}

/** Cache entries are the caller's own: role, user and the `[$auth.*]` values its role's rules may read. */
function identityKey(ctx: RequestContext): { role: string; userId: string | null; auth?: string } {
  return { role: ctx.identity.role, userId: ctx.identity.userId, ...(ctx.access.unrestricted ? {} : { auth: JSON.stringify(ctx.authVars) }) };
}

export class CacheStage implements FieldStage {
  constructor(private readonly cache: ResultCache) {}

  // Not async: a field without a rule costs no promise of its own (issue 30).
  intercept(call: FieldCall, next: () => Promise<unknown>): Promise<unknown> {
    const rule = call.target.kind !== 'write' && this.cache.enabled ? cacheRule(call.info, call.target.cacheDefault) : undefined;
    return rule ? this.cached(call, rule, next) : next();
  }

  private async cached(call: FieldCall, rule: CacheRule, next: () => Promise<unknown>): Promise<unknown> {
    const { ctx, info, target } = call;
    const key = cacheKey({
      query: documentText(info), variables: info.variableValues, operationName: info.operation.name?.value ?? '', fieldPath: responsePathAsArray(info.path).join('.'),
      ...identityKey(ctx), timezone: ctx.timezone, schemaVersion: target.schemaVersion, ...(rule.key ? { explicitKey: rule.key } : {}),
    });
    // `@invalidate_cache` with tags (the field's `@cache(tags:)` or its type's) drops every entry
    // carrying them first, not only this field's own (hugr's cache page, "Combining with Tags").
    // svc's own `$` tags (role permissions, API keys) are dropped only by the admin's invalidate call.
    const dropped = rule.refresh ? rule.tags.filter((tag) => !tag.startsWith('$')) : [];
    if (dropped.length) await this.cache.invalidate(dropped);
    const options = { ttlMs: rule.ttlMs ?? this.cache.defaultTtlMs, tags: [...rule.tags, ...target.tags, ROLE_PERMISSIONS_TAG] };
    const { value, hit } = await inSpan('svc.cache', { 'svc.field': info.fieldName }, async (span) => {
      const result = await this.cache.wrap(key, options, async () => {
        const failures = ctx.nestedFailures;
        const v = await next();
        options.tags.push(...call.reads);
        // The cache keeps values, never the fast path's unparsed text; the objects read travel with
        // the entry, so a request answered from it still knows them.
        return { v: v instanceof RawJson ? v.parse() : v, reads: [...call.reads], partial: ctx.nestedFailures !== failures };
      }, { refresh: rule.refresh, keep: (r) => !r.partial });
      span.setAttribute('svc.cache.hit', result.hit);
      return result;
    });
    if (hit) {
      ctx.cacheHits.add(responsePathAsArray(info.path).join('.'));
      const scope = scopeOf(ctx);
      if (scope) scope.cacheHit = true;
    }
    for (const r of value.reads) ctx.reads.add(r);
    return value.v;
  }
}
