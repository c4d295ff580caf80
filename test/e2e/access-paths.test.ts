// Every path checked (issue 14 items 4-11): one restrictive role on the example shop, on DuckDB and
// PostgreSQL, tries each item through every entry point (/query, /jq-query, querySvc inside a jq
// program, and the in-process executor that generated clients use) and gets `forbidden` or only
// the rows its rules allow. Each case fails if the check it names is removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessClient } from '../../src/pipeline/in-process.js';
import type { Identity } from '../../src/auth/identity.js';
import { startDialects, type Dialect, type Dialects } from '../support/dialects.js';
import type { TestApp } from '../support/app.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const USER = '2';
const headers = (userId = USER) => ({ ...ADMIN, 'x-svc-role': 'restricted', 'x-svc-user-id': userId, 'x-svc-user-name': `user${userId}` });
const IDENTITY: Identity = { role: 'restricted', userId: USER, userName: `user${USER}`, authType: 'impersonation' };

/** The restrictive role: a disabled column, a row filter, a denied object, a junction it may not write, write filters with a stamp. */
const ROLE = `mutation { core { insert_roles(data: {name: "restricted", description: "one restrictive role", permissions: [
  {type_name: "shop_customers", field_name: "email", disabled: true},
  {type_name: "shop_orders", field_name: "note", disabled: true},
  {type_name: "data-object:query", field_name: "shop_orders", filter: {customer_id: {eq: "[$auth.user_id_int]"}}},
  {type_name: "data-object:update", field_name: "shop_orders", filter: {status: {eq: "pending"}}, data: {customer_id: "[$auth.user_id_int]"}},
  {type_name: "data-object:delete", field_name: "shop_orders", filter: {status: {eq: "pending"}}},
  {type_name: "data-object:query", field_name: "shop_tags", disabled: true},
  {type_name: "data-object:insert", field_name: "shop_product_tags", disabled: true}
]}) { name } } }`;

interface Answer {
  data: any;
  errors: { message: string; path?: readonly (string | number)[] }[];
  text: string;
}

type Entry = (app: TestApp, query: string, variables?: Record<string, unknown>) => Promise<Answer>;

const answer = (body: any, text = JSON.stringify(body)): Answer => ({ data: body?.data ?? null, errors: body?.errors ?? [], text });

/** The four ways in; each runs the request as the restricted role, user 2. */
const ENTRIES: Record<string, Entry> = {
  '/query': async (app, query, variables) => {
    const r = await app.gql(query, variables, headers());
    return answer(r.body, r.text);
  },
  '/jq-query': async (app, query, variables) => {
    const r = await app.request({ method: 'POST', url: '/jq-query', headers: { 'content-type': 'application/json', ...headers() }, payload: JSON.stringify({ jq: '.', query: { query, variables } }) });
    return r.status === 200 ? answer(r.body, r.text) : { data: null, errors: [{ message: String(r.body?.error) }], text: r.text };
  },
  querySvc: async (app, query, variables) => {
    const program = `querySvc(${JSON.stringify(query)}; ${JSON.stringify(variables ?? {})})`;
    const r = await app.request({ method: 'POST', url: '/jq-query', headers: { 'content-type': 'application/json', ...headers() }, payload: JSON.stringify({ jq: program, query: { query: '{ __typename }' } }) });
    return answer(r.body, r.text);
  },
  'in-process client': async (app, query, variables) => {
    const r = await app.app.get(InProcessClient).execute({ query, variables: variables ?? {} }, IDENTITY);
    const body = JSON.parse(JSON.stringify({ data: r.data ?? null, errors: r.errors?.map((e) => ({ message: e.message, path: e.path })) }));
    return answer(body);
  },
};

let dialects: Dialects;

beforeAll(async () => {
  dialects = await startDialects({ SECRET_KEY: 'k', ANONYMOUS_ROLE: 'public' });
  for (const d of dialects.all) {
    const r = await d.app.gql(ROLE, undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
  }
}, 120_000);
afterAll(() => dialects?.close());

const admin = async (d: Dialect, query: string) => (await d.app.gql(query, undefined, ADMIN)).body.data;

/** Refused: an error starting with `forbidden` (naming what when `names` is given), and no protected value in the answer. */
function refused(a: Answer, names?: string): void {
  expect(a.errors.map((e) => e.message).join(' | ')).toMatch(names ? new RegExp(`forbidden.*${names.replace('.', '\\.')}`) : /forbidden/);
  expect(a.text).not.toMatch(/@example\.com|gift wrap|customer request|classic|bestseller/);
}

interface Case {
  readonly item: string;
  readonly query: string;
  readonly check: (a: Answer, d: Dialect) => void | Promise<void>;
}

const CASES: readonly Case[] = [
  // 4: a disabled field in filters, relation filters, distinct_on, ordering paths and write filters
  { item: '4 filter on a disabled field', query: '{ shop_customers(filter: {email: {like: "a%"}}) { id } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 filter through a relation', query: '{ shop_order_items(filter: {order: {customer: {email: {like: "a%"}}}}) { line } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 filter in _not/_or', query: '{ shop_customers(filter: {_or: [{id: {eq: 1}}, {_not: {email: {is_null: true}}}]}) { id } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 filter in an aggregation', query: '{ shop_customers_aggregation(filter: {email: {like: "a%"}}) { _rows_count } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 filter in bucket aggregations', query: '{ shop_customers_bucket_aggregation { key { country } aggregations(filter: {email: {like: "a%"}}) { _rows_count } } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 distinct_on', query: '{ shop_customers(distinct_on: ["email"]) { id } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 order_by through a path', query: '{ shop_orders_aggregation(order_by: [{field: "note"}], limit: 1) { _rows_count } }', check: (a) => refused(a, 'shop_orders.note') },
  { item: '4 order_by on a disabled field', query: '{ shop_customers(order_by: [{field: "email"}]) { id email } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 order_by on a disabled field it does not select', query: '{ shop_customers(order_by: [{field: "email"}]) { id } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 order_by on an alias of a disabled field', query: '{ shop_customers(order_by: [{field: "e"}]) { id e: email } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 order_by through an N:1 path', query: '{ shop_orders(order_by: [{field: "customer.email"}]) { id customer { email } } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 order_by of a relation list', query: '{ shop_customers { id orders(order_by: [{field: "note"}]) { id } } }', check: (a) => refused(a, 'shop_orders.note') },
  { item: '4 order_by of bucket aggregations', query: '{ shop_customers_bucket_aggregation(order_by: [{field: "key.email"}]) { key { email } aggregations { _rows_count } } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 update filter', query: 'mutation { update_shop_customers(filter: {email: {like: "a%"}}, data: {country: "XX"}) { affected_rows } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '4 delete filter', query: 'mutation { delete_shop_order_items(filter: {order: {note: {like: "g%"}}}) { affected_rows } }', check: (a) => refused(a, 'shop_orders.note') },
  // 5: a disabled field written
  { item: '5 insert a disabled field', query: 'mutation { insert_shop_customers(data: {id: 90, name: "Eve", email: "eve@x"}) { id } }', check: (a) => refused(a, 'shop_customers.email') },
  { item: '5 nested insert of a disabled field', query: 'mutation { insert_shop_customers(data: {id: 91, name: "Eve", orders: [{id: 91, status: "pending", ordered_at: "2025-01-01T00:00:00Z", note: "n"}]}) { id } }', check: (a) => refused(a, 'shop_orders.note') },
  { item: '5 update a disabled field', query: 'mutation { update_shop_customers(filter: {id: {eq: 2}}, data: {email: "x@y"}) { affected_rows } }', check: (a) => refused(a, 'shop_customers.email') },
  // 6: a denied object through aggregations and relations
  { item: '6 root aggregation', query: '{ shop_tags_aggregation { _rows_count } }', check: (a) => refused(a) },
  { item: '6 root bucket aggregation', query: '{ shop_tags_bucket_aggregation { key { name } aggregations { _rows_count } } }', check: (a) => refused(a) },
  { item: '6 relation aggregation', query: '{ shop_products(order_by: [{field: "id"}]) { id tags_aggregation { _rows_count } } }', check: (a) => refused(a) },
  { item: '6 relation aggregation selected alone', query: '{ shop_products(limit: 1) { tags_aggregation { _rows_count } } }', check: (a) => refused(a) },
  { item: '6 relation selected alone', query: '{ shop_products(limit: 1) { tags { id } } }', check: (a) => refused(a) },
  {
    item: '4 only disabled fields selected',
    query: '{ shop_customers(limit: 1) { email } }',
    check: (a) => {
      refused(a);
      expect(a.errors[0]!.path).toEqual(['shop_customers', 0, 'email']);
    },
  },
  { item: '6 relation inside an aggregation', query: '{ shop_products_aggregation { tags { _rows_count } } }', check: (a) => refused(a) },
  { item: '6 sub-aggregation', query: '{ shop_products_aggregation { tags_aggregation { _rows_count { sum } } } }', check: (a) => refused(a) },
  { item: '6 relation filter into it', query: '{ shop_products(filter: {tags: {any_of: {name: {eq: "classic"}}}}) { id } }', check: (a) => refused(a) },
  // 7: a nested insert through a many-to-many relation writes the junction
  { item: '7 junction written by a nested insert', query: 'mutation { insert_shop_products(data: {id: 92, sku: "X-92", name: "x", price: 1, tags: [{id: 92, name: "new"}]}) { id } }', check: (a) => refused(a, 'shop_product_tags') },
  // 8: update/delete filters ANDed with the read filter
  {
    item: '8 update with a forced value reaches only rows the role reads',
    query: 'mutation { update_shop_orders(data: {ship_date: "2025-04-01"}) { affected_rows } }',
    check: async (a, d) => {
      expect(a.errors).toEqual([]);
      expect(a.data.update_shop_orders.affected_rows).toBe(0);
      expect((await admin(d, '{ shop_orders_by_pk(id: 2) { customer_id ship_date } }')).shop_orders_by_pk).toEqual({ customer_id: 1, ship_date: null });
    },
  },
  {
    item: '8 delete reaches only rows the role reads',
    query: 'mutation { delete_shop_orders(filter: {id: {eq: 2}}) { affected_rows } }',
    check: async (a, d) => {
      expect(a.data?.delete_shop_orders?.affected_rows ?? 0).toBe(0);
      expect((await admin(d, '{ shop_orders_by_pk(id: 2) { id } }')).shop_orders_by_pk).toEqual({ id: 2 });
    },
  },
  // 9: a function returning rows of an object
  {
    item: '9 field rules on rows a function returns',
    query: '{ function { shop_customers_in(country: "GB") { id name email } } }',
    check: (a) => {
      expect(a.data.function.shop_customers_in.map((c: { id: number; email: unknown }) => [c.id, c.email])).toEqual([[1, null], [2, null]]);
      refused(a);
    },
  },
  {
    item: '9 a function returning rows the role reads only through a row filter',
    query: '{ function { shop_orders_with_status(status: "pending") { id } } }',
    check: (a) => refused(a, 'orders_with_status" returns rows of "shop_orders'),
  },
  // the rows themselves: the row filter holds on every path
  {
    item: 'row filter on lists, relations and aggregations',
    query: '{ shop_orders(order_by: [{field: "id"}]) { id } shop_customers(order_by: [{field: "id"}]) { id orders { id } } shop_orders_aggregation { _rows_count } }',
    check: (a) => {
      expect(a.errors).toEqual([]);
      expect(a.data).toEqual({
        shop_orders: [{ id: 3 }],
        shop_customers: [{ id: 1, orders: null }, { id: 2, orders: [{ id: 3 }] }, { id: 3, orders: null }, { id: 4, orders: null }],
        shop_orders_aggregation: { _rows_count: 1 },
      });
    },
  },
];

describe.each(['duckdb', 'postgres'] as const)('on %s', (dialect) => {
  const d = () => dialects.all.find((x) => x.name === dialect)!;

  describe.each(Object.keys(ENTRIES))('through %s', (entry) => {
    it.each(CASES.map((c) => [c.item, c] as const))('%s', async (_item, c) => {
      const a = await ENTRIES[entry]!(d().app, c.query);
      await c.check(a, d());
    });
  });

  it('nothing refused was written', async () => {
    const data = await admin(d(), `{
      shop_customers(filter: {id: {in: [90, 91]}}) { id }
      shop_products(filter: {id: {eq: 92}}) { id }
      shop_tags(filter: {id: {eq: 92}}) { id }
      changed: shop_customers(filter: {country: {eq: "XX"}}) { id }
      emails: shop_customers(filter: {id: {eq: 2}}) { email }
      shop_order_items_aggregation { _rows_count }
    }`);
    expect(data).toEqual({ shop_customers: [], shop_products: [], shop_tags: [], changed: [], emails: [{ email: 'alan@example.com' }], shop_order_items_aggregation: { _rows_count: 6 } });
  });

  it('10: introspection shows none of a hidden or disabled field or object, in any type', async () => {
    const q = `{
      filter: __type(name: "shop_customers_filter") { inputFields { name } }
      insert: __type(name: "shop_customers_mut_input_data") { inputFields { name } }
      update: __type(name: "shop_customers_mut_data") { inputFields { name } }
      agg: __type(name: "_shop_customers_aggregation") { fields { name } }
      orders: __type(name: "shop_orders") { fields { name } }
      products: __type(name: "shop_products") { fields { name } }
      productsFilter: __type(name: "shop_products_filter") { inputFields { name } }
      productsAgg: __type(name: "_shop_products_aggregation") { fields { name } }
      tags: __type(name: "shop_tags") { name }
      tagsFilter: __type(name: "shop_tags_filter") { name }
      tagsAgg: __type(name: "_shop_tags_aggregation") { name }
      tagsBucket: __type(name: "_shop_tags_aggregation_bucket") { name }
      apiKeys: __type(name: "core_api_keys") { name }
    }`;
    const r = await d().app.gql(q, undefined, headers());
    expect(r.body.errors).toBeUndefined();
    const names = (x: { fields?: { name: string }[]; inputFields?: { name: string }[] }) => (x.fields ?? x.inputFields ?? []).map((f) => f.name);
    const data = r.body.data;
    for (const k of ['filter', 'insert', 'update', 'agg']) {
      expect(names(data[k]), k).toContain('name');
      expect(names(data[k]), k).not.toContain('email');
    }
    expect(names(data.orders)).not.toContain('note');
    for (const k of ['products', 'productsFilter', 'productsAgg']) {
      expect(names(data[k]), k).toContain('category');
      expect(names(data[k]).filter((n: string) => n.startsWith('tags')), k).toEqual([]);
    }
    expect([data.tags, data.tagsFilter, data.tagsAgg, data.tagsBucket, data.apiKeys]).toEqual([null, null, null, null, null]);
    const adminView = await d().app.gql('{ __type(name: "shop_customers_filter") { inputFields { name } } }', undefined, ADMIN);
    expect(adminView.body.data.__type.inputFields.map((f: { name: string }) => f.name)).toContain('email');
  });
});
