// MySQL as a cross-source relation target and parent (issue 19 items 2 and 5): DuckDB customers and
// MySQL orders related both ways by an extension source. The MySQL level reads its keys through
// JSON_TABLE (one JSON list parameter per key column), one statement per level.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlDatabase, type TestMysqlDatabase } from '../support/mysql.js';
import { startSources, type Sources } from '../support/sources.js';

const CRM = {
  name: 'crm',
  yaml: 'type: duckdb\npath: ":memory:"\nprefix: crm\nseed: seed.sql\n',
  schema: 'type customers @table(name: "customers") {\n  id: Int! @pk\n  name: String\n}\n',
  seed: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR);\nINSERT INTO customers VALUES (1, 'Ada'), (2, 'Alan'), (3, 'Grace');\n",
};
const MY = {
  name: 'my',
  yaml: 'type: mysql\npath: "[$SVC_TEST_CROSS_MYSQL]"\nprefix: my\n',
  schema: 'type orders @table(name: "orders") {\n  id: Int! @pk\n  customer_id: Int\n  total: Float\n  status: String\n}\n',
};
const LINKS = {
  name: 'links',
  yaml: 'type: extension\n',
  schema: 'extend type my_orders @dependency(name: "crm") @references(references_name: "crm_customers", source_fields: ["customer_id"], references_fields: ["id"], query: "customer", references_query: "orders")\n',
};

let mdb: TestMysqlDatabase;
let s: Sources;
beforeAll(async () => {
  mdb = await createMysqlDatabase('svc_cross_my');
  await mdb.exec(`CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, total DOUBLE, status VARCHAR(20));
    INSERT INTO orders VALUES (10, 1, 50, 'paid'), (11, 1, 150, 'paid'), (12, 2, 300, 'pending'), (13, NULL, 5, 'paid');`);
  process.env.SVC_TEST_CROSS_MYSQL = mdb.url;
  s = await startSources({ name: 'svc_cross_my', pgSql: 'SELECT 1', sources: [CRM, MY, LINKS] });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await mdb?.drop();
});

const perSource = (st: { source: string }[]) => st.reduce<Record<string, number>>((m, x) => ({ ...m, [x.source]: (m[x.source] ?? 0) + 1 }), {});

describe('MySQL across sources', () => {
  it('1:N from DuckDB rows to MySQL rows, with aggregations: one statement per source', async () => {
    s.statements.length = 0;
    const r = await s.app.gql('{ crm_customers(order_by: [{field: "id"}]) { id orders(order_by: [{field: "id"}]) { id total } orders_aggregation { _rows_count total { sum } } } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.crm_customers).toEqual([
      { id: 1, orders: [{ id: 10, total: 50 }, { id: 11, total: 150 }], orders_aggregation: { _rows_count: 2, total: { sum: 200 } } },
      { id: 2, orders: [{ id: 12, total: 300 }], orders_aggregation: { _rows_count: 1, total: { sum: 300 } } },
      { id: 3, orders: null, orders_aggregation: null },
    ]);
    const counts = perSource(s.statements);
    expect(counts.crm).toBe(1);
    expect(counts.my).toBeLessThanOrEqual(2);
    expect(s.statements.filter((x) => x.source === 'my').every((x) => x.sql.includes('JSON_TABLE'))).toBe(true);
  });

  it('N:1 from MySQL rows to DuckDB rows', async () => {
    s.statements.length = 0;
    const r = await s.app.gql('{ my_orders(order_by: [{field: "id"}]) { id customer { name } } }');
    expect(r.body.errors, r.text).toBeUndefined();
    expect(r.body.data.my_orders).toEqual([
      { id: 10, customer: { name: 'Ada' } }, { id: 11, customer: { name: 'Ada' } }, { id: 12, customer: { name: 'Alan' } }, { id: 13, customer: null },
    ]);
    expect(perSource(s.statements)).toEqual({ my: 1, crm: 1 });
  });
});
