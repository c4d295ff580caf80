// Thin resolvers (DESIGN.md §3.7): each root field is one call into the pipeline
// plan -> compile -> execute. Nested fields read the JSON the statement built, by response key.
import { type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema, getArgumentValues, getNamedType, isObjectType, responsePathAsArray } from 'graphql';
import type { CatalogFunction, DataObject } from '../catalog/model.js';
import type { RequestContext } from '../executor/request-context.js';
import { CrossSource } from '../executor/cross-source.js';
import { type Access, type AccessScope, accessOf, forbidden, registerScope } from '../permissions/access.js';
import { fieldVariables } from '../statements/bind.js';
import { planAggregation } from '../planner/aggregate.js';
import { planBuckets } from '../planner/buckets.js';
import { PlanCache } from '../statements/cache.js';
import { aliasCounter, type PlanContext } from '../planner/context.js';
import { planCall } from '../planner/function.js';
import type { FilterNode } from '../planner/ir/filter.js';
import type { RemoteNode } from '../planner/ir/remote.js';
import type { RootQuery, SelectNode } from '../planner/ir/select.js';
import { planDelete, planInsert, planUpdate } from '../planner/mutation.js';
import { type Args, checkRequiredFilters, deniedPaths, planSelect } from '../planner/select.js';
import type { DataRootField, SchemaIndex } from '../schema/surface.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { CompiledSql } from '../sql/compiler.js';
import { hashSecret } from '../shared/secrets.js';
import { inSpanSync } from '../shared/tracing.js';
import type { SourceRegistry } from '../sources/registry.js';
import type { Row } from '../sources/types.js';
import { attachCatalogIntro } from './catalog-intro.js';
import type { RootFieldTarget } from './field-stage.js';
import type { ResolverDeps } from './resolver-deps.js';
import { markReadRoot } from './fast-path/marks.js';
import { planningWork } from './metrics.js';
import { guardFields } from './stages/permission.js';
import { planContext } from './plan-context.js';
import { checked, checkWritten, hideRows, keysToUpdate, refuseUnchecked, WrittenRows } from './write-check.js';
import { H3_CELL_RESOLVERS, H3_QUERY_TYPE, h3Resolver } from './h3.js';

function returnObject(info: GraphQLResolveInfo): GraphQLObjectType {
  const t = getNamedType(info.returnType);
  if (!isObjectType(t)) throw new PublicError(ErrorCode.Internal, `field "${info.fieldName}" does not return an object`);
  return t;
}

/**
 * WHERE <fields> = <values>: by primary key, unique key, or a row just written. A hashed secret
 * (`api_keys_by_key(key)`) is looked up by the hash of the value given.
 */
function keyFilter(access: Access, obj: DataObject, alias: string, values: Record<string, unknown>, byColumn: boolean): FilterNode {
  const fields = byColumn ? obj.pk.map((n) => obj.fields.find((f) => f.name === n)!) : obj.fields.filter((f) => f.name in values);
  const hashed = access.scope.secrets.get(obj.name);
  const value = (f: DataObject['fields'][number]) => {
    const v = values[byColumn ? f.column : f.name];
    return !byColumn && hashed?.get(f.name) === 'hash' && typeof v === 'string' ? hashSecret(v) : v;
  };
  const items: FilterNode[] = fields.map((f) => ({
    kind: 'compare', op: 'eq', left: { kind: 'column', table: alias, column: f.column },
    right: { kind: 'param', value: value(f), scalar: f.type }, scalar: f.type, list: false,
  }));
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function withWhere(sel: SelectNode, extra: FilterNode): SelectNode {
  return { ...sel, where: sel.where ? { kind: 'and', items: [sel.where, extra] } : extra };
}

const operationResult = (affected: number, message: string) => ({ success: true, affected_rows: affected, message });

/** What besides the operation and the variables decides a read's SQL: where it is, the zone, the rules. */
function planKey(info: GraphQLResolveInfo, ctx: RequestContext): string {
  // `[$auth.*]` values decide the SQL of catalog views and functions for every role, unrestricted
  // ones included (issue 32: an admin's view over [$auth.user_id] answered with the first caller's rows).
  const who = `${ctx.access.unrestricted ? '' : `${ctx.access.role}#${ctx.access.generation}`}|${JSON.stringify(ctx.authVars)}`;
  return `${responsePathAsArray(info.path).join('.')}|${ctx.timezone}|${who}|`;
}

const READS = new Set<DataRootField['kind']>(['list', 'by_pk', 'unique', 'aggregation', 'bucket_aggregation']);

type DataResolver = (source: unknown, args: Args, ctx: RequestContext, info: GraphQLResolveInfo, reads?: Set<string>) => Promise<unknown>;

/** A root data field: the field stages (src/pipeline/field-stage.ts) around plan -> SQL -> executor. */
function dataResolver(root: DataRootField, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, plans: PlanCache, version: number): GraphQLFieldResolver<unknown, RequestContext> {
  const inner = planAndRun(root, index, scope, deps, plans);
  const target: RootFieldTarget = { kind: READS.has(root.kind) ? 'read' : 'write', cacheDefault: index.objects.get(root.object)!.cache, tags: [], schemaVersion: version };
  return async (source, args: Args, ctx, info) => {
    // /ipc streams root lists itself (SPEC §13): nothing to cache, and no whole result to time.
    if (ctx.streams) return inner(source, args, ctx, info);
    // An answer the fast path fetched but left to graphql-js to complete (src/pipeline/fast-path/).
    const early = info.path.prev === undefined ? ctx.prefetched.get(String(info.path.key)) : undefined;
    if (early) {
      ctx.prefetched.delete(String(info.path.key));
      if ('error' in early) throw early.error;
      return early.value;
    }
    return deps.stages.run({ source, args, ctx, info, target, reads: new Set() }, (c) => inner(c.source, c.args, c.ctx, c.info, c.reads));
  };
}

function planAndRun(root: DataRootField, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, plans: PlanCache): DataResolver {
  const cacheable = READS.has(root.kind);
  const across = new CrossSource(deps.executor, deps.registry);
  /** Runs a root statement; relations into other sources are answered level by level, one statement each (SPEC §5). */
  const read = (ctx: RequestContext, runtime: ReturnType<SourceRegistry['runtime']>, stmt: CompiledSql, remotes: readonly RemoteNode[] | undefined) =>
    (remotes?.length ? across.read(ctx, runtime, stmt, remotes) : deps.executor.readCompiled(ctx, runtime, stmt));
  return async (_source, args: Args, ctx, info, reads) => {
    const obj = index.objects.get(root.object)!;
    const runtime = deps.registry.runtime(obj.source);
    const noteReads = (objects: Iterable<string>) => {
      for (const r of objects) {
        reads?.add(r);
        ctx.reads.add(r);
      }
    };
    // /ipc reads lists row by row: those plans are not kept (the rows are compiled apart).
    const streaming = ctx.streams !== undefined && !ctx.transactions.active;
    // A repeated read (whatever the values of the variables bound per request) plans nothing.
    const site = cacheable && !streaming
      ? { schema: info.schema, operation: info.operation, base: planKey(info, ctx), variables: info.variableValues, used: fieldVariables(info.fieldNodes, info.fragments) }
      : undefined;
    const cached = site && plans.find(site);
    if (cached) {
      noteReads(cached.reads);
      return read(ctx, runtime, cached.stmt, cached.remotes);
    }
    /** Planning, as a span of its own (the statement it leads to is the next span). */
    const planned = <T>(fn: () => T): T => inSpanSync('svc.plan', { 'svc.field': info.fieldName, 'svc.source': obj.source }, fn);
    const compile = (plan: RootQuery) => inSpanSync('svc.compile', { 'svc.source': runtime.name }, () => runtime.compiler.compileQuery(plan, ctx.timezone));
    const statement = { source: obj.source, remotes: [] as RemoteNode[] };
    const pctx = { ...planContext(info, index, scope, deps.registry, ctx), reads: new Set<string>(), statement };
    const access = pctx.access;
    // A filter row on the root field itself is ANDed to the client's filter (SPEC §7).
    const fieldFilter = access.fieldFilter(info.parentType.name, info.fieldName, ctx.authVars);
    const filtered = (a: Args): Args => (fieldFilter ? { ...a, filter: a.filter ? { _and: [a.filter, fieldFilter] } : fieldFilter } : a);
    const rowQuery = (p: PlanContext, a: Args, values: Record<string, unknown>, byColumn: boolean): RootQuery => {
      const alias = p.nextAlias();
      const sel = planned(() => planSelect(p, obj, alias, returnObject(info), info.fieldNodes, filtered({ args: a.args })));
      return { kind: 'one', select: withWhere(sel, keyFilter(p.access, obj, alias, values, byColumn)) };
    };
    /** /ipc: the rows one by one, read after the operation has run (the answer holds [] meanwhile). */
    const stream = (select: SelectNode): unknown[] => {
      const stmt = runtime.compiler.compileRows!(select, ctx.timezone);
      noteReads(pctx.reads);
      ctx.statements++;
      const path = responsePathAsArray(info.path);
      const errors = deniedPaths(select).map((p) => ({ message: 'forbidden', path: [...path, ...p], extensions: { code: ErrorCode.Forbidden } }));
      ctx.streams!.set(path.join('.'), { source: runtime.name, rows: () => deps.executor.stream(ctx, runtime, stmt), ...(errors.length ? { errors } : {}) });
      return [];
    };
    if (cacheable) {
      /** The read's plan for these arguments (the planner reads nested arguments from `p.variables`). */
      const readPlan = (p: PlanContext, a: Args): RootQuery => {
        switch (root.kind) {
          case 'by_pk':
          case 'unique':
            return rowQuery(p, a, a, false);
          case 'aggregation':
            checkRequiredFilters(obj, a.filter as Args | undefined);
            return { kind: 'aggregate', node: planned(() => planAggregation(p, obj, p.nextAlias(), returnObject(info), info.fieldNodes, filtered(a))) };
          case 'bucket_aggregation':
            checkRequiredFilters(obj, a.filter as Args | undefined);
            return { kind: 'aggregate', node: planned(() => planBuckets(p, obj, p.nextAlias(), returnObject(info), info.fieldNodes, filtered(a))) };
          default:
            checkRequiredFilters(obj, a.filter as Args | undefined);
            return { kind: 'list', select: planned(() => planSelect(p, obj, p.nextAlias(), returnObject(info), info.fieldNodes, filtered(a))) };
        }
      };
      planningWork.inc({ step: 'plan' });
      const plan = readPlan(pctx, args);
      // Relations into other sources are merged in memory: such a list is read whole (SPEC §5).
      if (streaming && plan.kind === 'list' && runtime.streamRows && runtime.compiler.compileRows && !statement.remotes.length) return stream(plan.select);
      const stmt = compile(plan);
      const planReads = [...pctx.reads];
      const remotes = [...statement.remotes];
      const field = info.parentType.getFields()[info.fieldName]!;
      if (site) plans.remember(site, { stmt, reads: planReads, ...(remotes.length ? { remotes } : {}) }, (variables) =>
        compile(readPlan({ ...pctx, variables, nextAlias: aliasCounter(), reads: new Set(), statement: { source: obj.source, remotes: [] } }, getArgumentValues(field, info.fieldNodes[0]!, variables) as Args)));
      noteReads(planReads);
      return read(ctx, runtime, stmt, remotes);
    }
    /** Compiles and runs a read of a row just written. */
    const run = (plan: RootQuery) => {
      planningWork.inc({ step: 'plan' });
      const stmt = compile(plan);
      noteReads(pctx.reads);
      return read(ctx, runtime, stmt, [...statement.remotes]);
    };
    if (root.kind === 'insert' || root.kind === 'insert_batch' || root.kind === 'update' || root.kind === 'delete') {
      // The object's tag, and the source's (cached function results of the source depend on it).
      ctx.written.add(obj.name).add(obj.source);
    }
    const readRow = (values: Record<string, unknown>, byColumn: boolean) => run(rowQuery(pctx, args, values, byColumn));
    const stamps = access.fieldData(info.parentType.name, info.fieldName, ctx.authVars);
    const writeWhere = (op: 'update' | 'delete', filter: Args | null | undefined): Args | null | undefined => {
      const guardFilter = access.writeFilter(op, obj.name, ctx.authVars);
      if (!guardFilter) return filter;
      return filter ? { _and: [filter, guardFilter] } : guardFilter;
    };
    /** A write whose key or reference errors do not reveal rows the role cannot read. */
    const guarded = <T>(fn: () => Promise<T>) => writeStep(ctx, info, () => fn().catch((e: unknown) => {
      throw hideRows(pctx, obj, e);
    }));
    switch (root.kind) {
      case 'insert':
        return guarded(async () => {
          const data = args.data as Args;
          const written = new WrittenRows();
          const row: Row = await deps.executor.insert(ctx, runtime, planned(() => planInsert(pctx, obj, data, stamps)), written.add);
          await written.check(deps.executor, ctx, runtime, pctx);
          if (!obj.pk.length || obj.isM2m) return operationResult(1, 'inserted');
          return showSecretsOnce(access, obj, info, data, await readRow(row, true));
        });
      case 'insert_batch':
        return guarded(async () => {
          const rows = args.data as Args[];
          const written = new WrittenRows();
          for (const data of rows) await deps.executor.insert(ctx, runtime, planned(() => planInsert(pctx, obj, data, stamps)), written.add);
          await written.check(deps.executor, ctx, runtime, pctx);
          return operationResult(rows.length, 'inserted');
        });
      case 'update':
        return guarded(async () => {
          const where = writeWhere('update', args.filter as Args | null);
          const node = planned(() => planUpdate(pctx, obj, where, args.data as Args, stamps));
          // Checked updates learn their rows' keys first: the rows no longer match the filter once changed.
          const keys = checked(pctx, 'update', obj) ? await keysToUpdate(deps.executor, ctx, runtime, pctx, obj, where) : undefined;
          const n = await deps.executor.change(ctx, runtime, node);
          if (keys) {
            refuseUnchecked(runtime, n, keys);
            await checkWritten(deps.executor, ctx, runtime, pctx, 'update', obj, keys);
          }
          return operationResult(n, 'updated');
        });
      case 'delete':
        return writeStep(ctx, info, async () => {
          const n = await deps.executor.change(ctx, runtime, planned(() => planDelete(pctx, obj, writeWhere('delete', args.filter as Args | null))));
          return operationResult(n, 'deleted');
        });
      default:
        throw new PublicError(ErrorCode.Internal, `"${info.fieldName}" is not a write`);
    }
  };
}

/**
 * One write field of a mutation, in document order. Once a write of the request failed, its
 * transactions roll back as a whole (SPEC §4.3): the fields after it are not run and say so,
 * instead of failing on an aborted transaction (issue 31).
 */
function writeStep<T>(ctx: RequestContext, info: GraphQLResolveInfo, fn: () => Promise<T>): Promise<T> {
  return ctx.serial.run(async () => {
    const failed = ctx.transactions.failed;
    if (failed !== undefined) throw new PublicError(ErrorCode.QueryFailed, `not run: the transaction was rolled back because "${failed}" failed`);
    try {
      return await fn();
    } catch (e) {
      ctx.transactions.failed ??= responsePathAsArray(info.path).join('.');
      throw e;
    }
  });
}

/** A catalog function field: one call statement; mutation functions join the request's transaction. */
function functionResolver(fn: CatalogFunction, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, version: number): GraphQLFieldResolver<unknown, RequestContext> {
  // Query functions cache like data fields; their answers carry the source's name as a tag.
  const target: RootFieldTarget = { kind: fn.mutation ? 'write' : 'function', cacheDefault: fn.cache, tags: [fn.source], schemaVersion: version };
  return async (source, args: Args, ctx, info) => {
    const runtime = deps.registry.runtime(fn.source);
    const pctx = planContext(info, index, scope, deps.registry, ctx);
    rowsOfObject(pctx, fn);
    const stmt = inSpanSync('svc.plan', { 'svc.field': info.fieldName, 'svc.source': fn.source }, () => runtime.compiler.compileQuery(planCall(pctx, fn, args), ctx.timezone));
    return deps.stages.run({ source, args, ctx, info, target, reads: new Set() }, async () => {
      if (!fn.mutation) return deps.executor.readCompiled(ctx, runtime, stmt);
      ctx.written.add(fn.source);
      return writeStep(ctx, info, async () => {
        await ctx.transactions.connection(runtime);
        return deps.executor.readCompiled(ctx, runtime, stmt);
      });
    });
  };
}

/**
 * A function returning rows of a data object shows that object (issue 14 item 9): the role must be
 * allowed to read it, and since the function's own SQL chooses the rows, a role whose rules filter
 * the object's rows is refused rather than shown rows its filter would hide. Field rules apply to
 * the returned rows through the field guard, as anywhere the object's type appears.
 */
function rowsOfObject(ctx: PlanContext, fn: CatalogFunction): void {
  const object = ctx.access.ownerOf(fn.returns.type);
  if (object === undefined) return;
  ctx.access.checkObject('query', object);
  if (ctx.access.readFilter(object, ctx.authVars)) {
    throw forbidden(`"${fn.name}" returns rows of "${object}", which role "${ctx.access.role}" may read only through its row filter`);
  }
}

/**
 * A managed API key is shown once, in the answer of the insert that creates it (issue 14 item 2):
 * the stored hash is replaced by the key the client sent, at every response key selecting it.
 */
function showSecretsOnce(access: Access, obj: DataObject, info: GraphQLResolveInfo, data: Args, row: unknown): unknown {
  const hashed = [...(access.scope.secrets.get(obj.name) ?? [])].filter(([name, kind]) => kind === 'hash' && typeof data[name] === 'string');
  if (!hashed.length || !row || typeof row !== 'object') return row;
  const out = { ...(row as Record<string, unknown>) };
  for (const node of info.fieldNodes) {
    for (const sel of node.selectionSet?.selections ?? []) {
      if (sel.kind !== 'Field') continue;
      const hit = hashed.find(([name]) => name === sel.name.value);
      if (hit) out[sel.alias?.value ?? sel.name.value] = data[hit[0]];
    }
  }
  return out;
}

/** Attaches the server's resolvers to a schema built from the generated SDL. */
export function attachResolvers(schema: GraphQLSchema, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, version = 0): void {
  const field = (coord: string) => {
    const [typeName, fieldName] = coord.split('.') as [string, string];
    const type = schema.getType(typeName) as GraphQLObjectType;
    return type.getFields()[fieldName]!;
  };
  for (const coord of index.modules) field(coord).resolve = () => ({});
    // One plan cache per served schema: a new schema starts with an empty one.
  const plans = new PlanCache();
  for (const [coord, root] of index.roots) {
    field(coord).resolve = dataResolver(root, index, scope, deps, plans, version) as GraphQLFieldResolver<unknown, unknown>;
    if (READS.has(root.kind)) markReadRoot(field(coord));
  }
  for (const [coord, handlerId] of index.functions) {
    const handler = deps.functions[handlerId];
    if (!handler) throw new PublicError(ErrorCode.Internal, `no handler "${handlerId}" for ${coord}`);
    const mutation = coord.startsWith('MutationFunction.') || coord.includes('_mut_function.');
    field(coord).resolve = ((_s: unknown, args: Args, ctx: RequestContext) => {
      const access = accessOf(ctx.access, scope);
      return mutation ? ctx.serial.run(() => handler(args, ctx, access)) : handler(args, ctx, access);
    }) as GraphQLFieldResolver<unknown, unknown>;
  }
  for (const [coord, fn] of index.catalogFunctions) field(coord).resolve = functionResolver(fn, index, scope, deps, version) as GraphQLFieldResolver<unknown, unknown>;
  const h3 = schema.getQueryType()?.getFields().h3;
  if (h3) {
    h3.resolve = h3Resolver(index, scope, deps, version) as GraphQLFieldResolver<unknown, unknown>;
    const cell = schema.getType(H3_QUERY_TYPE) as GraphQLObjectType;
    for (const [name, resolve] of Object.entries(H3_CELL_RESOLVERS)) cell.getFields()[name]!.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
  }
  attachCatalogIntro(schema, index, { ...(deps.roleSchemas ? { roleSchemas: deps.roleSchemas } : {}), scope, version });
  guardFields(schema, scope);
  registerScope(schema, scope);
}
