// `@join` fields within one source (SPEC §3.3) on DuckDB and PostgreSQL: by field pairs, by an SQL
// condition over [source.f] / [dest.f], list and single; and a join whose target is a view with
// arguments takes the view's `args` (issue 18 item 1), in aggregations too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoSources, type TwoSources } from '../support/two-sources.js';

const CATALOG = `type people @table(name: "people") {
  id: Int! @pk
  name: String
  city: String
  neighbours: [people] @join(references_name: "people", source_fields: ["city"], references_fields: ["city"], sql: "[source.id] <> [dest.id]")
  first_big_order: orders_from @join(references_name: "orders_from", source_fields: ["id"], references_fields: ["person_id"])
  big_orders: [orders_from] @join(references_name: "orders_from", source_fields: ["id"], references_fields: ["person_id"])
}

type orders @table(name: "orders") {
  id: Int! @pk
  person_id: Int
  total: Float
}

input orders_from_args {
  min_total: Float!
}

type orders_from @view(name: "orders_from", sql: "SELECT * FROM [$catalog].orders WHERE total >= [$min_total]") @args(name: "orders_from_args") {
  id: Int! @pk
  person_id: Int
  total: Float
}
`;
const SQL = `CREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(20), city VARCHAR(20));
INSERT INTO people VALUES (1, 'Ann', 'Oslo'), (2, 'Bob', 'Oslo'), (3, 'Cid', 'Rome'), (4, 'Dee', 'Oslo');
CREATE TABLE orders (id INTEGER PRIMARY KEY, person_id INTEGER, total DOUBLE PRECISION);
INSERT INTO orders VALUES (1, 1, 10), (2, 1, 500), (3, 2, 700), (4, 3, 20);`;

let t: TwoSources;
beforeAll(async () => {
  t = await startTwoSources({ name: 'svc_joins', catalog: CATALOG, duckSql: SQL, pgSql: SQL });
}, 60_000);
afterAll(() => t?.close());

for (const prefix of ['duck', 'pg']) {
  describe(prefix, () => {
    it('a list @join by field pairs and an SQL condition, with nested arguments', async () => {
      const r = await t.app.gql(`{ ${prefix}_people(order_by: [{field: "id"}]) { id neighbours(order_by: [{field: "id"}], nested_limit: 1) { id name } neighbours_aggregation { _rows_count } } }`);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data[`${prefix}_people`]).toEqual([
        { id: 1, neighbours: [{ id: 2, name: 'Bob' }], neighbours_aggregation: { _rows_count: 2 } },
        { id: 2, neighbours: [{ id: 1, name: 'Ann' }], neighbours_aggregation: { _rows_count: 2 } },
        { id: 3, neighbours: null, neighbours_aggregation: null },
        { id: 4, neighbours: [{ id: 1, name: 'Ann' }], neighbours_aggregation: { _rows_count: 2 } },
      ]);
    });

    it('a @join to a view with arguments takes them, single and list, in aggregations too', async () => {
      const r = await t.app.gql(`{ ${prefix}_people(filter: {id: {lte: 3}}, order_by: [{field: "id"}]) { id
        first_big_order(args: {min_total: 100}) { id }
        big_orders(args: {min_total: 100}) { id total }
        big_orders_aggregation(args: {min_total: 15}) { _rows_count }
      } }`);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data[`${prefix}_people`]).toEqual([
        { id: 1, first_big_order: { id: 2 }, big_orders: [{ id: 2, total: 500 }], big_orders_aggregation: { _rows_count: 1 } },
        { id: 2, first_big_order: { id: 3 }, big_orders: [{ id: 3, total: 700 }], big_orders_aggregation: { _rows_count: 1 } },
        { id: 3, first_big_order: null, big_orders: null, big_orders_aggregation: { _rows_count: 1 } },
      ]);
    });

    it('the view arguments are required on the join field when its input has non-null members', async () => {
      const r = await t.app.gql(`{ ${prefix}_people { big_orders { id } } }`);
      expect(r.body.errors[0].message).toMatch(/argument "args" of type "\w+orders_from_args!" is required/);
    });

    it('declared joins are not filterable', async () => {
      const r = await t.app.gql(`{ ${prefix}_people(filter: {neighbours: {any_of: {name: {eq: "Ann"}}}}) { id } }`);
      expect(r.body.errors[0].message).toMatch(/"neighbours" is not defined/);
    });
  });
}
