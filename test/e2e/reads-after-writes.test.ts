// Reads after writes (issue 15 item 1): DuckDB prepared statements keep a plan built from the
// statistics seen when they were prepared, so a statement reused after a write could read a new
// value outside the old min/max wrongly (70000 came back as 112). Every read path re-reads here after
// an insert of values beyond every earlier one, on both dialects, through the same documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

const ok = async (d: Dialects['all'][number], q: string) => {
  const r = await d.app.gql(q);
  expect(r.body.errors, `${d.name}: ${r.text}`).toBeUndefined();
  return r.body.data;
};

const reads = {
  list: '{ shop_orders { id status note } }',
  by_pk: '{ shop_orders_by_pk(id: ID) { id status note } }',
  aggregation: '{ shop_orders_aggregation { _rows_count id { max } } }',
  relation: '{ shop_customers_by_pk(id: 1) { orders { id status note } } }',
};

describe('a read after a write sees the write', () => {
  it('list, by_pk, aggregation and relation read values outside the previous min/max', async () => {
    for (const d of dialects.all) {
      let id = 70000;
      for (const round of [1, 2, 3]) {
        // Read every path first, so the statements exist (and on DuckDB are prepared) before the write.
        for (const q of Object.values(reads)) await ok(d, q.replace('ID', String(id)));
        const before = (await ok(d, reads.aggregation)).shop_orders_aggregation._rows_count;
        id = id * 7 + round;
        const status = `status-${'x'.repeat(40 * round)}`;
        await ok(d, `mutation { insert_shop_orders(data: {id: ${id}, customer_id: 1, status: "${status}", note: "n${round}", ordered_at: "2025-06-01T00:00:00Z"}) { id } }`);
        // A checkpoint rewrites storage and statistics: reads after it must be right too.
        if (round === 2 && d.name === 'duckdb') await ok(d, 'mutation { function { core { checkpoint(name: "shop") { success } } } }');
        const row = { id, status, note: `n${round}` };
        expect((await ok(d, reads.list)).shop_orders, `${d.name} list, round ${round}`).toContainEqual(row);
        expect((await ok(d, reads.by_pk.replace('ID', String(id)))).shop_orders_by_pk, `${d.name} by_pk`).toEqual(row);
        expect((await ok(d, reads.aggregation)).shop_orders_aggregation, `${d.name} aggregation`).toEqual({ _rows_count: before + 1, id: { max: id } });
        expect((await ok(d, reads.relation)).shop_customers_by_pk.orders, `${d.name} relation`).toContainEqual(row);
      }
    }
  });

  it('core tables read after a write through core mutations see it', async () => {
    const d = dialects.all[0]!;
    const roles = '{ core { roles(order_by: [{field: "name", direction: DESC}]) { name description } } }';
    await ok(d, roles);
    const name = `zz-${'r'.repeat(120)}`;
    await ok(d, `mutation { core { insert_roles(data: {name: "${name}", description: "${'d'.repeat(300)}"}) { name } } }`);
    expect((await ok(d, roles)).core.roles[0]).toEqual({ name, description: 'd'.repeat(300) });
  });
});
