// `describe`: one module, object or function as the caller's role sees it, with an example query
// built from that schema and checked against it, so the example always runs for this caller.
import {
  type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLNamedType, type GraphQLSchema, getNamedType, isEnumType, isInputObjectType,
  isLeafType, isListType, isNonNullType, isObjectType, parse, validate,
} from 'graphql';
import type { Entry, Placement, RoleView } from './role-view.js';

const SAMPLE: Record<string, unknown> = {
  Int: 1, BigInt: 1, Float: 1.5, String: 'text', ID: '1', Boolean: true, Timestamp: '2025-01-01T00:00:00Z', DateTime: '2025-01-01T00:00:00', Date: '2025-01-01', Time: '12:00:00',
  Interval: 'P1D', JSON: {},
};

/** A GraphQL literal of a placeholder value for a required argument. */
function sample(type: GraphQLInputType): string {
  const t = isNonNullType(type) ? type.ofType : type;
  if (isListType(t)) return `[${sample(t.ofType)}]`;
  if (isEnumType(t)) return t.getValues()[0]?.name ?? 'null';
  if (isInputObjectType(t)) {
    const required = Object.values(t.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{${required.map((f) => `${f.name}: ${sample(f.type)}`).join(', ')}}`;
  }
  return JSON.stringify(SAMPLE[t.name] ?? 'text').replace(/^\{\}$/, '"{}"');
}

const requiredArgs = (args: readonly GraphQLArgument[]) => args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);

/** Leaf fields a first query would ask for (no arguments needed), at most `max`. */
export function leafSelection(type: GraphQLNamedType, max = 8): string[] {
  if (!isObjectType(type)) return [];
  return Object.values(type.getFields())
    .filter((f) => !f.name.startsWith('_') && isLeafType(getNamedType(f.type)) && !requiredArgs(f.args).length)
    .slice(0, max)
    .map((f) => f.name);
}

/** Wraps a root field call in its module fields: `{ core { catalog { types(...) {...} } } }`. */
export function wrap(place: Placement, call: string): string {
  const inner = [...place.path].reverse().reduce((body, m) => `${m} { ${body} }`, call);
  return `${place.root === 'mutation' ? 'mutation ' : ''}{ ${inner} }`;
}

function callOf(field: GraphQLField<unknown, unknown>, extra: Record<string, string> = {}): string {
  const args = { ...Object.fromEntries(requiredArgs(field.args).map((a) => [a.name, sample(a.type)])), ...extra };
  const list = Object.entries(args).map(([k, v]) => `${k}: ${v}`).join(', ');
  return `${field.name}${list ? `(${list})` : ''}`;
}

/** The query text when it validates against the role's schema, else undefined. */
function checked(schema: GraphQLSchema, text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    return validate(schema, parse(text)).length ? undefined : text;
  } catch {
    return undefined;
  }
}

const typeText = (f: { type: unknown }) => String(f.type);
const pathOf = (p: Placement) => [...p.path, p.field.name].join('.');

function describeObject(view: RoleView, e: Entry): Record<string, unknown> {
  const { schema } = view;
  const type = schema.getType(e.name);
  const list = e.places.get('list');
  const queries = Object.fromEntries([...e.places].map(([kind, p]) => [kind, `${p.root === 'mutation' ? 'mutation: ' : ''}${pathOf(p)}`]));
  const fields: Record<string, unknown>[] = [];
  const relations: Record<string, unknown>[] = [];
  if (isObjectType(type)) {
    for (const f of Object.values(type.getFields())) {
      if (f.name.startsWith('_')) continue;
      const named = getNamedType(f.type);
      const desc = f.description ? { description: f.description.trim() } : {};
      if (isObjectType(named) && view.index.objects.has(named.name)) {
        if (/_(bucket_)?aggregation$/.test(f.name)) continue;
        relations.push({ name: f.name, object: named.name, many: isListType(isNonNullType(f.type) ? f.type.ofType : f.type), ...desc,
          ...(type.getFields()[`${f.name}_aggregation`] ? { aggregation: `${f.name}_aggregation` } : {}),
          ...(type.getFields()[`${f.name}_bucket_aggregation`] ? { bucket_aggregation: `${f.name}_bucket_aggregation` } : {}) });
        continue;
      }
      // A relation's aggregates (`items_aggregation`) are listed with the relation.
      if (named.name.startsWith('_') && /_aggregation(_bucket)?$/.test(named.name)) continue;
      const args = f.args.length ? { arguments: f.args.map((a) => `${a.name}: ${typeText(a)}`) } : {};
      fields.push({ name: f.name, type: typeText(f), ...desc, ...args });
    }
  }
  // Filters: the object's filter input, with the operators of each field's filter type.
  const filterArg = list?.field.args.find((a) => a.name === 'filter');
  const filterType = filterArg ? getNamedType(filterArg.type) : undefined;
  let filter: Record<string, unknown> | undefined;
  if (filterType && isInputObjectType(filterType)) {
    const operators: Record<string, string[]> = {};
    const byField: Record<string, string> = {};
    for (const f of Object.values(filterType.getFields())) {
      const t = getNamedType(f.type);
      byField[f.name] = t.name;
      if (isInputObjectType(t) && !view.index.objects.has(t.name.replace(/_(list_)?filter$/, '')) && !f.name.startsWith('_')) operators[t.name] ??= Object.keys(t.getFields());
    }
    filter = { argument: `filter: ${filterType.name}`, fields: byField, operators };
  }
  const aggregationPlace = e.places.get('aggregation');
  const aggType = aggregationPlace ? getNamedType(aggregationPlace.field.type) : undefined;
  const aggregations = isObjectType(aggType)
    ? Object.fromEntries(Object.values(aggType.getFields()).map((f) => {
        const t = getNamedType(f.type);
        if (!isObjectType(t)) return [f.name, typeText(f)];
        // A relation aggregates the related object's fields with their own functions.
        const related = t.name.replace(/^_/, '').replace(/_aggregation(_sub_aggregation)?$/, '');
        return [f.name, view.index.objects.has(related) ? `the fields of ${related}, aggregated` : Object.keys(t.getFields()).join(' ')];
      }))
    : undefined;
  const picked = list ? leafSelection(getNamedType(list.field.type)) : [];
  const example = list && picked.length ? checked(schema, wrap(list, `${callOf(list.field, { limit: '5' })} { ${picked.join(' ')} }`)) : undefined;
  // Fields the example can ask without arguments: generated ones (`_<f>_part(part:)`) need a choice.
  const sums = isObjectType(aggType)
    ? Object.values(aggType.getFields()).filter((f) => { const t = getNamedType(f.type); return isObjectType(t) && 'sum' in t.getFields() && f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined); })
    : [];
  // A measure rather than a key: ids sum to nothing useful.
  const keys = new Set(view.index.objects.get(e.name)?.pk ?? []);
  const measures = sums.filter((f) => !keys.has(f.name) && f.name !== 'id' && !f.name.endsWith('_id'));
  const numeric = measures.find((f) => getNamedType(f.type).name.startsWith('Float')) ?? measures[0] ?? sums[0];
  const aggregationExample = aggregationPlace
    ? checked(schema, wrap(aggregationPlace, `${callOf(aggregationPlace.field)} { _rows_count${numeric ? ` ${numeric.name} { sum avg min max }` : ''} }`))
    : undefined;
  return {
    kind: 'object', name: e.name, ...(e.description ? { description: e.description } : {}), module: e.module || '(root)',
    queries,
    ...(list ? { arguments: list.field.args.map((a) => `${a.name}: ${typeText(a)}${a.defaultValue !== undefined ? ` = ${JSON.stringify(a.defaultValue)}` : ''}`) } : {}),
    fields, relations,
    ...(filter ? { filter } : {}),
    ...(aggregations ? { aggregations } : {}),
    ...(example ? { example } : {}),
    ...(aggregationExample ? { aggregation_example: aggregationExample } : {}),
  };
}

function describeFunction(view: RoleView, e: Entry): Record<string, unknown> {
  const place = [...e.places.values()][0]!;
  const f = place.field;
  const returns = getNamedType(f.type);
  const picked = leafSelection(returns);
  const example = checked(view.schema, wrap(place, `${callOf(f)}${picked.length ? ` { ${picked.join(' ')} }` : ''}`));
  return {
    kind: 'function', name: e.name, ...(e.description ? { description: e.description } : {}), module: e.module || '(root)',
    path: `${place.root === 'mutation' ? 'mutation: ' : ''}${pathOf(place)}`,
    arguments: f.args.map((a) => ({ name: a.name, type: typeText(a), ...(a.description ? { description: a.description.trim() } : {}) })),
    returns: typeText(f),
    ...(isObjectType(returns) ? { returned_fields: Object.values(returns.getFields()).filter((x) => !x.name.startsWith('_')).map((x) => `${x.name}: ${typeText(x)}`) } : {}),
    ...(example ? { example } : {}),
  };
}

function describeModule(view: RoleView, e: Entry): Record<string, unknown> {
  const inside = (kind: Entry['kind']) => view.entries.filter((x) => x.kind === kind && x.module === e.name).map((x) => ({ name: x.name, ...(x.description ? { description: x.description } : {}) }));
  const sub = view.entries.filter((x) => x.kind === 'module' && x.name.startsWith(`${e.name}.`) && !x.name.slice(e.name.length + 1).includes('.')).map((x) => x.name);
  return { kind: 'module', name: e.name, ...(e.description ? { description: e.description } : {}), modules: sub, objects: inside('object'), functions: inside('function') };
}

export function describe(view: RoleView, e: Entry): Record<string, unknown> {
  if (e.kind === 'object') return describeObject(view, e);
  if (e.kind === 'function') return describeFunction(view, e);
  return describeModule(view, e);
}
