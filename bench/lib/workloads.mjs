// The workloads of ../shared/bench/README.md, each as a GraphQL document for svc and as the
// equivalent hand-written SQL (one statement that builds the same JSON document in the database).
//
// A case may carry several variants, tried in order: the first one svc answers without errors is
// timed. This keeps a case measurable while a feature is missing from the schema (e.g. Q3 without
// the distinct count when `count(distinct:)` is not offered), and the report names the variant used.

// Shared parameters (written into both the GraphQL document and the SQL, so both sides see the same
// literals; svc binds them as parameters, the raw endpoints prepare the statement once).
const Q1_FROM = '1995-03-01';
const Q1_TO = '1995-04-01';
const Q1_PRIORITIES = ['1-URGENT', '2-HIGH'];
const Q1_LIMIT = 50;
const Q3_SHIPDATE = '1998-09-02';
const Q0_KEY = 1;

const sqlList = (xs) => xs.map((x) => `'${x}'`).join(', ');

// ---------------------------------------------------------------- GraphQL
const gqlOrdersFilter = `{o_orderdate: {gte: "${Q1_FROM}", lt: "${Q1_TO}"}, o_orderpriority: {in: [${Q1_PRIORITIES.map((p) => `"${p}"`).join(', ')}]}}`;
const gqlOrdersList = (p) => `${p}orders(
    filter: ${gqlOrdersFilter}
    order_by: [{field: "o_orderdate", direction: DESC}, {field: "o_orderkey", direction: ASC}]
    limit: ${Q1_LIMIT}
  ) {
    o_orderkey
    o_orderdate
    o_orderpriority
    customer { c_name nation { n_name region { r_name } } }
    lineitem(nested_order_by: [{field: "l_linenumber", direction: ASC}]) { l_linenumber l_quantity l_extendedprice l_shipmode }
  }`;

const gql = {
  Q0: (p) => `query Q0 { ${p}region_by_pk(r_regionkey: ${Q0_KEY}) { r_regionkey r_name r_comment } }`,
  Q1: (p) => `query Q1 {\n  ${gqlOrdersList(p)}\n}`,
  Q2: (p) => `query Q2 {\n  ${gqlOrdersList(p)}\n  ${p}orders_aggregation(filter: ${gqlOrdersFilter}) { _rows_count }\n}`,
  Q3: (p, distinct) => `query Q3 {
  ${p}lineitem_bucket_aggregation(
    filter: {l_shipdate: {lte: "${Q3_SHIPDATE}"}}
    order_by: [{field: "key.l_returnflag", direction: ASC}, {field: "key.l_linestatus", direction: ASC}]
  ) {
    key { l_returnflag l_linestatus }
    aggregations {
      l_quantity { sum avg }
      l_extendedprice { sum avg }
      l_discount { avg }${distinct ? '\n      l_orderkey { count(distinct: true) }' : ''}
    }
  }
}`,
};

// ---------------------------------------------------------------- SQL (DuckDB)
// Rows become structs and lists (DuckDB's json_group_array takes no ORDER BY); one to_json at the end.
const duckOrders = `SELECT o_orderkey, o_custkey, o_orderdate, o_orderpriority FROM orders
  WHERE o_orderdate >= DATE '${Q1_FROM}' AND o_orderdate < DATE '${Q1_TO}' AND o_orderpriority IN (${sqlList(Q1_PRIORITIES)})
  ORDER BY o_orderdate DESC, o_orderkey LIMIT ${Q1_LIMIT}`;
const duckOrdersList = `(WITH o AS (${duckOrders}),
  li AS (SELECT l_orderkey, list({'l_linenumber': l_linenumber, 'l_quantity': l_quantity, 'l_extendedprice': l_extendedprice,
           'l_shipmode': l_shipmode} ORDER BY l_linenumber) AS items
         FROM lineitem WHERE l_orderkey IN (SELECT o_orderkey FROM o) GROUP BY l_orderkey)
  SELECT list({'o_orderkey': o.o_orderkey, 'o_orderdate': o.o_orderdate, 'o_orderpriority': o.o_orderpriority,
      'customer': {'c_name': c.c_name, 'nation': {'n_name': n.n_name, 'region': {'r_name': r.r_name}}},
      'lineitem': li.items} ORDER BY o.o_orderdate DESC, o.o_orderkey)
  FROM o JOIN customer c ON c.c_custkey = o.o_custkey JOIN nation n ON n.n_nationkey = c.c_nationkey
    JOIN region r ON r.r_regionkey = n.n_regionkey LEFT JOIN li ON li.l_orderkey = o.o_orderkey)`;
const duckOrdersCount = `(SELECT count(*) FROM orders WHERE o_orderdate >= DATE '${Q1_FROM}' AND o_orderdate < DATE '${Q1_TO}'
  AND o_orderpriority IN (${sqlList(Q1_PRIORITIES)}))`;
const duckQ3 = (distinct) => `SELECT to_json({'lineitem_bucket_aggregation': list({
    'key': {'l_returnflag': l_returnflag, 'l_linestatus': l_linestatus},
    'aggregations': {'l_quantity': {'sum': sq, 'avg': aq}, 'l_extendedprice': {'sum': sp, 'avg': ap},
      'l_discount': {'avg': ad}${distinct ? ", 'l_orderkey': {'count': cd}" : ''}}
  } ORDER BY l_returnflag, l_linestatus)})
FROM (SELECT l_returnflag, l_linestatus, sum(l_quantity) sq, avg(l_quantity) aq, sum(l_extendedprice) sp, avg(l_extendedprice) ap,
        avg(l_discount) ad${distinct ? ', count(DISTINCT l_orderkey) cd' : ''}
      FROM lineitem WHERE l_shipdate <= DATE '${Q3_SHIPDATE}' GROUP BY l_returnflag, l_linestatus) g`;

const duck = {
  Q0: () => `SELECT to_json({'region_by_pk': (SELECT {'r_regionkey': r_regionkey, 'r_name': r_name, 'r_comment': r_comment}
  FROM region WHERE r_regionkey = ${Q0_KEY})})`,
  Q1: () => `SELECT to_json({'orders': ${duckOrdersList}})`,
  Q2: () => `SELECT to_json({'orders': ${duckOrdersList}, 'orders_aggregation': {'_rows_count': ${duckOrdersCount}}})`,
  Q3: duckQ3,
};

// ---------------------------------------------------------------- SQL (PostgreSQL)
// No `::` casts: pgbench reads `:name` as a variable.
const pgOrders = `SELECT o_orderkey, o_custkey, o_orderdate, o_orderpriority FROM orders
  WHERE o_orderdate >= DATE '${Q1_FROM}' AND o_orderdate < DATE '${Q1_TO}' AND o_orderpriority IN (${sqlList(Q1_PRIORITIES)})
  ORDER BY o_orderdate DESC, o_orderkey LIMIT ${Q1_LIMIT}`;
const pgOrdersJson = `(SELECT coalesce(json_agg(json_build_object('o_orderkey', o.o_orderkey, 'o_orderdate', o.o_orderdate,
      'o_orderpriority', o.o_orderpriority,
      'customer', json_build_object('c_name', c.c_name, 'nation', json_build_object('n_name', n.n_name, 'region', json_build_object('r_name', r.r_name))),
      'lineitem', (SELECT json_agg(json_build_object('l_linenumber', l.l_linenumber, 'l_quantity', l.l_quantity,
                     'l_extendedprice', l.l_extendedprice, 'l_shipmode', l.l_shipmode) ORDER BY l.l_linenumber)
                   FROM lineitem l WHERE l.l_orderkey = o.o_orderkey)
    ) ORDER BY o.o_orderdate DESC, o.o_orderkey), '[]')
  FROM (${pgOrders}) o JOIN customer c ON c.c_custkey = o.o_custkey JOIN nation n ON n.n_nationkey = c.c_nationkey
    JOIN region r ON r.r_regionkey = n.n_regionkey)`;
const pgOrdersCount = `(SELECT count(*) FROM orders WHERE o_orderdate >= DATE '${Q1_FROM}' AND o_orderdate < DATE '${Q1_TO}'
  AND o_orderpriority IN (${sqlList(Q1_PRIORITIES)}))`;
const pgQ3 = (distinct) => `SELECT CAST(json_build_object('lineitem_bucket_aggregation', coalesce(json_agg(json_build_object(
    'key', json_build_object('l_returnflag', l_returnflag, 'l_linestatus', l_linestatus),
    'aggregations', json_build_object('l_quantity', json_build_object('sum', sq, 'avg', aq), 'l_extendedprice', json_build_object('sum', sp, 'avg', ap),
      'l_discount', json_build_object('avg', ad)${distinct ? ", 'l_orderkey', json_build_object('count', cd)" : ''}))
  ORDER BY l_returnflag, l_linestatus), '[]')) AS text)
FROM (SELECT l_returnflag, l_linestatus, sum(l_quantity) sq, avg(l_quantity) aq, sum(l_extendedprice) sp, avg(l_extendedprice) ap,
        avg(l_discount) ad${distinct ? ', count(DISTINCT l_orderkey) cd' : ''}
      FROM lineitem WHERE l_shipdate <= DATE '${Q3_SHIPDATE}' GROUP BY l_returnflag, l_linestatus) g`;

const pgsql = {
  Q0: () => `SELECT CAST(json_build_object('region_by_pk', (SELECT json_build_object('r_regionkey', r_regionkey, 'r_name', r_name, 'r_comment', r_comment)
  FROM region WHERE r_regionkey = ${Q0_KEY})) AS text)`,
  Q1: () => `SELECT CAST(json_build_object('orders', ${pgOrdersJson}) AS text)`,
  Q2: () => `SELECT CAST(json_build_object('orders', ${pgOrdersJson}, 'orders_aggregation', json_build_object('_rows_count', ${pgOrdersCount})) AS text)`,
  Q3: pgQ3,
};

export const CASES = ['Q0', 'Q1', 'Q2', 'Q3'];

export const DESCRIPTIONS = {
  Q0: 'trivial: one region by primary key',
  Q1: 'page-shaped nested read: 50 orders + customer/nation/region + line items',
  Q2: 'Q1 plus _aggregation { _rows_count }',
  Q3: 'grouped aggregate over lineitem (return flag, line status)',
};

export const ENGINES = {
  duckdb: { prefix: 'duck_', sql: duck },
  postgres: { prefix: 'pg_', sql: pgsql },
};

/**
 * The variants of one case on one engine: `{ id, note, graphql, sql }`. `id` names the raw endpoint
 * route (`/<id>`); `note` says what a fallback variant leaves out.
 */
export function variants(engine, name) {
  const e = ENGINES[engine];
  if (name === 'Q3') {
    return [
      { id: 'Q3', note: '', graphql: gql.Q3(e.prefix, true), sql: e.sql.Q3(true) },
      { id: 'Q3-nodistinct', note: 'without count(distinct l_orderkey): the schema offers no distinct count', graphql: gql.Q3(e.prefix, false), sql: e.sql.Q3(false) },
    ];
  }
  return [{ id: name, note: '', graphql: gql[name](e.prefix), sql: e.sql[name]() }];
}

/** Every raw statement of one engine, by route id (what the raw endpoint serves). */
export function rawStatements(engine) {
  const out = {};
  for (const c of CASES) for (const v of variants(engine, c)) out[v.id] = v.sql;
  return out;
}
