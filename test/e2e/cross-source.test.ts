// One graph over two sources (issue 19 items 1, 2 and 6): customers in DuckDB (`crm`), orders in
// PostgreSQL (`sales`), and an extension source (`links`) relating them both ways. Each source's
// part is one statement, each cross-source level one more, whatever the number of parent rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { expectGolden } from '../support/golden.js';
import { startSources, type Sources, writeSource } from '../support/sources.js';

/** The statements sent, with their source, as a golden file (rewritten only with UPDATE_GOLDEN=1). */
const goldenSql = (name: string, st: { source: string; sql: string }[]) =>
  expectGolden(join(import.meta.dirname, 'golden', 'cross-source', `${name}.sql`), st.map((x) => `-- ${x.source}\n${x.sql};\n`).join('\n'));

const CRM = {
  name: 'crm',
  yaml: 'type: duckdb\npath: ":memory:"\nprefix: crm\nseed: seed.sql\n',
  schema: 'type customers @table(name: "customers") {\n  id: Int! @pk\n  name: String\n  country: String\n  home: Geometry\n}\n\nextend type Function {\n  shout(text: String): String @function(name: "shout", sql: "upper([text]) || \'!\'")\n  boom(text: String): String @function(name: "boom", sql: "error(\'no such status\')")\n}\n',
  seed: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR, country VARCHAR, home VARCHAR);\nINSERT INTO customers VALUES (1, 'Ada', 'GB', 'POINT(1 1)'), (2, 'Alan', 'GB', 'POINT(2 2)'), (3, 'Grace', 'US', 'POINT(50 50)'), (4, 'Edsger', 'NL', NULL);\n",
};
const SALES = {
  name: 'sales',
  yaml: 'type: postgres\npath: "[$PG]"\nprefix: sales\n',
  schema: 'type orders @table(name: "orders") {\n  id: Int! @pk\n  customer_id: Int\n  total: Float\n  status: String\n}\n\ntype depots @table(name: "depots") {\n  id: Int! @pk\n  name: String\n  area: Geometry\n}\n\ninput over_args {\n  min_total: Float!\n}\n\ntype orders_over @view(name: "orders_over", sql: "SELECT * FROM [$catalog].orders WHERE total >= [$min_total]") @args(name: "over_args") {\n  id: Int! @pk\n  customer_id: Int\n  total: Float\n}\n',
};
const PG_SQL = `CREATE TABLE orders (id int PRIMARY KEY, customer_id int, total double precision, status text);
INSERT INTO orders VALUES (10, 1, 50, 'paid'), (11, 1, 150, 'paid'), (12, 2, 300, 'pending'), (13, 3, 20, 'paid'), (14, NULL, 5, 'paid'), (15, 9, 7, 'paid');
CREATE EXTENSION IF NOT EXISTS postgis;
CREATE TABLE depots (id int PRIMARY KEY, name text, area geometry(Geometry, 4326));
INSERT INTO depots VALUES (1, 'west', ST_GeomFromText('POLYGON((0 0, 5 0, 5 5, 0 5, 0 0))', 4326)), (2, 'far', ST_GeomFromText('POLYGON((40 40, 60 40, 60 60, 40 60, 40 40))', 4326));`;
const LINKS = {
  name: 'links',
  yaml: 'type: extension\n',
  schema: `extend type sales_orders @dependency(name: "crm") @references(references_name: "crm_customers", source_fields: ["customer_id"], references_fields: ["id"], query: "customer", references_query: "orders")

extend type crm_customers {
  "Orders of 100 or more, a declared join into the other source."
  big_orders: [sales_orders] @join(references_name: "sales_orders", source_fields: ["id"], references_fields: ["customer_id"], sql: "[dest.total] >= 100")
}

extend type crm_customers {
  "A view with arguments in the other source behind a join."
  orders_over: [sales_orders_over] @join(references_name: "sales_orders_over", source_fields: ["id"], references_fields: ["customer_id"])
}

extend type sales_orders {
  "A DuckDB function called with values of PostgreSQL rows."
  loud_status: String @function_call(references_name: "shout", args: {text: "status"})
  "A function that fails in the other source."
  broken_status: String @function_call(references_name: "boom", args: {text: "status"})
}
`,
};

const ADMIN = { 'x-svc-secret-key': 'k' };
let s: Sources;
beforeAll(async () => {
  s = await startSources({ name: 'svc_cross', pgSql: PG_SQL, sources: [CRM, SALES, LINKS], env: { SECRET_KEY: 'k', CACHE_L1_ENABLED: 'true', CACHE_TTL: '60' } });
}, 60_000);
afterAll(() => s?.close());

async function gql(query: string, headers: Record<string, string> = ADMIN) {
  s.statements.length = 0;
  const r = await s.app.gql(query, undefined, headers);
  return { ...r, statements: [...s.statements] };
}

const perSource = (st: { source: string }[]) => st.reduce<Record<string, number>>((m, x) => ({ ...m, [x.source]: (m[x.source] ?? 0) + 1 }), {});

describe('cross-source relations', () => {
  it('N:1 from PostgreSQL rows to DuckDB rows: one statement per source', async () => {
    const r = await gql('{ sales_orders(order_by: [{field: "id"}]) { id customer { name country } } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.sales_orders).toEqual([
      { id: 10, customer: { name: 'Ada', country: 'GB' } },
      { id: 11, customer: { name: 'Ada', country: 'GB' } },
      { id: 12, customer: { name: 'Alan', country: 'GB' } },
      { id: 13, customer: { name: 'Grace', country: 'US' } },
      { id: 14, customer: null },
      { id: 15, customer: null },
    ]);
    expect(perSource(r.statements)).toEqual({ sales: 1, crm: 1 });
    goldenSql('n-to-1-postgres-to-duckdb', r.statements);
    // The keys travel as one list parameter per key column, never one parameter per row.
    const crm = r.statements.find((x) => x.source === 'crm')!;
    expect(crm.params.length).toBe(2);
  });

  it('1:N from DuckDB rows to PostgreSQL rows with nested_*, filters, aggregations and buckets', async () => {
    const r = await gql(`{ crm_customers(order_by: [{field: "id"}]) {
      id name
      orders(order_by: [{field: "id", direction: DESC}], nested_limit: 1) { id }
      paid: orders(filter: {status: {eq: "paid"}}, order_by: [{field: "id"}]) { id }
      orders_aggregation { _rows_count total { sum } }
      orders_bucket_aggregation(order_by: [{field: "key.status"}]) { key { status } aggregations { _rows_count } }
      big_orders { id total }
    } }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.crm_customers).toEqual([
      { id: 1, name: 'Ada', orders: [{ id: 11 }], paid: [{ id: 10 }, { id: 11 }], orders_aggregation: { _rows_count: 2, total: { sum: 200 } }, orders_bucket_aggregation: [{ key: { status: 'paid' }, aggregations: { _rows_count: 2 } }], big_orders: [{ id: 11, total: 150 }] },
      { id: 2, name: 'Alan', orders: [{ id: 12 }], paid: null, orders_aggregation: { _rows_count: 1, total: { sum: 300 } }, orders_bucket_aggregation: [{ key: { status: 'pending' }, aggregations: { _rows_count: 1 } }], big_orders: [{ id: 12, total: 300 }] },
      { id: 3, name: 'Grace', orders: [{ id: 13 }], paid: [{ id: 13 }], orders_aggregation: { _rows_count: 1, total: { sum: 20 } }, orders_bucket_aggregation: [{ key: { status: 'paid' }, aggregations: { _rows_count: 1 } }], big_orders: null },
      { id: 4, name: 'Edsger', orders: null, paid: null, orders_aggregation: null, orders_bucket_aggregation: null, big_orders: null },
    ]);
    // One statement for the customers, one per cross-source relation field.
    expect(perSource(r.statements)).toEqual({ crm: 1, sales: 5 });
  });

  it('two levels deep and back: DuckDB -> PostgreSQL -> DuckDB, one statement per level', async () => {
    const r = await gql('{ crm_customers(filter: {id: {lte: 2}}, order_by: [{field: "id"}]) { id name orders(order_by: [{field: "id"}]) { id customer { name } } } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.crm_customers).toEqual([
      { id: 1, name: 'Ada', orders: [{ id: 10, customer: { name: 'Ada' } }, { id: 11, customer: { name: 'Ada' } }] },
      { id: 2, name: 'Alan', orders: [{ id: 12, customer: { name: 'Alan' } }] },
    ]);
    expect(r.statements.map((x) => x.source)).toEqual(['crm', 'sales', 'crm']);
    goldenSql('1-to-n-duckdb-to-postgres-and-back', r.statements);
  });

  it('a @function_call into another source: one call statement for all rows', async () => {
    const r = await gql('{ sales_orders(order_by: [{field: "id"}], filter: {id: {lte: 12}}) { id loud_status } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.sales_orders).toEqual([{ id: 10, loud_status: 'PAID!' }, { id: 11, loud_status: 'PAID!' }, { id: 12, loud_status: 'PENDING!' }]);
    expect(perSource(r.statements)).toEqual({ sales: 1, crm: 1 });
  });

  it('_join across sources, both ways', async () => {
    const r = await gql(`{ crm_customers(filter: {id: {lte: 2}}, order_by: [{field: "id"}]) { id _join(fields: ["id"]) {
      sales_orders(fields: ["customer_id"], order_by: [{field: "id"}]) { id }
      sales_orders_aggregation(fields: ["customer_id"]) { total { max } }
    } } }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.crm_customers).toEqual([
      { id: 1, _join: { sales_orders: [{ id: 10 }, { id: 11 }], sales_orders_aggregation: { total: { max: 150 } } } },
      { id: 2, _join: { sales_orders: [{ id: 12 }], sales_orders_aggregation: { total: { max: 300 } } } },
    ]);
    expect(perSource(r.statements)).toEqual({ crm: 1, sales: 2 });
    const back = await gql('{ sales_orders(filter: {id: {in: [12, 13]}}, order_by: [{field: "id"}]) { id _join(fields: ["customer_id"]) { crm_customers(fields: ["id"]) { name } } } }');
    expect(back.body.data.sales_orders).toEqual([{ id: 12, _join: { crm_customers: [{ name: 'Alan' }] } }, { id: 13, _join: { crm_customers: [{ name: 'Grace' }] } }]);
  });

  it('_spatial across sources, both ways: PostGIS polygons and DuckDB points', async () => {
    const r = await gql('{ sales_depots(order_by: [{field: "id"}]) { id _spatial(field: "area", type: WITHIN) { crm_customers(field: "home", order_by: [{field: "name"}]) { name } } } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.sales_depots).toEqual([{ id: 1, _spatial: { crm_customers: [{ name: 'Ada' }, { name: 'Alan' }] } }, { id: 2, _spatial: { crm_customers: [{ name: 'Grace' }] } }]);
    expect(perSource(r.statements)).toEqual({ sales: 1, crm: 1 });
    const back = await gql('{ crm_customers(order_by: [{field: "id"}]) { id _spatial(field: "home", type: DWITHIN, buffer: 1000) { sales_depots(field: "area") { name } } } }');
    expect(back.body.errors).toBeUndefined();
    expect(back.body.data.crm_customers.map((c: any) => c._spatial.sales_depots?.[0]?.name ?? null)).toEqual(['west', 'west', 'far', null]);
    expect(perSource(back.statements)).toEqual({ crm: 1, sales: 1 });
    goldenSql('spatial-both-ways', [...r.statements, ...back.statements]);
  });

  it('a view with arguments behind a cross-source @join takes its args, required (issue 18 item 1)', async () => {
    const r = await gql('{ crm_customers(filter: {id: {lte: 3}}, order_by: [{field: "id"}]) { id orders_over(args: {min_total: 100}) { id } orders_over_aggregation(args: {min_total: 10}) { _rows_count } } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.crm_customers).toEqual([
      { id: 1, orders_over: [{ id: 11 }], orders_over_aggregation: { _rows_count: 2 } },
      { id: 2, orders_over: [{ id: 12 }], orders_over_aggregation: { _rows_count: 1 } },
      { id: 3, orders_over: null, orders_over_aggregation: { _rows_count: 1 } },
    ]);
    const missing = await gql('{ crm_customers { orders_over { id } } }');
    expect(missing.body.errors[0].message).toMatch(/argument "args" of type "sales_over_args!" is required/);
  });

  it('inner: true drops parents without related rows of the other source', async () => {
    const r = await gql('{ sales_orders(order_by: [{field: "id"}]) { id customer(inner: true) { name } } }');
    expect(r.body.data.sales_orders.map((o: { id: number }) => o.id)).toEqual([10, 11, 12, 13]);
  });

  it('a filter through a cross-source relation is refused clearly', async () => {
    const r = await gql('{ sales_orders(filter: {customer: {name: {eq: "Ada"}}}) { id } }');
    expect(r.body.errors[0].message).toMatch(/reaches "crm_customers" of source "crm"/);
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  // What one statement would have to hold (both sources' rows together) is refused before any
  // statement runs, with a code and the root field's path: never a wrong answer or an internal error.
  it.each([
    ['a filter through a 1:N relation', '{ crm_customers(filter: {orders: {any_of: {total: {gt: 100}}}}) { id } }', 'the filter on "orders" reaches "sales_orders" of source "sales"'],
    ['a filter inside a cross-source relation back into the parent source', '{ crm_customers { orders(filter: {customer: {name: {eq: "Ada"}}}) { id } } }', 'the filter on "customer" reaches "crm_customers" of source "crm"'],
    ['a filter of a cross-source aggregation through a relation', '{ crm_customers { orders_aggregation(filter: {customer: {name: {eq: "Ada"}}}) { _rows_count } } }', 'the filter on "customer" reaches "crm_customers"'],
    ['a filter inside _join through a relation', '{ crm_customers { _join(fields: ["id"]) { sales_orders(fields: ["customer_id"], filter: {customer: {name: {eq: "Ada"}}}) { id } } } }', 'the filter on "customer" reaches "crm_customers"'],
    ['order_by an N:1 path in another source', '{ sales_orders(order_by: [{field: "customer.name"}]) { id customer { name } } }', 'order_by field "customer.name" of "sales_orders" is in another source'],
    ['order_by a cross-source aggregation', '{ crm_customers(order_by: [{field: "orders_aggregation.total.sum"}]) { id orders_aggregation { total { sum } } } }', 'order_by field "orders_aggregation.total.sum" of "crm_customers" is in another source'],
    ['order_by a field computed in another source', '{ sales_orders(order_by: [{field: "loud_status"}]) { id loud_status } }', 'order_by field "loud_status" of "sales_orders" is in another source'],
    ['order_by inside a relation, by a path back into the parent source', '{ crm_customers { orders(order_by: [{field: "customer.name"}]) { id customer { name } } } }', 'order_by field "customer.name" of "sales_orders" is in another source'],
    ['a cross-source N:1 inside a root aggregation', '{ sales_orders_aggregation { _rows_count customer { name { count } } } }', 'aggregation field "_sales_orders_aggregation.customer" reaches "crm_customers" of source "crm"'],
    ['a cross-source 1:N inside a root aggregation', '{ crm_customers_aggregation { orders { total { sum } } } }', 'aggregation field "_crm_customers_aggregation.orders" reaches "sales_orders"'],
    ['a cross-source relation inside bucket aggregations', '{ crm_customers_bucket_aggregation { key { country } aggregations { orders { total { sum } } } } }', 'aggregation field "_crm_customers_aggregation.orders" reaches "sales_orders"'],
    ['a bucket key in another source', '{ sales_orders_bucket_aggregation { key { customer { country } } aggregations { _rows_count } } }', 'bucket key "sales_orders.customer" reaches "crm_customers" of source "crm"'],
    ['a bucket key in another source, inside a cross-source relation', '{ crm_customers { orders_bucket_aggregation { key { customer { name } } aggregations { _rows_count } } } }', 'bucket key "sales_orders.customer" reaches "crm_customers"'],
  ])('refused: %s', async (_what, query, message) => {
    const r = await gql(query);
    expect(r.body.errors, r.text).toHaveLength(1);
    expect(r.body.errors[0].message).toContain(message);
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(r.body.errors[0].path).toEqual([Object.keys(r.body.data)[0]]);
    expect(r.statements).toEqual([]);
  });

  it('ordering and limiting inside the other source work: bucket order and limit per parent', async () => {
    const r = await gql('{ crm_customers(order_by: [{field: "id"}]) { id orders_bucket_aggregation(order_by: [{field: "aggregations.total.sum", direction: DESC}], limit: 1) { key { status } aggregations { total { sum } } } } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.crm_customers.map((c: any) => c.orders_bucket_aggregation?.[0].aggregations.total.sum ?? null)).toEqual([200, 300, 20, null]);
    expect(perSource(r.statements)).toEqual({ crm: 1, sales: 1 });
  });

  it('a cross-source level whose statement fails: that field fails at each of its paths, the rest answers', async () => {
    const r = await gql('{ sales_orders(filter: {id: {lte: 11}}, order_by: [{field: "id"}]) { id loud_status broken_status } n: sales_orders_aggregation { _rows_count } }');
    expect(r.body.data).toEqual({ sales_orders: [{ id: 10, loud_status: 'PAID!', broken_status: null }, { id: 11, loud_status: 'PAID!', broken_status: null }], n: { _rows_count: 6 } });
    expect(r.body.errors.map((e: any) => [e.path.join('.'), e.extensions.code])).toEqual([['sales_orders.0.broken_status', 'QUERY_FAILED'], ['sales_orders.1.broken_status', 'QUERY_FAILED']]);
  });
});

describe('permissions and cache across sources (item 6)', () => {
  beforeAll(async () => {
    const r = await s.app.gql(`mutation { core { insert_roles(data: {name: "gb_only", description: "British customers only", permissions: [
      {type_name: "data-object:query", field_name: "crm_customers", filter: {country: {eq: "GB"}}}
    ]}) { name } } }`, undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
  });

  it('the target row filter holds inside a cross-source relation', async () => {
    const r = await gql('{ sales_orders(order_by: [{field: "id"}], filter: {id: {in: [11, 13]}}) { id customer { name } } }', { ...ADMIN, 'x-svc-role': 'gb_only' });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.sales_orders).toEqual([{ id: 11, customer: { name: 'Ada' } }, { id: 13, customer: null }]);
  });

  it('a cached answer names the objects of both sources: a write to either drops it', async () => {
    const q = '{ sales_orders(filter: {id: {eq: 12}}) @cache(ttl: 60) { id customer { name } } }';
    expect((await gql(q)).body.data.sales_orders).toEqual([{ id: 12, customer: { name: 'Alan' } }]);
    expect((await gql(q)).statements).toEqual([]);
    const w = await gql('mutation { update_crm_customers(filter: {id: {eq: 2}}, data: {name: "Alan T."}) { affected_rows } }');
    expect(w.body.errors).toBeUndefined();
    const again = await gql(q);
    expect(again.body.data.sales_orders).toEqual([{ id: 12, customer: { name: 'Alan T.' } }]);
    expect(again.statements.length).toBe(2);
  });
});

describe('extension sources (item 1)', () => {
  const load = (name: string) => gql(`mutation { function { core { load_data_source(name: "${name}") { success message } } } }`);
  const unload = (name: string) => gql(`mutation { function { core { unload_data_source(name: "${name}") { success message } } } }`);
  const status = async (name: string) => (await gql(`{ function { core { data_source_status(name: "${name}") } } }`)).body.data.function.core.data_source_status;

  it('a dependency unloaded removes the extension fields, and loaded again brings them back, without a restart', async () => {
    expect((await unload('crm')).body.data.function.core.unload_data_source.success).toBe(true);
    const gone = await gql('{ sales_orders { id customer { name } } }');
    expect(gone.body.errors[0].message).toMatch(/Cannot query field "customer" on type "sales_orders"/);
    expect((await gql('{ sales_orders(filter: {id: {eq: 10}}) { id } }')).body.data.sales_orders).toEqual([{ id: 10 }]);
    expect(await status('links')).toMatch(/not applied: waiting for "crm" to be loaded/);
    expect((await load('crm')).body.data.function.core.load_data_source.success).toBe(true);
    const back = await gql('{ sales_orders(filter: {id: {eq: 10}}) { id customer { name } } }');
    expect(back.body.data.sales_orders).toEqual([{ id: 10, customer: { name: 'Ada' } }]);
    expect(await status('links')).toBe('loaded');
  });

  it('an extension whose dependency is not loaded is refused as a whole', async () => {
    writeSource(s.root, { name: 'orphan', yaml: 'type: extension\n', schema: 'extend type sales_orders @dependency(name: "billing") {\n  doubled: Float @sql(exp: "[total] * 2")\n}\n' }, '');
    const ins = await gql(`mutation { core { insert_data_sources(data: {name: "orphan", type: "extension", prefix: "", path: "", catalogs: [{name: "orphan", type: "localFS", path: "${s.root}/orphan"}]}) { name } } }`);
    expect(ins.body.errors).toBeUndefined();
    const r = (await load('orphan')).body.data.function.core.load_data_source;
    expect(r).toEqual({ success: false, message: 'extension "orphan" depends on data source "billing", which is not loaded' });
    const q = await gql('{ sales_orders { doubled } }');
    expect(q.body.errors[0].message).toMatch(/Cannot query field "doubled"/);
  });

  it('merge directives: @replace, @if_not_exists and @drop change another source\'s object', async () => {
    writeSource(s.root, {
      name: 'tweaks', yaml: 'type: extension\n',
      schema: `extend type sales_orders {
  status: String @drop
  total: Float @if_not_exists
  customer_id: Int @replace @sql(exp: "[customer_id] * 100")
  net: Float @sql(exp: "[total] * 0.8")
}
`,
    }, '');
    await gql(`mutation { core { insert_data_sources(data: {name: "tweaks", type: "extension", prefix: "", path: "", catalogs: [{name: "tweaks", type: "localFS", path: "${s.root}/tweaks"}]}) { name } } }`);
    expect((await load('tweaks')).body.data.function.core.load_data_source).toEqual({ success: true, message: 'data source "tweaks" loaded' });
    const r = await gql('{ sales_orders(filter: {id: {eq: 11}}) { id total net customer_id } }');
    expect(r.body.data.sales_orders).toEqual([{ id: 11, total: 150, net: 120, customer_id: 100 }]);
    expect((await gql('{ sales_orders { status } }')).body.errors[0].message).toMatch(/Cannot query field "status"/);
    expect((await unload('tweaks')).body.data.function.core.unload_data_source.success).toBe(true);
    expect((await gql('{ sales_orders(filter: {id: {eq: 11}}) { status customer_id } }')).body.data.sales_orders).toEqual([{ status: 'paid', customer_id: 1 }]);
  });

  it('@drop_directive takes a directive off another source\'s field: without @pk there is no _by_pk', async () => {
    expect((await gql('{ sales_orders_by_pk(id: 10) { id } }')).body.data.sales_orders_by_pk).toEqual({ id: 10 });
    writeSource(s.root, { name: 'nopk', yaml: 'type: extension\n', schema: 'extend type sales_orders {\n  id: Int @drop_directive(name: "pk")\n}\n' }, '');
    await gql(`mutation { core { insert_data_sources(data: {name: "nopk", type: "extension", prefix: "", path: "", catalogs: [{name: "nopk", type: "localFS", path: "${s.root}/nopk"}]}) { name } } }`);
    expect((await load('nopk')).body.data.function.core.load_data_source.success).toBe(true);
    expect((await gql('{ sales_orders_by_pk(id: 10) { id } }')).body.errors[0].message).toMatch(/Cannot query field "sales_orders_by_pk"/);
    expect((await unload('nopk')).body.data.function.core.unload_data_source.success).toBe(true);
    expect((await gql('{ sales_orders_by_pk(id: 10) { id } }')).body.data.sales_orders_by_pk).toEqual({ id: 10 });
  });
});
