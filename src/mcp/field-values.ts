// `field_values`: what one field holds, without reading rows. Numbers, dates and times: count,
// distinct count, min, max (and avg for numbers) from the object's aggregation; anything else: the
// most frequent values with their counts from its bucket aggregation, at most `limit` of them.
// Both run as the caller through the runner, so row filters and field rules apply to the figures.
import { getNamedType, isObjectType } from 'graphql';
import type { RequestContext } from '../executor/request-context.js';
import { wrap } from './describe.js';
import type { RoleView } from './role-view.js';
import { type GraphqlRunner, ToolFailure } from './runner.js';

export interface FieldValuesArgs {
  readonly object: string;
  readonly field: string;
  readonly filter?: Record<string, unknown>;
  readonly limit: number;
}

/** Follows the module path of a root field in the answer (`{core: {catalog: {types: ...}}}`). */
function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

export async function fieldValues(view: RoleView, runner: GraphqlRunner, caller: RequestContext, args: FieldValuesArgs): Promise<Record<string, unknown>> {
  const entry = view.find(args.object);
  if (!entry || entry.kind !== 'object') {
    const like = view.suggest(args.object, ['object']);
    throw new ToolFailure(`no data object "${args.object}"; use search to find one${like.length ? ` (did you mean ${like.map((n) => `"${n}"`).join(', ')}?)` : ''}`, 'object');
  }
  const type = view.schema.getType(entry.name);
  const fields = isObjectType(type) ? type.getFields() : {};
  const field = fields[args.field];
  const aggregation = entry.places.get('aggregation');
  const buckets = entry.places.get('bucket_aggregation');
  const aggType = aggregation ? getNamedType(aggregation.field.type) : undefined;
  const stats = isObjectType(aggType) ? aggType.getFields()[args.field] : undefined;
  if (!field || field.name.startsWith('_') || (!stats && !buckets)) {
    const names = Object.keys(fields).filter((n) => !n.startsWith('_') && isObjectType(aggType) && n in aggType.getFields() && !isObjectType(getNamedType(fields[n]!.type)));
    throw new ToolFailure(`"${entry.name}" has no field "${args.field}" whose values can be counted; fields: ${names.join(', ')}`, 'field');
  }
  const filterType = aggregation?.field.args.find((a) => a.name === 'filter')?.type;
  const statsType = stats ? getNamedType(stats.type) : undefined;
  const functions = isObjectType(statsType) ? statsType.getFields() : {};
  const variables = args.filter ? { filter: args.filter } : undefined;
  const decl = args.filter && filterType ? `($filter: ${String(filterType)})` : '';
  const filterArg = args.filter ? '(filter: $filter)' : '';
  if (aggregation && 'min' in functions && 'max' in functions) {
    const picks = ['count', ...('count' in functions && functions.count!.args.some((a) => a.name === 'distinct') ? ['distinct: count(distinct: true)'] : []), 'min', 'max', ...('avg' in functions ? ['avg'] : [])];
    const query = `query${decl} ${wrap(aggregation, `${aggregation.field.name}${filterArg} { _rows_count ${args.field} { ${picks.join(' ')} } }`)}`;
    const { value } = await runner.run(view, caller, { query, ...(variables ? { variables } : {}) }, 'query');
    const row = at(value, [...aggregation.path, aggregation.field.name]) as Record<string, unknown> | undefined;
    return { object: entry.name, field: args.field, type: String(field.type), rows: row?._rows_count ?? null, ...((row?.[args.field] as object | undefined) ?? {}) };
  }
  if (!buckets) throw new ToolFailure(`"${entry.name}" offers no grouping by "${args.field}"`, 'field');
  // Ties broken by the value itself: an answer that changes order between two identical calls reads as
  // a change in the data to a model comparing them.
  const order = `order_by: [{field: "aggregations._rows_count", direction: DESC}, {field: "key.${args.field}", direction: ASC}], limit: ${args.limit + 1}`;
  const call = `${buckets.field.name}(${args.filter ? 'filter: $filter, ' : ''}${order}) { key { ${args.field} } aggregations { _rows_count } }`;
  const query = `query${decl} ${wrap(buckets, call)}`;
  const { value } = await runner.run(view, caller, { query, ...(variables ? { variables } : {}) }, 'query');
  const rows = (at(value, [...buckets.path, buckets.field.name]) as { key?: Record<string, unknown>; aggregations?: { _rows_count?: unknown } }[] | undefined) ?? [];
  const values = rows.slice(0, args.limit).map((r) => ({ value: r.key?.[args.field] ?? null, count: r.aggregations?._rows_count ?? null }));
  return {
    object: entry.name, field: args.field, type: String(field.type), values,
    ...(rows.length > args.limit ? { note: `more than ${args.limit} distinct values; these are the most frequent (raise limit, or filter)` } : {}),
  };
}
