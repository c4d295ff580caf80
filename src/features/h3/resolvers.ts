// The root `h3(resolution)` field (SPEC §4.5): for each `_h3_data_query` field the client selected,
// one grouped statement on the object's source (two on PostgreSQL, see below), then the cells of all
// of them merged in the server. Never a statement per row or per cell.
import { type FieldNode, getArgumentValues, getNamedType, getNullableType, type GraphQLField, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLResolveInfo, isListType, isObjectType } from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields.js';
import type { RequestContext } from '../../executor/request-context.js';
import { type Access, type AccessScope, accessOf, forbidden } from '../../permissions/access.js';
import { checkResolution, H3_DATA_KEY, type H3Aggregation, planH3Buckets, planH3Groups } from '../../planner/h3.js';
import type { Expr } from '../../planner/ir/expr.js';
import { checkRequiredFilters } from '../../planner/select.js';
import type { Args } from '../../planner/rows.js';
import type { SchemaIndex } from '../../schema/surface.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import { h3 } from '../../shared/h3.js';
import type { RootFieldTarget } from '../../pipeline/field-stage.js';
import { planContext } from '../../pipeline/plan-context.js';
import type { ResolverDeps } from '../../pipeline/resolver-deps.js';

export const H3_QUERY_TYPE = '_h3_query';
export const H3_DATA_TYPE = '_h3_data_query';
const SUFFIX = '_aggregation';
const BUCKETS = '_bucket_aggregation';

/**
 * Distinct centroids one object may send through the server on a source that cannot compute cells
 * (PostgreSQL without the h3 extension): beyond this, a finer filter or a DuckDB source is needed.
 */
export const H3_MAX_POINTS = 200_000;

interface Wanted extends H3Aggregation {
  readonly key: string;
  /** The `_h3_data_query` field's name. */
  readonly field: string;
  readonly inner: boolean;
}

/** The `_h3_data_query` fields under `data`, by response key, with their arguments. */
function wanted(info: GraphQLResolveInfo, index: SchemaIndex): Wanted[] {
  const cellType = getNamedType(info.returnType) as GraphQLObjectType;
  const sub = (type: GraphQLObjectType, nodes: readonly FieldNode[]) => collectSubfields(info.schema, info.fragments, info.variableValues, type, nodes as FieldNode[]);
  const out: Wanted[] = [];
  for (const group of sub(cellType, info.fieldNodes).values()) {
    if (group[0]!.name.value !== 'data') continue;
    const dataType = getNamedType(cellType.getFields().data!.type) as GraphQLObjectType;
    for (const [key, nodes] of sub(dataType, group)) {
      const name = nodes[0]!.name.value;
      const def = dataType.getFields()[name];
      if (!def) continue;
      // The return type tells the two apart (an object may be named `x_bucket`).
      const buckets = isListType(getNullableType(def.type));
      const suffix = buckets ? BUCKETS : SUFFIX;
      const obj = name.endsWith(suffix) ? index.objects.get(name.slice(0, -suffix.length)) : undefined;
      const type = getNamedType(def.type);
      if (!obj || !isObjectType(type)) continue;
      const args = getArgumentValues(def as GraphQLField<unknown, unknown>, nodes[0]!, info.variableValues) as Args;
      out.push({ key, field: name, obj, type, nodes, args, inner: args.inner === true, buckets });
    }
  }
  return out;
}

/**
 * The same rows as the object's own aggregation: its data-object rules, the filter rows on its
 * aggregation root field and on this `_h3_data_query` field, and the object's required filters.
 */
function withRules(w: Wanted, access: Access, index: SchemaIndex, ctx: RequestContext): Wanted {
  access.checkObject('query', w.obj.name);
  const filters = [w.args.filter as Args | undefined, access.fieldFilter(H3_DATA_TYPE, w.field, ctx.authVars)];
  for (const [coord, root] of index.roots) {
    if (root.object !== w.obj.name || root.kind !== (w.buckets ? 'bucket_aggregation' : 'aggregation')) continue;
    const [type, field] = coord.split('.') as [string, string];
    if (access.fieldDenied(type, field, w.type.name)) throw forbidden(`role "${access.role}" may not aggregate "${w.obj.name}"`);
    filters.push(access.fieldFilter(type, field, ctx.authVars));
  }
  const present = filters.filter((f): f is Args => !!f);
  checkRequiredFilters(w.obj, w.args.filter as Args | undefined);
  const filter = present.length > 1 ? { _and: present } : present[0];
  return { ...w, args: { ...w.args, ...(filter ? { filter } : { filter: undefined }) } };
}

type Groups = readonly { cell: string | null; data?: unknown }[];

/** One object's aggregation per cell, as `cell -> aggregation`. */
async function cellsOf(w: Wanted, resolution: number, info: GraphQLResolveInfo, ctx: RequestContext, index: SchemaIndex, scope: AccessScope, deps: ResolverDeps): Promise<Map<string, unknown>> {
  const runtime = deps.registry.runtime(w.obj.source);
  const way = runtime.compiler.h3Cells ?? 'none';
  if (way === 'none') throw new PublicError(ErrorCode.BadUserInput, `h3: "${w.obj.name}" is on a ${runtime.type} source, which cannot group by H3 cell`);
  const plan = (key: (g: Expr) => Expr, withData: boolean) => {
    const statement = { source: w.obj.source, remotes: [] };
    const pctx = { ...planContext(info, index, scope, deps.registry, ctx), reads: new Set<string>(), statement };
    const node = withData && w.buckets ? planH3Buckets(pctx, w, pctx.nextAlias(), key) : planH3Groups(pctx, w, pctx.nextAlias(), key, withData);
    if (statement.remotes.length) throw new PublicError(ErrorCode.BadUserInput, `h3: "${w.key}" aggregates relations into another source, which h3 does not support`);
    for (const r of pctx.reads) ctx.reads.add(r);
    return node;
  };
  const run = async (key: (g: Expr) => Expr, withData: boolean, limit?: number): Promise<Groups> => {
    const node = plan(key, withData);
    const stmt = runtime.compiler.compileQuery({ kind: 'aggregate', node: limit === undefined ? node : { ...node, limit } }, ctx.timezone);
    return ((await deps.executor.readCompiled(ctx, runtime, stmt, false)) ?? []) as Groups;
  };
  let groups: Groups;
  if (way === 'sql') {
    groups = await run((g) => ({ kind: 'h3_cell', expr: g, resolution }), true);
  } else {
    // No H3 in the database: one statement finds the distinct centroids (the rows' own filters
    // and rules applied), the server maps each to its cell with h3-js, and a second statement
    // groups the rows by that map, sent as one parameter. Two statements per object, whatever
    // the number of rows; the aggregation itself stays in SQL, planned as everywhere else.
    // Planned first so that a field the role may not aggregate is refused before any statement.
    plan((g) => ({ kind: 'h3_cell', expr: g, resolution, cells: {} }), true);
    const points = await run((g) => ({ kind: 'geo_point_key', expr: g }), false, H3_MAX_POINTS + 1);
    if (points.length > H3_MAX_POINTS) {
      throw new PublicError(ErrorCode.BadUserInput, `h3: "${w.obj.name}" has more than ${H3_MAX_POINTS} distinct locations under this filter on a ${runtime.type} source; narrow the filter`);
    }
    const cells: Record<string, string> = {};
    for (const p of points) {
      if (p.cell === null) continue;
      const [x, y] = p.cell.split(' ').map(Number) as [number, number];
      cells[p.cell] = h3().latLngToCell(y, x, resolution);
    }
    groups = points.length ? await run((g) => ({ kind: 'h3_cell', expr: g, resolution, cells }), true) : [];
  }
  const out = new Map<string, unknown>();
  for (const g of groups) {
    if (g.cell === null) continue;
    // Buckets come one row each, in the order the client asked for: listed per cell in that order.
    const list = w.buckets ? (out.get(g.cell) as unknown[] | undefined) : undefined;
    if (list) list.push(g[H3_DATA_KEY]);
    else out.set(g.cell, w.buckets ? [g[H3_DATA_KEY]] : g[H3_DATA_KEY]);
  }
  return out;
}

/**
 * `Query.h3`: the cells where any selected aggregation has rows (only those where every
 * `inner: true` one has), ordered by cell; an aggregation without rows in a cell is null there.
 */
export function h3Resolver(index: SchemaIndex, scope: AccessScope, deps: ResolverDeps, version: number): GraphQLFieldResolver<unknown, RequestContext> {
  const target: RootFieldTarget = { kind: 'read', tags: [], schemaVersion: version };
  return async (source, args: Args, ctx, info) => {
    const resolution = checkResolution(args.resolution);
    const access = accessOf(ctx.access, scope);
    const all = wanted(info, index).map((w) => withRules(w, access, index, ctx));
    return deps.stages.run({ source, args, ctx, info, target, reads: new Set() }, async (call) => {
      const answers = await Promise.all(all.map((w) => cellsOf(w, resolution, info, ctx, index, scope, deps)));
      all.forEach((w) => call.reads.add(w.obj.name));
      const cells = new Set(answers.flatMap((a) => [...a.keys()]));
      return [...cells]
        .filter((c) => all.every((w, i) => !w.inner || answers[i]!.has(c)))
        .sort()
        .map((cell) => ({ cell, resolution, data: Object.fromEntries(all.map((w, i) => [w.key, answers[i]!.get(cell) ?? null])) }));
    });
  };
}

/** `_h3_query` fields read the cell by name (aliases allowed); the outline is drawn only when asked. */
export const H3_CELL_RESOLVERS: Record<string, GraphQLFieldResolver<{ cell: string; resolution: number; data: unknown }, unknown>> = {
  cell: (s) => s.cell,
  resolution: (s) => s.resolution,
  geom: (s) => ({ type: 'Polygon', coordinates: [h3().cellToBoundary(s.cell, true)] }),
  data: (s) => s.data,
};
