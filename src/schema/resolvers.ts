// Thin resolvers (DESIGN.md §3.7): each root field is one call into the pipeline
// plan -> compile -> execute. Nested fields read the JSON the statement built, by response key.
import { currentRequest } from '../shared/request-scope.js';
import { inSpan, inSpanSync } from '../shared/tracing.js';
import {
  type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema, getNamedType, isObjectType, responsePathAsArray,
  DirectiveLocation, getDirectiveValues, GraphQLDirective, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString, print,
} from 'graphql';
import type { DataObject } from '../catalog/model.js';
import type { Executor } from '../executor/executor.js';
import type { RequestContext } from '../executor/request-context.js';
import { aliasCounter, type PlanContext } from '../planner/context.js';
import type { FilterNode } from '../planner/ir/filter.js';
import type { RootQuery, SelectNode } from '../planner/ir/select.js';
import { PlanCache } from '../planner/cache.js';
import type { CompiledSql } from '../sql/compiler.js';
import { cacheKey, parseTtl, type ResultCache } from '../cache/index.js';
import type { CatalogFunction } from '../catalog/model.js';
import { planAggregation } from '../planner/aggregate.js';
import { planCall } from '../planner/function.js';
import { planBuckets } from '../planner/buckets.js';
import { planDelete, planInsert, planUpdate } from '../planner/mutation.js';
import { type Args, checkRequiredFilters, planSelect } from '../planner/select.js';
import { forbidden } from '../permissions/access.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { markPlain, markReadRoot } from '../pipeline/fast-path/marks.js';
import { planningWork } from '../pipeline/metrics.js';
import { RawJson } from '../shared/json.js';
import type { Row } from '../sources/types.js';
import type { SourceRegistry } from '../sources/registry.js';
import type { DataRootField, SchemaIndex } from './surface.js';

export type FunctionHandler = (args: Args, ctx: RequestContext) => Promise<unknown>;

export interface ResolverDeps {
  readonly registry: SourceRegistry;
  readonly executor: Executor;
  readonly functions: Readonly<Record<string, FunctionHandler>>;
  readonly cache?: ResultCache;
}

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

const CACHE_DIRECTIVE = new GraphQLDirective({
  name: 'cache', locations: [DirectiveLocation.FIELD],
  args: { ttl: { type: GraphQLInt }, key: { type: GraphQLString }, tags: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) } },
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

/** Nested values are read by response key, so aliases of one field with other arguments work. */
export const byResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) => {
  if (!source || typeof source !== 'object') return undefined;
  const row = source as Record<string, unknown>;
  const v = row[info.path.key as string];
  // Objects the database returns whole (function results, JSON) are keyed by field name.
  return v === undefined ? row[info.fieldName] : v;
};

function planContext(info: GraphQLResolveInfo, index: SchemaIndex, registry: SourceRegistry, ctx: RequestContext): PlanContext {
  const withDeleted = info.fieldNodes.some((n) => n.directives?.some((d) => d.name.value === 'with_deleted'));
  return {
    ...(withDeleted ? { withDeleted } : {}),
    access: ctx.access,
    authVars: ctx.authVars,
    schema: info.schema,
    index,
    fragments: info.fragments,
    variables: info.variableValues,
    tableName: (o) => registry.runtime(o.source).tableName(o),
    nextAlias: aliasCounter(),
  };
}

function returnObject(info: GraphQLResolveInfo): GraphQLObjectType {
  const t = getNamedType(info.returnType);
  if (!isObjectType(t)) throw new PublicError(ErrorCode.Internal, `field "${info.fieldName}" does not return an object`);
  return t;
}

/** WHERE <fields> = <values>: by primary key, unique key, or a row just written. */
function keyFilter(obj: DataObject, alias: string, values: Record<string, unknown>, byColumn: boolean): FilterNode {
  const fields = byColumn ? obj.pk.map((n) => obj.fields.find((f) => f.name === n)!) : obj.fields.filter((f) => f.name in values);
  const items: FilterNode[] = fields.map((f) => ({
    kind: 'compare', op: 'eq', left: { kind: 'column', table: alias, column: f.column },
    right: { kind: 'param', value: values[byColumn ? f.column : f.name], scalar: f.type }, scalar: f.type, list: false,
  }));
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function withWhere(sel: SelectNode, extra: FilterNode): SelectNode {
  return { ...sel, where: sel.where ? { kind: 'and', items: [sel.where, extra] } : extra };
}

const operationResult = (affected: number, message: string) => ({ success: true, affected_rows: affected, message });

/** What besides the operation decides a read's SQL: where it is, the variables, the rules. */
function planKey(info: GraphQLResolveInfo, ctx: RequestContext): string {
  const who = ctx.access.unrestricted ? '' : `${ctx.access.role}#${ctx.access.generation}|${JSON.stringify(ctx.authVars)}`;
  return `${responsePathAsArray(info.path).join('.')}|${JSON.stringify(info.variableValues)}|${ctx.timezone}|${who}`;
}

const READS = new Set<DataRootField['kind']>(['list', 'by_pk', 'unique', 'aggregation', 'bucket_aggregation']);

type DataResolver = (source: unknown, args: Args, ctx: RequestContext, info: GraphQLResolveInfo, reads?: Set<string>) => Promise<unknown>;

/**
 * Root data fields. Reads may be served from the result cache (SPEC §9, the cache interceptor of
 * DESIGN.md §2): the key is namespaced by role, user, time zone and schema version, and the tags
 * are the explicit ones plus every data object the plan reads.
 */
function dataResolver(root: DataRootField, index: SchemaIndex, deps: ResolverDeps, plans: PlanCache, version: number): GraphQLFieldResolver<unknown, RequestContext> {
  const inner = planAndRun(root, index, deps, plans);
  if (!READS.has(root.kind)) return inner as GraphQLFieldResolver<unknown, RequestContext>;
  const cached = async (source: unknown, args: Args, ctx: RequestContext, info: GraphQLResolveInfo): Promise<unknown> => {
    const cache = deps.cache;
    const rule = cache?.enabled ? cacheRule(info, index.objects.get(root.object)!.cache) : undefined;
    if (!cache || !rule) return inner(source, args, ctx, info);
    const key = cacheKey({
      query: documentText(info), variables: info.variableValues, operationName: info.operation.name?.value ?? '', fieldPath: responsePathAsArray(info.path).join('.'),
      role: ctx.identity.role, userId: ctx.identity.userId, timezone: ctx.timezone, schemaVersion: version, ...(rule.key ? { explicitKey: rule.key } : {}),
    });
    const options = { ttlMs: rule.ttlMs ?? cache.defaultTtlMs, tags: [...rule.tags] };
    const { value, hit } = await inSpan('svc.cache', { 'svc.field': info.fieldName }, async (span) => {
      const result = await cache.wrap(key, options, async () => {
        const reads = new Set<string>();
        const v = await inner(source, args, ctx, info, reads);
        options.tags.push(...reads);
        // The cache keeps values, never the fast path's unparsed text.
        return v instanceof RawJson ? v.parse() : v;
      }, { refresh: rule.refresh });
      span.setAttribute('svc.cache.hit', result.hit);
      return result;
    });
    if (hit) {
      ctx.cacheHits.add(responsePathAsArray(info.path).join('.'));
      const scope = currentRequest();
      if (scope) scope.cacheHit = true;
    }
    return value;
  };
  return async (source, args: Args, ctx, info) => {
    // An answer the fast path fetched but left to graphql-js to complete (src/pipeline/fast-path/).
    const early = info.path.prev === undefined ? ctx.prefetched.get(String(info.path.key)) : undefined;
    if (early) {
      ctx.prefetched.delete(String(info.path.key));
      if ('error' in early) throw early.error;
      return early.value;
    }
    if (!info.fieldNodes.some((n) => n.directives?.some((d) => d.name.value === 'stats'))) return cached(source, args, ctx, info);
    // @stats: the field's time and whether the cache answered, in extensions.stats.
    const path = responsePathAsArray(info.path).join('.');
    const started = performance.now();
    try {
      return await cached(source, args, ctx, info);
    } finally {
      ctx.stats[path] = { ms: +(performance.now() - started).toFixed(3), cached: ctx.cacheHits.has(path) };
    }
  };
}

function planAndRun(root: DataRootField, index: SchemaIndex, deps: ResolverDeps, plans: PlanCache): DataResolver {
  const cacheable = READS.has(root.kind);
  return async (_source, args: Args, ctx, info, reads) => {
    const obj = index.objects.get(root.object)!;
    const runtime = deps.registry.runtime(obj.source);
    const key = cacheable ? planKey(info, ctx) : '';
    if (cacheable) {
      const cached = plans.get(info.operation, key);
      if (cached) {
        for (const r of cached.reads) reads?.add(r);
        return deps.executor.readCompiled(ctx, runtime, cached.stmt);
      }
    }
    const planReads = new Set<string>();
    /** Planning, as a span of its own (the statement it leads to is the next span). */
    const planned = <T>(fn: () => T): T => inSpanSync('svc.plan', { 'svc.field': info.fieldName, 'svc.source': obj.source }, fn);
    /** Compiles and runs a read plan; root reads keep the statement for the next identical request. */
    const run = (plan: RootQuery) => {
      planningWork.inc({ step: 'plan' });
      const stmt = inSpanSync('svc.compile', { 'svc.source': runtime.name }, () => runtime.compiler.compileQuery(plan, ctx.timezone));
      if (cacheable) plans.set(info.operation, key, { stmt, reads: [...planReads] });
      for (const r of planReads) reads?.add(r);
      return deps.executor.readCompiled(ctx, runtime, stmt);
    };
    const pctx = { ...planContext(info, index, deps.registry, ctx), reads: planReads };
    if (root.kind === 'insert' || root.kind === 'insert_batch' || root.kind === 'update' || root.kind === 'delete') {
      // The object's tag, and the source's (cached function results of the source depend on it).
      ctx.written.add(obj.name).add(obj.source);
    }
    // A filter row on the root field itself is ANDed to the client's filter (SPEC §7).
    const fieldFilter = ctx.access.unrestricted ? undefined : ctx.access.fieldFilter(info.parentType.name, info.fieldName, ctx.authVars);
    const filtered = (a: Args): Args => (fieldFilter ? { ...a, filter: a.filter ? { _and: [a.filter, fieldFilter] } : fieldFilter } : a);
    const readRow = async (values: Record<string, unknown>, byColumn: boolean) => {
      const alias = pctx.nextAlias();
      const sel = planned(() => planSelect(pctx, obj, alias, returnObject(info), info.fieldNodes, filtered({ args: args.args })));
      return run({ kind: 'one', select: withWhere(sel, keyFilter(obj, alias, values, byColumn)) });
    };
    const stamped = (_op: 'insert' | 'update', data: Args): Args =>
      ctx.access.unrestricted ? data : { ...data, ...ctx.access.fieldData(info.parentType.name, info.fieldName, ctx.authVars) };
    const writeWhere = (op: 'update' | 'delete', filter: Args | null | undefined): Args | null | undefined => {
      const guardFilter = ctx.access.unrestricted ? undefined : ctx.access.writeFilter(op, obj.name, ctx.authVars);
      if (!guardFilter) return filter;
      return filter ? { _and: [filter, guardFilter] } : guardFilter;
    };
    switch (root.kind) {
      case 'list': {
        checkRequiredFilters(obj, args.filter as Args | undefined);
        const sel = planned(() => planSelect(pctx, obj, pctx.nextAlias(), returnObject(info), info.fieldNodes, filtered(args)));
        return run({ kind: 'list', select: sel });
      }
      case 'by_pk':
      case 'unique':
        return readRow(args, false);
      case 'aggregation':
        checkRequiredFilters(obj, args.filter as Args | undefined);
        return run({ kind: 'aggregate', node: planned(() => planAggregation(pctx, obj, pctx.nextAlias(), returnObject(info), info.fieldNodes, filtered(args))) });
      case 'bucket_aggregation':
        checkRequiredFilters(obj, args.filter as Args | undefined);
        return run({ kind: 'aggregate', node: planned(() => planBuckets(pctx, obj, pctx.nextAlias(), returnObject(info), info.fieldNodes, filtered(args))) });
      case 'insert':
        return ctx.serial.run(async () => {
          const row: Row = await deps.executor.insert(ctx, runtime, planned(() => planInsert(pctx, obj, stamped('insert', args.data as Args))));
          if (!obj.pk.length || obj.isM2m) return operationResult(1, 'inserted');
          return readRow(row, true);
        });
      case 'insert_batch':
        return ctx.serial.run(async () => {
          const rows = args.data as Args[];
          for (const data of rows) await deps.executor.insert(ctx, runtime, planned(() => planInsert(pctx, obj, stamped('insert', data))));
          return operationResult(rows.length, 'inserted');
        });
      case 'update':
        return ctx.serial.run(async () => {
          const n = await deps.executor.change(ctx, runtime, planned(() => planUpdate(pctx, obj, writeWhere('update', args.filter as Args | null), stamped('update', args.data as Args))));
          return operationResult(n, 'updated');
        });
      case 'delete':
        return ctx.serial.run(async () => {
          const n = await deps.executor.change(ctx, runtime, planned(() => planDelete(pctx, obj, writeWhere('delete', args.filter as Args | null))));
          return operationResult(n, 'deleted');
        });
    }
  };
}

/** A catalog function field: one call statement; mutation functions join the request's transaction. */
function functionResolver(fn: CatalogFunction, index: SchemaIndex, deps: ResolverDeps, version: number): GraphQLFieldResolver<unknown, RequestContext> {
  return async (_source, args: Args, ctx, info) => {
    const runtime = deps.registry.runtime(fn.source);
    const stmt = inSpanSync('svc.plan', { 'svc.field': info.fieldName, 'svc.source': fn.source }, () =>
      runtime.compiler.compileQuery(planCall(planContext(info, index, deps.registry, ctx), fn, args), ctx.timezone),
    );
    const rule = !fn.mutation && deps.cache?.enabled ? cacheRule(info, fn.cache) : undefined;
    if (rule && deps.cache) {
      // Query functions cache like data fields; tags are the explicit ones plus the source's name.
      const key = cacheKey({
        query: documentText(info), variables: info.variableValues, operationName: info.operation.name?.value ?? '', fieldPath: responsePathAsArray(info.path).join('.'),
        role: ctx.identity.role, userId: ctx.identity.userId, timezone: ctx.timezone, schemaVersion: version, ...(rule.key ? { explicitKey: rule.key } : {}),
      });
      const options = { ttlMs: rule.ttlMs ?? deps.cache.defaultTtlMs, tags: [...rule.tags, fn.source] };
      return inSpan('svc.cache', { 'svc.field': info.fieldName }, async (span) => {
        const result = await deps.cache!.wrap(key, options, () => deps.executor.readCompiled(ctx, runtime, stmt), { refresh: rule.refresh });
        span.setAttribute('svc.cache.hit', result.hit);
        return result.value;
      });
    }
    if (!fn.mutation) return deps.executor.readCompiled(ctx, runtime, stmt);
    ctx.written.add(fn.source);
    return ctx.serial.run(async () => {
      await ctx.transactions.connection(runtime);
      return deps.executor.readCompiled(ctx, runtime, stmt);
    });
  };
}

/**
 * Every field, at every depth, asks the role first (SPEC §7): a denied field answers "forbidden" at
 * its own path with the rest of the data intact (SPEC §1). Aliases, fragments and variables cannot
 * avoid it, since it runs per resolved field whatever the query text looked like.
 */
function guardFields(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.resolve) markPlain(field);
      const inner = (field.resolve ?? byResponseKey) as GraphQLFieldResolver<unknown, RequestContext>;
      const returns = getNamedType(field.type).name;
      field.resolve = ((source, args, ctx: RequestContext, info) => {
        if (ctx.access.denied(type.name, field.name, returns)) throw forbidden();
        return inner(source, args, ctx, info);
      }) as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}

/** Attaches the server's resolvers to a schema built from the generated SDL. */
export function attachResolvers(schema: GraphQLSchema, index: SchemaIndex, deps: ResolverDeps, version = 0): void {
  const field = (coord: string) => {
    const [typeName, fieldName] = coord.split('.') as [string, string];
    const type = schema.getType(typeName) as GraphQLObjectType;
    return type.getFields()[fieldName]!;
  };
  for (const coord of index.modules) field(coord).resolve = () => ({});
    // One plan cache per served schema: a new schema starts with an empty one.
  const plans = new PlanCache();
  for (const [coord, root] of index.roots) {
    field(coord).resolve = dataResolver(root, index, deps, plans, version) as GraphQLFieldResolver<unknown, unknown>;
    if (READS.has(root.kind)) markReadRoot(field(coord));
  }
  for (const [coord, handlerId] of index.functions) {
    const handler = deps.functions[handlerId];
    if (!handler) throw new PublicError(ErrorCode.Internal, `no handler "${handlerId}" for ${coord}`);
    const mutation = coord.startsWith('MutationFunction.') || coord.includes('_mut_function.');
    field(coord).resolve = ((_s: unknown, args: Args, ctx: RequestContext) =>
      mutation ? ctx.serial.run(() => handler(args, ctx)) : handler(args, ctx)) as GraphQLFieldResolver<unknown, unknown>;
  }
  for (const [coord, fn] of index.catalogFunctions) field(coord).resolve = functionResolver(fn, index, deps, version) as GraphQLFieldResolver<unknown, unknown>;
  guardFields(schema);
}
