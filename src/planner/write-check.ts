// Hasura's "check" after a write (issue 31): the rows a write produced are read back, in the same
// transaction, under the role's rules for reading the object and for the write itself; a row that
// does not come back is one the role wrote into a state its own rules hide. Two reads: the keys of
// the rows an update is about to change, and the rows among some keys that the rules let through.
import type { DataObject } from '../catalog/model.js';
import type { PlanContext } from './context.js';
import { andAll, guard, planFilter } from './filter.js';
import type { FilterNode } from './ir/filter.js';
import type { SelectNode } from './ir/select.js';

/** The rows' primary key columns: the physical column names. */
export const keyColumns = (obj: DataObject): string[] => obj.pk.map((n) => obj.fields.find((f) => f.name === n)!.column);

function keysSelect(ctx: PlanContext, obj: DataObject, alias: string, where: FilterNode | undefined): SelectNode {
  const fields = obj.pk.map((n) => obj.fields.find((f) => f.name === n)!).map((f) => ({
    kind: 'scalar' as const, key: f.column, expr: { kind: 'column' as const, table: alias, column: f.column }, scalar: f.type, list: false,
  }));
  return { kind: 'select', from: { kind: 'from', alias, name: ctx.tableName(obj) }, fields, ...(where ? { where } : {}), orderBy: [] };
}

/** The keys of the rows a write's filter (client's filter AND the role's) matches, before the write. */
export function planKeysOf(ctx: PlanContext, obj: DataObject, filter: Record<string, unknown> | null | undefined): SelectNode {
  const alias = ctx.nextAlias();
  return keysSelect(ctx, obj, alias, filter ? planFilter(ctx, obj, alias, filter) : undefined);
}

/**
 * The rows among `keys` (physical column -> value) that the role may read and that pass `rule`,
 * the write's own filter: the ones missing from the answer failed the check.
 */
export function planKeyCheck(ctx: PlanContext, obj: DataObject, rule: Record<string, unknown> | undefined, keys: readonly Readonly<Record<string, unknown>>[]): SelectNode {
  const alias = ctx.nextAlias();
  const fields = obj.pk.map((n) => obj.fields.find((f) => f.name === n)!);
  const rows: FilterNode[] = keys.map((k) => {
    const items: FilterNode[] = fields.map((f) => ({
      kind: 'compare', op: 'eq', left: { kind: 'column', table: alias, column: f.column },
      right: { kind: 'param', value: k[f.column], scalar: f.type }, scalar: f.type, list: false,
    }));
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  });
  const inKeys: FilterNode = rows.length === 1 ? rows[0]! : { kind: 'or', items: rows };
  // The read rule comes with the guard; the write's own rule is planned as a rule (its relations unguarded).
  const own = rule ? planFilter({ ...ctx, inGuard: true }, obj, alias, rule) : undefined;
  return keysSelect(ctx, obj, alias, andAll(inKeys, guard(ctx, obj, alias), own));
}
