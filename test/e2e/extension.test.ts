// A team's own Nest module uses the typed client codegen writes (DESIGN.md §2).
import { Controller, Get, Module } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShopClient, ShopSourceModule } from '../../src/generated/shop/module.js';
import { currentRequest } from '../../src/shared/request-scope.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({}, [ShopSourceModule]);
});
afterAll(() => t.close());

it('reads rows through the generated typed client, in-process', async () => {
  const client = t.app.get(ShopClient);
  const rows = await client.asSystem().customers({ id: true, name: true }, { filter: { country: { eq: 'GB' } }, order_by: [{ field: 'id' }] });
  expect(rows).toEqual([{ id: 1, name: 'Ada Lovelace' }, { id: 2, name: 'Alan Turing' }]);
});

it('runs any operation and reports GraphQL errors as exceptions', async () => {
  const client = t.app.get(ShopClient).asSystem();
  expect(await client.query('{ shop_tags_by_pk(id: 2) { name } }')).toEqual({ shop_tags_by_pk: { name: 'bestseller' } });
  await expect(client.query('{ shop_tags { nope } }')).rejects.toThrow(/Cannot query field "nope"/);
});

describe('an unexpected error in a team module', () => {
  @Controller()
  class Broken {
    @Get('broken')
    fail(): never {
      throw new Error('the team module fell over: detail only for the log');
    }
  }
  @Module({ controllers: [Broken] })
  class BrokenModule {}

  let b: TestApp;
  beforeAll(async () => {
    b = await startApp({}, [BrokenModule]);
  });
  afterAll(() => b.close());

  it('is logged with its request id, and the answer names that id (not the detail)', async () => {
    const logged: { id: string | undefined; err: unknown }[] = [];
    vi.spyOn(b.runtime.log, 'error').mockImplementation(((obj: { err?: unknown }) => void logged.push({ id: currentRequest()?.id, err: obj.err })) as never);
    const r = await b.request({ method: 'GET', url: '/broken' });
    expect(r.status).toBe(500);
    expect(r.body.errors[0].message).toBe('internal server error');
    expect(r.text).not.toMatch(/fell over/);
    const id = r.body.errors[0].extensions.request_id;
    expect(typeof id).toBe('string');
    const line = logged.find((l) => l.id === id);
    expect((line?.err as Error).message).toBe('the team module fell over: detail only for the log');
  });
});
