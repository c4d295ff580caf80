// A team's own Nest module uses the typed client codegen writes (DESIGN.md §2).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ShopClient, ShopSourceModule } from '../../src/generated/shop/module.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({}, [ShopSourceModule]);
});
afterAll(() => t.close());

it('reads rows through the generated typed client, in-process', async () => {
  const client = t.app.get(ShopClient);
  const rows = await client.customers(['id', 'name'], { filter: { country: { eq: 'GB' } }, order_by: [{ field: 'id' }] });
  expect(rows).toEqual([{ id: 1, name: 'Ada Lovelace' }, { id: 2, name: 'Alan Turing' }]);
});

it('runs any operation and reports GraphQL errors as exceptions', async () => {
  const client = t.app.get(ShopClient);
  expect(await client.query('{ shop_tags_by_pk(id: 2) { name } }')).toEqual({ shop_tags_by_pk: { name: 'bestseller' } });
  await expect(client.query('{ shop_tags { nope } }')).rejects.toThrow(/Cannot query field "nope"/);
});
