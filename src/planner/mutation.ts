// Mutation inputs -> write nodes (SPEC §4.3). Nested inserts form a tree the executor walks:
// N:1 parents first, then the row, then 1:N children and M2M links.
import type { ColumnField, DataObject, Relation } from '../catalog/model.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { storedSecret } from '../shared/secrets.js';
import type { PlanContext } from './context.js';
import { andAll, guard, objectOf, planFilter } from './filter.js';
import type { ParamExpr, RawSqlExpr } from './ir/expr.js';
import type { DeleteNode, UpdateNode } from './ir/mutation.js';

export interface InsertTree {
  readonly object: DataObject;
  /** Physical column -> value. */
  readonly values: ReadonlyMap<string, ParamExpr | RawSqlExpr>;
  readonly parents: readonly { readonly relation: Relation; readonly tree: InsertTree }[];
  readonly children: readonly { readonly relation: Relation; readonly trees: readonly InsertTree[]; readonly junction?: DataObject }[];
  /**
   * A many-to-many row the client gave by its key alone (`categories: [{id: 1}]`, hugr's relations
   * page): the existing row is linked through the junction, not inserted.
   */
  readonly linkOnly?: boolean;
}

const param = (f: ColumnField, value: unknown): ParamExpr => ({ kind: 'param', value, scalar: f.type, ...(f.list ? { list: true } : {}), ...(f.read ? { into: f.read } : {}) });

/** The value stored for a client's value: a hashed secret (API keys) is stored as its hash. */
function written(ctx: PlanContext, obj: DataObject, f: ColumnField, value: unknown): ParamExpr {
  const kind = ctx.access.scope.secrets.get(obj.name)?.get(f.name);
  return param(f, kind === 'hash' && typeof value === 'string' ? storedSecret(value) : value);
}

/**
 * The client's own values are written only to fields the role may use; values stamped by the
 * role's rows (`data`) are the operator's and may fill fields the role cannot touch (issue 14 item 5).
 */
function checkClientFields(ctx: PlanContext, obj: DataObject, input: Record<string, unknown>, stamped: Record<string, unknown>): void {
  for (const key of Object.keys(input)) {
    if (input[key] === undefined || key in stamped) continue;
    if (obj.fields.some((f) => f.name === key) || obj.relations.some((r) => r.name === key)) ctx.access.useField(obj.name, key, 'write');
  }
}

function writable(obj: DataObject): void {
  if (obj.kind !== 'table' || obj.readOnly) {
    throw new PublicError(ErrorCode.ReadOnly, `"${obj.name}" is read-only: ${obj.kind === 'view' ? 'it is a view' : 'its data source is read-only'}`);
  }
}

/** `stamps`: values the mutation field's own row stamps (root level only). */
export function planInsert(ctx: PlanContext, obj: DataObject, input: Record<string, unknown>, stamps: Record<string, unknown> = {}): InsertTree {
  writable(obj);
  ctx.access.checkObject('insert', obj.name);
  // Object-wide `data` is stamped over what the client sent, at every level (SPEC §7).
  const stamped = { ...stamps, ...ctx.access.objectData('insert', obj.name, ctx.authVars) };
  checkClientFields(ctx, obj, input, stamped);
  const data = { ...input, ...stamped };
  const values = new Map<string, ParamExpr | RawSqlExpr>();
  const parents: InsertTree['parents'][number][] = [];
  const children: InsertTree['children'][number][] = [];
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const f = obj.fields.find((x) => x.name === key);
    if (f) {
      if (f.sql !== undefined) throw new PublicError(ErrorCode.BadUserInput, `field "${obj.name}.${key}" is computed and cannot be written`);
      values.set(f.column, written(ctx, obj, f, value));
      continue;
    }
    const rel = obj.relations.find((r) => r.name === key);
    if (!rel) throw new PublicError(ErrorCode.BadUserInput, `unknown field "${key}" of "${obj.name}"`);
    if (value === null) continue;
    const target = objectOf(ctx, rel.target);
    if (rel.kind === 'one') parents.push({ relation: rel, tree: planInsert(ctx, target, value as Record<string, unknown>) });
    else {
      const keyOnly = (v: Record<string, unknown>) => {
        const given = Object.keys(v).filter((k) => v[k] !== undefined);
        const keys = target.fields.filter((f) => rel.targetFields.includes(f.column)).map((f) => f.name);
        return !!rel.via && given.length === keys.length && keys.every((k) => given.includes(k) && v[k] !== null);
      };
      const trees = (value as Record<string, unknown>[]).map((v) => (keyOnly(v) ? { ...planInsert(ctx, target, v), linkOnly: true } : planInsert(ctx, target, v)));
      const junction = rel.via ? objectOf(ctx, rel.via.object) : undefined;
      // The junction row is written too: it is checked like every other table (issue 14 item 7).
      if (junction) {
        writable(junction);
        ctx.access.checkObject('insert', junction.name);
      }
      children.push({ relation: rel, trees, ...(junction ? { junction } : {}) });
    }
  }
  for (const f of obj.fields) {
    if (values.has(f.column) || f.sql !== undefined || !f.default) continue;
    if (f.default.value !== undefined) values.set(f.column, defaultValue(f, f.default.value));
    else if (f.default.sequence) values.set(f.column, sequenceValue(f.default.sequence, ctx.tableName(obj)));
    else if (f.default.insertExp) values.set(f.column, defaultSql(obj, f.default.insertExp, data));
  }
  return { object: obj, values, parents, children };
}

const SEQUENCE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * `@default(sequence:)`: the sequence's next value (a catalog name, checked, never client input).
 * The name is completed with the qualifiers of the table it fills (database and schema on DuckDB,
 * schema on PostgreSQL): unqualified, DuckDB looked in the engine's own database (issue 15).
 */
function sequenceValue(name: string, table: readonly string[]): RawSqlExpr {
  if (!SEQUENCE.test(name)) throw new PublicError(ErrorCode.CatalogInvalid, `invalid sequence name "${name}" in @default`);
  const parts = name.split('.');
  const qualified = [...table.slice(0, Math.max(0, table.length - parts.length)), ...parts];
  const text = qualified.map((p) => `"${p.replaceAll('"', '""')}"`).join('.').replaceAll("'", "''");
  return { kind: 'raw', parts: [`nextval('${text}')`] };
}

/**
 * `@default(insert_exp:)` / `update_exp:`: catalog SQL where `[$field]` is the value the client sent
 * for that field, bound as a parameter (SPEC §3.3).
 */
/**
 * hugr's catalogs write `@default(value: "now()")` on time fields: PostgreSQL reads that text as the
 * current time ('now' and 'today' are among its special date/time inputs), DuckDB and MySQL refuse it.
 * On every dialect such a value is the statement's current time (today's date for 'today').
 */
const CURRENT: Partial<Record<string, { now: string; today: string }>> = {
  Timestamp: { now: 'CURRENT_TIMESTAMP', today: 'CURRENT_DATE' },
  DateTime: { now: 'CURRENT_TIMESTAMP', today: 'CURRENT_DATE' },
  Date: { now: 'CURRENT_DATE', today: 'CURRENT_DATE' },
  Time: { now: 'CURRENT_TIME', today: 'CURRENT_TIME' },
};

function defaultValue(f: ColumnField, value: unknown): ParamExpr | RawSqlExpr {
  const word = typeof value === 'string' && !f.list ? /^\s*(now\(\)|now|current_timestamp|today|current_date)\s*$/i.exec(value)?.[1]?.toLowerCase() : undefined;
  const current = word ? CURRENT[f.type] : undefined;
  if (!current) return param(f, value);
  return { kind: 'raw', parts: [word === 'today' || word === 'current_date' ? current.today : current.now] };
}

function defaultSql(obj: DataObject, template: string, data: Record<string, unknown>): RawSqlExpr {
  const parts: RawSqlExpr['parts'][number][] = [];
  let last = 0;
  for (const m of template.matchAll(/\[\$([A-Za-z_][A-Za-z0-9_]*)\]/g)) {
    const f = obj.fields.find((x) => x.name === m[1]);
    if (!f) continue;
    parts.push(template.slice(last, m.index));
    parts.push(param(f, data[f.name] ?? null));
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  return { kind: 'raw', parts };
}

function setList(ctx: PlanContext, obj: DataObject, data: Record<string, unknown>): UpdateNode['set'] {
  const updates = obj.fields
    .filter((f) => f.default?.updateExp && data[f.name] === undefined)
    .map((f) => ({ column: f.column, value: defaultSql(obj, f.default!.updateExp!, data) }));
  return [...updates, ...setFromData(ctx, obj, data)];
}

function setFromData(ctx: PlanContext, obj: DataObject, data: Record<string, unknown>): UpdateNode['set'] {
  return Object.entries(data)
    .filter(([, v]) => v !== undefined)
    .map(([key, value]) => {
      const f = obj.fields.find((x) => x.name === key);
      if (!f) throw new PublicError(ErrorCode.BadUserInput, `unknown field "${key}" of "${obj.name}"`);
      if (f.sql !== undefined) throw new PublicError(ErrorCode.BadUserInput, `field "${obj.name}.${key}" is computed and cannot be written`);
      return { column: f.column, value: written(ctx, obj, f, value) };
    });
}

/**
 * The rows an update or delete may touch: the client's filter ANDed with the role's write rule for
 * the object (SPEC §7 `filter` of an update/delete row), so the rule narrows the statement itself.
 */
export function writeWhere(ctx: PlanContext, op: 'update' | 'delete', obj: DataObject, filter: Record<string, unknown> | null | undefined): Record<string, unknown> | null | undefined {
  const rule = ctx.access.writeFilter(op, obj.name, ctx.authVars);
  if (!rule) return filter;
  return filter ? { _and: [filter, rule] } : rule;
}

export function planUpdate(
  ctx: PlanContext, obj: DataObject, clientFilter: Record<string, unknown> | null | undefined, input: Record<string, unknown>, stamps: Record<string, unknown> = {},
): UpdateNode {
  writable(obj);
  ctx.access.checkObject('update', obj.name);
  const filter = writeWhere(ctx, 'update', obj, clientFilter);
  const stamped = { ...stamps, ...ctx.access.objectData('update', obj.name, ctx.authVars) };
  checkClientFields(ctx, obj, input, stamped);
  const data = { ...input, ...stamped };
  const alias = ctx.nextAlias();
  const set = setList(ctx, obj, data);
  if (!setFromData(ctx, obj, data).length) throw new PublicError(ErrorCode.BadUserInput, `update of "${obj.name}" sets no field`);
  return { kind: 'update', table: ctx.tableName(obj), alias, set, ...(filter ? { where: planFilter(ctx, obj, alias, filter) } : {}) };
}

export function planDelete(ctx: PlanContext, obj: DataObject, clientFilter: Record<string, unknown> | null | undefined): DeleteNode | UpdateNode {
  writable(obj);
  ctx.access.checkObject('delete', obj.name);
  const filter = writeWhere(ctx, 'delete', obj, clientFilter);
  const alias = ctx.nextAlias();
  if (obj.softDelete?.set) {
    // Soft delete: mark the live rows as deleted instead of removing them.
    const live = guard({ ...ctx, withDeleted: false }, obj, alias);
    const where = andAll(filter ? planFilter(ctx, obj, alias, filter) : undefined, live);
    return { kind: 'update', table: ctx.tableName(obj), alias, set: [], rawSet: obj.softDelete.set, ...(where ? { where } : {}) };
  }
  return { kind: 'delete', table: ctx.tableName(obj), alias, ...(filter ? { where: planFilter(ctx, obj, alias, filter) } : {}) };
}
