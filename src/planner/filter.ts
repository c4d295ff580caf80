// T_filter input -> FilterNode (SPEC §4.1). Sibling keys combine with AND.
import { type ColumnField, type DataObject, isScalar, type Relation, type ScalarName } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { authParam } from './auth-param.js';
import { H3_OPERATORS, h3Filter } from './h3-filter.js';
import type { PlanContext } from './context.js';
import type { ColumnExpr, Expr } from './ir/expr.js';
import type { FilterNode } from './ir/filter.js';
import type { FromNode } from './ir/select.js';
import { columnSql, fieldExpr } from './fields.js';
import { localOnly } from './remote.js';

const and = (items: FilterNode[]): FilterNode => (items.length === 1 ? items[0]! : { kind: 'and', items });

/**
 * Where rows of `obj` come from. For `@view(sql:)`, `[$name]` takes the view argument `name`,
 * `[$auth.x]` the caller's value and `[$catalog]` the source name; a missing value is NULL
 * (SPEC §3.3). All of them become parameters.
 */
export function fromFor(ctx: PlanContext, obj: DataObject, alias: string, viewArgs?: Record<string, unknown> | null): FromNode {
  // Every read of an object's rows starts here, so an object the role may not read is refused on
  // any path (relation filters, aggregations, ordering paths); the role's own rules may name it.
  if (!ctx.inGuard) ctx.access.checkObject('query', obj.name);
  ctx.reads?.add(obj.name);
  if (obj.sql === undefined) return { kind: 'from', alias, name: ctx.tableName(obj) };
  const input = obj.args ? ctx.index.inputs.get(obj.args.input) : undefined;
  const parts: NonNullable<FromNode['sql']>[number][] = [];
  let last = 0;
  for (const m of obj.sql.matchAll(/\[\$([A-Za-z_][A-Za-z0-9_.]*)\]/g)) {
    parts.push(obj.sql.slice(last, m.index));
    const name = m[1]!;
    if (name === 'catalog') {
      // The source's own namespace (attached database and schema, or PostgreSQL schema), so view
      // SQL can name its tables: `FROM [$catalog].orders`.
      parts.push({ kind: 'ident', parts: ctx.tableName({ ...obj, table: '_' }).slice(0, -1) });
      last = m.index + m[0].length;
      continue;
    }
    if (name.startsWith('auth.')) {
      parts.push(authParam(ctx, name.slice(5)));
      last = m.index + m[0].length;
      continue;
    }
    const t = input?.fields.find((f) => f.name === name)?.type;
    parts.push({ kind: 'param', value: viewArgs?.[name] ?? null, scalar: t && isScalar(t) ? t : 'String' });
    last = m.index + m[0].length;
  }
  parts.push(obj.sql.slice(last));
  return { kind: 'from', alias, name: [], sql: parts };
}

export function objectOf(ctx: PlanContext, name: string): DataObject {
  const obj = ctx.index.objects.get(name);
  if (!obj) throw new PublicError(ErrorCode.Internal, `unknown data object "${name}"`);
  return obj;
}

const col = (table: string, column: string): ColumnExpr => ({ kind: 'column', table, column });

/** The condition that ties related rows (alias `child`) to the parent row (alias `parent`). */
export function correlation(ctx: PlanContext, rel: Relation, parent: string, child: string): FilterNode {
  const pairs = (a: readonly string[], at: string, b: readonly string[], bt: string): FilterNode[] =>
    a.map((c, i) => ({ kind: 'columns_equal', left: col(bt, b[i]!), right: col(at, c) }));
  if (!rel.via) {
    const items = pairs(rel.sourceFields, parent, rel.targetFields, child);
    // `@join(sql:)`: the catalog's condition, `[source.f]` on the parent and `[dest.f]` on the child.
    if (rel.spatial) items.push({ kind: 'spatial', type: rel.spatial.type, reference: col(parent, rel.spatial.source), other: col(child, rel.spatial.dest), ...(rel.spatial.buffer ? { buffer: rel.spatial.buffer } : {}) });
    if (rel.joinSql) items.push({ kind: 'sql', expr: { kind: 'raw', parts: rel.joinSql.map((p) => (typeof p === 'string' ? p : col(p.side === 'source' ? parent : child, p.column))) } });
    return and(items);
  }
  const junction = objectOf(ctx, rel.via.object);
  const j = ctx.nextAlias();
  const g = guard(ctx, junction, j);
  return {
    kind: 'exists',
    from: fromFor(ctx, junction, j),
    where: and([...pairs(rel.sourceFields, parent, rel.via.ownerFields, j), ...pairs(rel.targetFields, child, rel.via.targetFields, j), ...(g ? [g] : [])]),
  };
}

function columnFilter(ctx: PlanContext, obj: DataObject, alias: string, f: ColumnField, ops: Record<string, unknown>): FilterNode[] {
  const out: FilterNode[] = [];
  const left = fieldExpr(ctx, obj, alias, f, 'filter');
  for (const [op, value] of Object.entries(ops)) {
    if (value === undefined) continue;
    if (value === null && op !== 'is_null') throw new PublicError(ErrorCode.BadUserInput, `filter "${obj.name}.${f.name}.${op}" must not be null`);
    if (f.type === 'H3Cell' && !f.list && H3_OPERATORS.has(op)) {
      out.push(h3Filter(`${obj.name}.${f.name}.${op}`, left, op, value));
      continue;
    }
    out.push({ kind: 'compare', op, left, right: { kind: 'param', value, scalar: f.type }, scalar: f.type, list: f.list });
  }
  return out;
}

/** The scalar at `path` inside a struct-typed column, read as its type (filters and aggregations). */
export function structLeaf(column: Expr, path: readonly string[], scalar: ScalarName): Expr {
  const as = ['Int', 'BigInt', 'Float'].includes(scalar) ? 'number' : scalar === 'Boolean' ? 'boolean' : scalar === 'JSON' ? 'json' : 'text';
  return { kind: 'json_path', expr: column, path, as, ...(as === 'text' && scalar !== 'String' ? { cast: scalar } : {}) };
}

/** A filter inside a struct-typed column: each leaf compares the value at its JSON path. */
function structFilter(ctx: PlanContext, column: Expr, structName: string, path: readonly string[], value: Record<string, unknown>): FilterNode[] {
  const st = ctx.index.structs.get(structName);
  if (!st) throw new PublicError(ErrorCode.Internal, `unknown structure type "${structName}"`);
  const out: FilterNode[] = [];
  for (const [key, ops] of Object.entries(value)) {
    if (ops === undefined || ops === null) continue;
    const f = st.fields.find((x) => x.name === key);
    if (!f) throw new PublicError(ErrorCode.BadUserInput, `unknown filter field "${key}" of "${structName}"`);
    const at = [...path, key];
    if (!isScalar(f.type)) {
      out.push(...structFilter(ctx, column, f.type, at, ops as Record<string, unknown>));
      continue;
    }
    const scalar = f.type;
    const left = structLeaf(column, at, scalar);
    for (const [op, v] of Object.entries(ops as Record<string, unknown>)) {
      if (v === undefined) continue;
      out.push({ kind: 'compare', op, left, right: { kind: 'param', value: v, scalar }, scalar, list: f.list });
    }
  }
  return out;
}

function relationFilter(ctx: PlanContext, rel: Relation, alias: string, value: Record<string, unknown>): FilterNode[] {
  const target = objectOf(ctx, rel.target);
  localOnly(ctx, target, `the filter on "${rel.name}"`);
  const related = (inner: Record<string, unknown> | undefined, negate = false): FilterNode => {
    const child = ctx.nextAlias();
    const where: FilterNode[] = [correlation(ctx, rel, alias, child)];
    const g = guard(ctx, target, child);
    if (g) where.push(g);
    if (inner) {
      const f = planFilter(ctx, target, child, inner);
      where.push(negate ? { kind: 'not', item: f } : f);
    }
    return { kind: 'exists', from: fromFor(ctx, target, child), where: and(where) };
  };
  if (rel.kind === 'one') return [related(value)];
  const out: FilterNode[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const inner = v as Record<string, unknown>;
    if (k === 'any_of') out.push(related(inner));
    else if (k === 'none_of') out.push({ kind: 'not', item: related(inner) });
    // all_of is false when there are no related rows (SPEC §4.1).
    else if (k === 'all_of') out.push(related(undefined), { kind: 'not', item: related(inner, true) });
  }
  return out;
}

/** Plans a filter object of `obj` whose rows are under `alias`. */
export function planFilter(ctx: PlanContext, obj: DataObject, alias: string, filter: Record<string, unknown>): FilterNode {
  const items: FilterNode[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (key === '_and' || key === '_or') {
      const list = (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
      items.push({ kind: key === '_and' ? 'and' : 'or', items: list.filter(Boolean).map((v) => planFilter(ctx, obj, alias, v)) });
      continue;
    }
    if (key === '_not') {
      items.push({ kind: 'not', item: planFilter(ctx, obj, alias, value as Record<string, unknown>) });
      continue;
    }
    const field = obj.fields.find((f) => f.name === key);
    if (field?.struct) {
      items.push(...structFilter(ctx, fieldExpr(ctx, obj, alias, field, 'filter'), field.struct, [], value as Record<string, unknown>));
      continue;
    }
    if (field) {
      items.push(...columnFilter(ctx, obj, alias, field, value as Record<string, unknown>));
      continue;
    }
    const rel = obj.relations.find((r) => r.name === key);
    if (rel) {
      // Filtering through a relation uses the relation field (its target is asked in fromFor).
      if (!ctx.inGuard) ctx.access.useField(obj.name, rel.name, 'filter');
      items.push(...relationFilter(ctx, rel, alias, value as Record<string, unknown>));
      continue;
    }
    throw new PublicError(ErrorCode.BadUserInput, `unknown filter field "${key}" of "${obj.name}"`);
  }
  return items.length === 0 ? { kind: 'const', value: true } : and(items);
}

/** Rows of a source's objects a role may see beyond its permission rows (by source name). */
export type RowScope = (ctx: PlanContext, obj: DataObject, alias: string) => FilterNode | undefined;

const rowScopes = new Map<string, RowScope>();

/** Makes `guard` AND the scope's filter into every read of the source's objects (system views). */
export function registerRowScope(source: string, scope: RowScope): void {
  rowScopes.set(source, scope);
}

/**
 * The role's row filter for reading `obj` under `alias` (SPEC §7 `data-object:query`), or undefined.
 * Every place that reads rows of an object asks for it, so no path (relations in either
 * direction, relation filters, aggregations, ordering paths) sees rows the role may not read.
 */
export function guard(ctx: PlanContext, obj: DataObject, alias: string): FilterNode | undefined {
  // Soft-deleted rows are absent wherever the object is read, unless @with_deleted (SPEC §3.3).
  const live: FilterNode | undefined = obj.softDelete?.cond && !ctx.withDeleted ? { kind: 'sql', expr: columnSql(obj, alias, obj.softDelete.cond) } : undefined;
  if (ctx.inGuard) return live;
  // Views whose rows describe the schema show a role only what its introspection shows (issue 17).
  const scoped = andAll(live, rowScopes.get(obj.source)?.(ctx, obj, alias));
  const filter = ctx.access.readFilter(obj.name, ctx.authVars);
  if (!filter) return scoped;
  return andAll(scoped, planFilter({ ...ctx, inGuard: true }, obj, alias, filter));
}

/** `a AND b`, skipping absent parts. */
export function andAll(...items: (FilterNode | undefined)[]): FilterNode | undefined {
  const present = items.filter((x): x is FilterNode => !!x);
  if (!present.length) return undefined;
  return present.length === 1 ? present[0]! : { kind: 'and', items: present };
}

/** True when the filter (or a nested `_and`) names the field; used by @filter_required. */
export function filterNames(filter: Record<string, unknown> | undefined | null, field: string): boolean {
  if (!filter) return false;
  if (filter[field] !== undefined && filter[field] !== null) return true;
  const and = filter._and;
  return Array.isArray(and) && and.some((f) => filterNames(f as Record<string, unknown>, field));
}
