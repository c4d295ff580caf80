// The plan of one root data field, by its kind (list, by key, aggregation, buckets), with the
// role's rules on the field itself narrowing it (DESIGN.md §3.5: permissions narrow the plan): the
// field's filter row is ANDed to the client's filter (SPEC §7), its `data` stamps written values,
// and a written row is read back by its key.
import type { FieldNode, GraphQLObjectType } from 'graphql';
import type { CatalogFunction, DataObject } from '../catalog/model.js';
import { forbidden } from '../permissions/access.js';
import type { DataRootField } from '../schema/surface.js';
import { hashSecret } from '../shared/secrets.js';
import { planAggregation } from './aggregate.js';
import { planBuckets } from './buckets.js';
import type { PlanContext } from './context.js';
import type { FilterNode } from './ir/filter.js';
import type { RootQuery, SelectNode } from './ir/select.js';
import { type Args, checkRequiredFilters, planSelect } from './select.js';

/** The root field being planned, and what the client selected under it. */
export interface RootTarget {
  /** `type.field` of the root field: the coordinates of its permission rows. */
  readonly type: string;
  readonly field: string;
  readonly returns: GraphQLObjectType;
  readonly nodes: readonly FieldNode[];
}

/** The client's arguments with the field's own filter row ANDed to their filter. */
function narrowed(p: PlanContext, t: RootTarget, args: Args): Args {
  const rule = p.access.fieldFilter(t.type, t.field, p.authVars);
  return rule ? { ...args, filter: args.filter ? { _and: [args.filter, rule] } : rule } : args;
}

/** Values the field's own permission row stamps into what it writes (SPEC §7 `data`). */
export const rootStamps = (p: PlanContext, t: Pick<RootTarget, 'type' | 'field'>): Record<string, unknown> => p.access.fieldData(t.type, t.field, p.authVars);

/**
 * WHERE <fields> = <values>: by primary key, unique key, or a row just written (`byColumn`: the
 * values are the row's columns). A hashed secret (`api_keys_by_key(key)`) is looked up by the hash
 * of the value given.
 */
function keyFilter(p: PlanContext, obj: DataObject, alias: string, values: Record<string, unknown>, byColumn: boolean): FilterNode {
  const fields = byColumn ? obj.pk.map((n) => obj.fields.find((f) => f.name === n)!) : obj.fields.filter((f) => f.name in values);
  const hashed = p.access.scope.secrets.get(obj.name);
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

const withWhere = (sel: SelectNode, extra: FilterNode): SelectNode => ({ ...sel, where: sel.where ? { kind: 'and', items: [sel.where, extra] } : extra });

/** One row by key (`by_pk`, a unique key, or the row a write just wrote). */
export function planRow(p: PlanContext, obj: DataObject, t: RootTarget, args: Args, values: Record<string, unknown>, byColumn: boolean): RootQuery {
  const alias = p.nextAlias();
  const sel = planSelect(p, obj, alias, t.returns, t.nodes, narrowed(p, t, { args: args.args }));
  return { kind: 'one', select: withWhere(sel, keyFilter(p, obj, alias, values, byColumn)) };
}

/** A read root field's plan for these arguments (nested arguments are read from `p.variables`). */
export function planRead(p: PlanContext, kind: DataRootField['kind'], obj: DataObject, t: RootTarget, args: Args): RootQuery {
  if (kind === 'by_pk' || kind === 'unique') return planRow(p, obj, t, args, args, false);
  // @filter_required asks the client's own filter, before the role's is added.
  checkRequiredFilters(obj, args.filter as Args | undefined);
  const a = narrowed(p, t, args);
  if (kind === 'aggregation') return { kind: 'aggregate', node: planAggregation(p, obj, p.nextAlias(), t.returns, t.nodes, a) };
  if (kind === 'bucket_aggregation') return { kind: 'aggregate', node: planBuckets(p, obj, p.nextAlias(), t.returns, t.nodes, a) };
  return { kind: 'list', select: planSelect(p, obj, p.nextAlias(), t.returns, t.nodes, a) };
}

/**
 * A function returning rows of a data object shows that object (issue 14 item 9): the role must be
 * allowed to read it, and since the function's own SQL chooses the rows, a role whose rules filter
 * the object's rows is refused rather than shown rows its filter would hide. Field rules apply to
 * the returned rows through the field guard, as anywhere the object's type appears.
 */
export function checkFunctionRows(p: PlanContext, fn: CatalogFunction): void {
  const object = p.access.ownerOf(fn.returns.type);
  if (object === undefined) return;
  p.access.checkObject('query', object);
  if (p.access.readFilter(object, p.authVars)) {
    throw forbidden(`"${fn.name}" returns rows of "${object}", which role "${p.access.role}" may read only through its row filter`);
  }
}
