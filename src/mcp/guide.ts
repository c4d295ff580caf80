// The MCP resource `svc://guide` (svc's query language in one page, its examples built from the
// caller's own schema and checked against it) and the prompts for discovery and analysis.
import { type GraphQLNamedType, getNamedType, isInputObjectType, isLeafType, isNonNullType, isObjectType } from 'graphql';
import { describe, wrap } from './describe.js';
import type { Entry, RoleView } from './role-view.js';

/** An object to show examples on: one of a data source before a system one, with an aggregation. */
function sampleObject(view: RoleView): Entry | undefined {
  const objects = view.entries.filter((e) => e.kind === 'object' && e.places.has('list'));
  // The one with most fields of a data source, so the examples show more of the language.
  const width = (e: Entry) => { const t = view.schema.getType(e.name); return isObjectType(t) ? Object.keys(t.getFields()).length : 0; };
  const data = objects.filter((e) => !e.module.startsWith('core') && e.places.has('bucket_aggregation')).sort((a, b) => width(b) - width(a));
  return data[0] ?? objects.find((e) => e.places.has('aggregation')) ?? objects[0];
}

/** A field to group by: text that is not a key, else any leaf field. */
function groupField(view: RoleView, e: Entry, type: GraphQLNamedType | undefined): string | undefined {
  if (!isObjectType(type)) return undefined;
  const keys = new Set(view.index.objects.get(e.name)?.pk ?? []);
  const leaves = Object.values(type.getFields()).filter((f) => !f.name.startsWith('_') && isLeafType(getNamedType(f.type)) && !f.args.some((a) => isNonNullType(a.type)));
  return (leaves.find((f) => getNamedType(f.type).name === 'String' && !keys.has(f.name)) ?? leaves.find((f) => !keys.has(f.name)) ?? leaves[0])?.name;
}

function operatorsOf(view: RoleView, name: string): string {
  const t = view.schema.getType(name);
  return isInputObjectType(t) ? Object.keys(t.getFields()).join(', ') : '';
}

export function guide(view: RoleView): string {
  const e = sampleObject(view);
  const d = e ? describe(view, e) : undefined;
  const objects = view.entries.filter((x) => x.kind === 'object').length;
  const modules = view.entries.filter((x) => x.kind === 'module' && !x.name.includes('.')).map((x) => x.name);
  const buckets = e?.places.get('bucket_aggregation');
  const list = e?.places.get('list');
  const rowType = list ? getNamedType(list.field.type) : undefined;
  const groupBy = e ? groupField(view, e, rowType) : undefined;
  const lines = [
    '# Querying svc',
    '',
    `You see ${objects} data objects${modules.length ? ` and the modules ${modules.join(', ')}` : ''}. Everything below is GraphQL; the tools run it as you, with your role's rules.`,
    '',
    '## Find and read',
    '- `search` finds objects, fields, functions and modules by meaning; `describe` gives an object\'s fields, relations, filter operators, aggregations and a query that runs.',
    '- An object `X` is asked as `X(filter, order_by, limit, offset, distinct_on)` (a list), `X_by_pk(<key>)` (one row), `X_aggregation` (one row of aggregates) and `X_bucket_aggregation` (one row per group). Objects of a module are asked inside the module fields (`{ core { catalog { types { name } } } }`).',
    '- Functions are asked under `function` (`{ function { name(args) { ... } } }`).',
    '',
    '## Filters',
    '- `filter: {field: {op: value}}`, combined with `_and: [...]`, `_or: [...]`, `_not: {...}`.',
    `- Operators of strings: ${operatorsOf(view, 'StringFilter') || 'eq, in, like, ilike, is_null, ...'}.`,
    `- Operators of numbers: ${operatorsOf(view, 'IntFilter') || 'eq, gt, gte, lt, lte, in, is_null'}; times and dates alike (values as ISO-8601 text).`,
    '- Through a relation: `{customer: {country: {eq: "GB"}}}` (to one), `{items: {any_of: {...}}}` (to many: any_of, all_of, none_of).',
    '- `order_by: [{field: "name", direction: DESC}]`; a related field by its path (`"customer.name"`).',
    '',
    '## Aggregations',
    '- `X_aggregation { _rows_count amount { sum avg min max count } }`; strings `count list(distinct: true) string_agg(sep: ", ")`.',
    '- `X_bucket_aggregation(order_by: [{field: "aggregations.amount.sum", direction: DESC}], limit: 10) { key { group_field relation { name } } aggregations { _rows_count amount { sum } } }`.',
    '- Times group by a truncation: `key { ordered_at(bucket: month) }` (minute, hour, day, week, month, quarter, year).',
    '- On a row, a relation has `<relation>_aggregation` (each row\'s related rows, aggregated).',
    '',
    '## jq',
    '- The `query` tool takes a `jq` program applied to the whole response `{data, extensions}`: `.data.X | map({name, total: .amount})`.',
    '- Inside a query, a field `jq(query: "...")` transforms the answer of its siblings.',
    '',
    '## Limits',
    '- Lists default to 2000 rows at the root; the tools cut answers to a row and byte budget and say so in a note: ask for less (limit, filter) or aggregate.',
  ];
  if (d && e) {
    lines.push('', `## Examples on ${e.name}`);
    if (typeof d.example === 'string') lines.push('```graphql', d.example, '```');
    if (typeof d.aggregation_example === 'string') lines.push('```graphql', d.aggregation_example, '```');
    if (buckets && groupBy) {
      lines.push('```graphql', wrap(buckets, `${buckets.field.name}(order_by: [{field: "aggregations._rows_count", direction: DESC}], limit: 10) { key { ${groupBy} } aggregations { _rows_count } }`), '```');
    }
  }
  return lines.join('\n');
}

export const DISCOVERY_PROMPT = (topic: string) => [
  `Find the data about: ${topic}.`,
  '1. Call `search` with a few words about it; try other words if nothing fits.',
  '2. Call `describe` on the most promising objects (and on modules, to see what they hold).',
  '3. Call `field_values` on fields you will filter or group by, to learn their real values.',
  '4. Summarise which objects and fields answer the topic, how they relate, and one query (from `describe`\'s example) that reads them; run it with `query` and limit 5 to check.',
].join('\n');

export const ANALYSIS_PROMPT = (question: string) => [
  `Answer with data: ${question}`,
  '1. Find the objects with `search` and `describe` (read the guide resource svc://guide for the query language).',
  '2. Learn the values you will filter on with `field_values` (spellings, codes, time ranges).',
  '3. Write one query that answers the question, preferring `_bucket_aggregation` with `order_by` and `limit` over reading rows; check it with `validate`.',
  '4. Run it with `query` (a `jq` program can reshape the answer); if a note says the answer was truncated, aggregate or narrow it.',
  '5. Answer in words, with the figures and the query you ran.',
].join('\n');
