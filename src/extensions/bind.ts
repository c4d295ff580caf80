// Binds a team's resolver methods to the served schema (issue 20 item 2). A method gets the
// arguments its parameter decorators ask for (@Args, @Parent/@Root, @Context = svc's
// RequestContext, @Info). A @ResolveField is called once per parent list, never once per row:
// its @Parent() parameter is the list of parent objects, and it returns one value per parent, in
// the same order (DataLoader's contract, without the library).
import { PARAM_ARGS_METADATA, RESOLVER_NAME_METADATA, RESOLVER_PROPERTY_METADATA, RESOLVER_TYPE_METADATA } from '@nestjs/graphql';
import { type GraphQLFieldResolver, type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { SVC_CACHE, type SvcCacheOptions } from './cache.decorator.js';

/** @nestjs/graphql's GqlParamtype (not exported from its index). */
const PARAM = { ROOT: 0, CONTEXT: 1, INFO: 2, ARGS: 3 } as const;

export interface BoundField {
  /** `Type.field` in the served schema. */
  readonly coordinate: string;
  /** `Class.method`, for messages. */
  readonly origin: string;
  readonly batched: boolean;
  readonly resolve: GraphQLFieldResolver<unknown, RequestContext>;
  /** `@SvcCache()` of a root query field: its default cache rule. */
  readonly cache?: SvcCacheOptions;
}

type Invoke = (parent: unknown, args: Record<string, unknown>, ctx: RequestContext, info: GraphQLResolveInfo) => unknown;

function invoker(instance: object, method: string): Invoke {
  const ctor = instance.constructor;
  const params = Object.entries((Reflect.getMetadata(PARAM_ARGS_METADATA, ctor, method) ?? {}) as Record<string, { index: number; data?: unknown }>)
    .map(([key, p]) => ({ type: Number(key.split(':')[0]), index: p.index, data: p.data }));
  const fn = (instance as Record<string, (...a: unknown[]) => unknown>)[method]!;
  return (parent, args, ctx, info) => {
    const values: unknown[] = [];
    for (const p of params) {
      const named = typeof p.data === 'string' ? p.data : undefined;
      values[p.index] =
        p.type === PARAM.ARGS ? (named ? args[named] : args)
          : p.type === PARAM.ROOT ? parent
            : p.type === PARAM.CONTEXT ? (named ? (ctx as unknown as Record<string, unknown>)[named] : ctx)
              : p.type === PARAM.INFO ? info : undefined;
    }
    return fn.apply(instance, values);
  };
}

interface Batch {
  readonly parents: unknown[];
  readonly waiting: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[];
}

/**
 * Collects the parents a list's completion asks for in one synchronous pass (graphql-js completes
 * the items of a list in a loop), then calls the method once for all of them.
 */
function batchedResolver(invoke: Invoke, origin: string, parentOf: (row: unknown) => unknown): GraphQLFieldResolver<unknown, RequestContext> {
  const pending = new WeakMap<RequestContext, Map<string, Batch>>();
  return (source, args, ctx, info) => {
    const key = `${responsePathAsArray(info.path).filter((p) => typeof p === 'string').join('.')}|${JSON.stringify(args)}`;
    let byKey = pending.get(ctx);
    if (!byKey) pending.set(ctx, (byKey = new Map()));
    let batch = byKey.get(key);
    if (!batch) {
      const created: Batch = { parents: [], waiting: [] };
      batch = created;
      byKey.set(key, created);
      queueMicrotask(() => {
        byKey.delete(key);
        Promise.resolve()
          .then(() => invoke(created.parents, args, ctx, info))
          .then((values) => {
            if (!Array.isArray(values) || values.length !== created.parents.length) {
              throw new PublicError(ErrorCode.Internal, `${origin} must return one value per parent (${created.parents.length}), got ${Array.isArray(values) ? values.length : typeof values}`);
            }
            created.waiting.forEach((w, i) => w.resolve(values[i]));
          })
          .catch((e: unknown) => created.waiting.forEach((w) => w.reject(e)));
      });
    }
    batch.parents.push(parentOf(source));
    return new Promise((resolve, reject) => batch.waiting.push({ resolve, reject }));
  };
}

/**
 * The fields a resolver instance contributes. `parentOf` turns the row a parent field resolved to
 * into what the team's method sees (generated rows carry their key fields under hidden names).
 */
export function bindResolver(instance: object, parentOf: (type: string) => (row: unknown) => unknown): BoundField[] {
  const ctor = instance.constructor as new () => object;
  const parentType = Reflect.getMetadata(RESOLVER_NAME_METADATA, ctor) as string | undefined;
  const out: BoundField[] = [];
  const proto = ctor.prototype as Record<string, unknown>;
  for (const method of Object.getOwnPropertyNames(proto)) {
    if (method === 'constructor' || typeof proto[method] !== 'function') continue;
    const target = proto[method] as object;
    const rootType = Reflect.getMetadata(RESOLVER_TYPE_METADATA, target) as string | undefined;
    const isField = Reflect.getMetadata(RESOLVER_PROPERTY_METADATA, target) === true;
    const name = (Reflect.getMetadata(RESOLVER_NAME_METADATA, target) as string | undefined) ?? method;
    const origin = `${ctor.name}.${method}`;
    if (isField && parentType) {
      out.push({ coordinate: `${parentType}.${name}`, origin, batched: true, resolve: batchedResolver(invoker(instance, method), origin, parentOf(parentType)) });
    } else if (rootType === 'Query' || rootType === 'Mutation') {
      const invoke = invoker(instance, method);
      const resolve: GraphQLFieldResolver<unknown, RequestContext> = rootType === 'Mutation'
        // Mutations of a document run in order, like svc's own (SPEC §4.3).
        ? (s, a, c, i) => c.serial.run(async () => invoke(s, a as Record<string, unknown>, c, i))
        : (s, a, c, i) => invoke(s, a as Record<string, unknown>, c, i);
      const cache = Reflect.getMetadata(SVC_CACHE, target) as SvcCacheOptions | undefined;
      if (cache && rootType === 'Mutation') throw new PublicError(ErrorCode.ConfigInvalid, `${origin}: @SvcCache() on a mutation (writes are never cached)`);
      out.push({ coordinate: `${rootType}.${name}`, origin, batched: false, resolve, ...(cache ? { cache } : {}) });
    } else if (rootType === 'Subscription') {
      throw new PublicError(ErrorCode.ConfigInvalid, `${origin}: @Subscription fields are not supported in extensions (use svc's subscription { query(...) })`);
    }
  }
  return out;
}
