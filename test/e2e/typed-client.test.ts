// The generated typed client, complete and safe (issue 20 item 3): every kind of root field against
// the shop's DuckDB, called from a team's controller behind SvcGuard over HTTP (so as the request's
// caller, with its role's rules); the system identity only when named; an invalid selection that
// reaches run time answered with a coded error logged under the request id; and the compile-time
// check: tsc accepts the valid fixture and fails on every line of the invalid one.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Controller, Get, Inject, Module, Post, UseGuards } from '@nestjs/common';
import { Int, Query, Resolver } from '@nestjs/graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShopClient, ShopSourceModule } from '../../src/generated/shop/module.js';
import { SvcGuard } from '../../src/pipeline/svc.guard.js';
import { currentRequest } from '../../src/shared/request-scope.js';
import { startApp, type TestApp } from '../support/app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'typed-client');
const ADMIN = { 'x-svc-secret-key': 'k' };
const GB_ONLY = { ...ADMIN, 'x-svc-role': 'gb_only', 'x-svc-user-id': '5', 'x-svc-user-name': 'gb' };

@Controller('typed')
@UseGuards(SvcGuard)
class TypedController {
  constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}

  @Get('reads')
  async reads(): Promise<unknown> {
    const s = this.shop;
    return {
      list: await s.customers(
        { id: true, name: true, orders: { select: { id: true, status: true, total_after: { args: { percent: 50 } } }, args: { filter: { status: { eq: 'shipped' } } } } },
        { order_by: [{ field: 'id' }] },
      ),
      byPk: await s.orders_by_pk({ status: true, customer: { select: { name: true } }, items: { select: { line: true } } }, { id: 3 }),
      missing: await s.orders_by_pk({ id: true }, { id: 999 }),
      unique: await s.products_by_sku({ name: true, size: { select: { width: true, unit: true } } }, { sku: 'HW-001' }),
      aggregation: await s.orders_aggregation({ _rows_count: true, id: { select: { max: true } } }, { filter: { status: { eq: 'shipped' } } }),
      buckets: await s.orders_bucket_aggregation({ key: { select: { status: true } }, aggregations: { select: { _rows_count: true } } }, { order_by: [{ field: 'key.status' }] }),
      view: await s.orders_since({ id: true }, { args: { since: '2025-03-01T00:00:00Z' }, order_by: [{ field: 'id' }] }),
      scalarFunction: await s.order_total({ order_id: 1 }),
      tableFunction: await s.series({ generate_series: true }, { start: 1, stop: 3 }),
      objectFunction: await s.customers_in({ name: true }, { country: 'US' }),
    };
  }

  @Post('writes')
  async writes(): Promise<unknown> {
    const s = this.shop;
    const inserted = await s.insert_tags({ id: true, name: true }, { data: { id: 10, name: 'typed' } });
    const batch = await s.insert_tags_batch({ affected_rows: true }, { data: [{ id: 11, name: 'b1' }, { id: 12, name: 'b2' }] });
    const updated = await s.update_tags({ affected_rows: true }, { filter: { id: { in: [10, 11] } }, data: { name: 'renamed' } });
    const renamed = await s.tags({ id: true, name: true }, { filter: { name: { eq: 'renamed' } }, order_by: [{ field: 'id' }] });
    const deleted = await s.delete_tags({ affected_rows: true }, { filter: { id: { gte: 10 } } });
    return { inserted, batch, updated, renamed, deleted, left: await s.tags_aggregation({ _rows_count: true }) };
  }

  @Get('invalid')
  async invalid(): Promise<unknown> {
    // A selection that does not type-check, forced through (a cast, plain JavaScript): refused at run time.
    return this.shop.customers({ id: true, orders: true } as never);
  }

  @Get('names')
  async names(): Promise<unknown> {
    return this.shop.customers({ id: true, name: true, orders: { select: { id: true } } }, { order_by: [{ field: 'id' }] });
  }

  @Get('emails')
  async emails(): Promise<unknown> {
    return this.shop.customers({ email: true });
  }
}

/** The same forced selection inside an extension's GraphQL field. */
@Resolver()
class TypedResolver {
  constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}

  @Query(() => Int, { nullable: true })
  async typed_bad(): Promise<number> {
    return (await this.shop.orders({ id: true, customer: true } as never)).length;
  }
}

@Module({ imports: [ShopSourceModule], controllers: [TypedController], providers: [TypedResolver] })
class TypedModule {}

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k' }, [TypedModule]);
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "gb_only", permissions: [
    {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}},
    {type_name: "shop_customers", field_name: "email", disabled: true}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(() => t?.close());

describe('calls of each kind, through a real server and DuckDB', () => {
  it('reads: lists with nested relations and arguments, _by_pk, unique, aggregations, buckets, views with arguments, functions', async () => {
    const r = await t.request({ method: 'GET', url: '/typed/reads', headers: ADMIN });
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b.list).toHaveLength(4);
    expect(b.list[0]).toEqual({ id: 1, name: 'Ada Lovelace', orders: [{ id: 1, status: 'shipped', total_after: 43.75 }] });
    expect(b.list[3]).toEqual({ id: 4, name: 'Edsger Dijkstra', orders: null });
    expect(b.byPk).toEqual({ status: 'shipped', customer: { name: 'Alan Turing' }, items: [{ line: 1 }, { line: 2 }] });
    expect(b.missing).toBeNull();
    expect(b.unique).toEqual({ name: 'Mechanical Keyboard', size: { width: 44.5, unit: 'cm' } });
    expect(b.aggregation).toEqual({ _rows_count: 2, id: { max: 3 } });
    expect(b.buckets).toEqual([
      { key: { status: 'cancelled' }, aggregations: { _rows_count: 1 } },
      { key: { status: 'pending' }, aggregations: { _rows_count: 1 } },
      { key: { status: 'shipped' }, aggregations: { _rows_count: 2 } },
    ]);
    expect(b.view).toEqual([{ id: 1 }, { id: 2 }]);
    expect(b.scalarFunction).toBe(87.5);
    expect(b.tableFunction).toEqual([{ generate_series: 1 }, { generate_series: 2 }, { generate_series: 3 }]);
    expect(b.objectFunction).toEqual([{ name: 'Grace Hopper' }]);
  });

  it('writes: insert, insert_batch, update, delete, in order, as the caller', async () => {
    const r = await t.request({ method: 'POST', url: '/typed/writes', headers: ADMIN });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      inserted: { id: 10, name: 'typed' },
      batch: { affected_rows: 2 },
      updated: { affected_rows: 2 },
      renamed: [{ id: 10, name: 'renamed' }, { id: 11, name: 'renamed' }],
      deleted: { affected_rows: 3 },
      left: { _rows_count: 3 },
    });
  });
});

describe('who the client acts as', () => {
  it('the caller of the request by default: its row filter and its hidden fields apply', async () => {
    const r = await t.request({ method: 'GET', url: '/typed/names', headers: GB_ONLY });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ id: 1, name: 'Ada Lovelace', orders: [{ id: 1 }, { id: 2 }] }, { id: 2, name: 'Alan Turing', orders: [{ id: 3 }] }]);
    expect((await t.request({ method: 'GET', url: '/typed/names', headers: ADMIN })).body).toHaveLength(4);
    // A function returning rows the role reads only through a filter is refused, with svc's own code.
    const fn = await t.request({ method: 'GET', url: '/typed/reads', headers: GB_ONLY });
    expect(fn.status).toBe(400);
    expect(fn.body.errors[0]).toMatchObject({ message: expect.stringMatching(/forbidden: "customers_in" returns rows of "shop_customers"/), extensions: { code: 'FORBIDDEN' } });
    const emails = await t.request({ method: 'GET', url: '/typed/emails', headers: GB_ONLY });
    expect(emails.status).toBe(400);
    expect(emails.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(emails.text).not.toMatch(/@example\.com/);
    expect((await t.request({ method: 'GET', url: '/typed/emails', headers: ADMIN })).body).toHaveLength(4);
  });

  it('outside a request: refused unless the system identity is asked for by name', async () => {
    const shop = t.app.get(ShopClient);
    await expect(shop.tags({ name: true })).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: expect.stringMatching(/no caller.*asSystem\(\)/) });
    expect(await shop.asSystem().tags({ id: true, name: true }, { order_by: [{ field: 'id' }] })).toEqual([{ id: 1, name: 'classic' }, { id: 2, name: 'bestseller' }, { id: 3, name: 'gadget' }]);
  });
});

describe('a selection that is invalid at run time', () => {
  it('answers INVALID_SELECTION naming the place, logged with the request id the answer carries', async () => {
    const logged: { id: string | undefined; err: unknown }[] = [];
    const spy = vi.spyOn(t.runtime.log, 'error').mockImplementation(((obj: { err?: unknown }) => void logged.push({ id: currentRequest()?.id, err: obj.err })) as never);
    try {
      const r = await t.request({ method: 'GET', url: '/typed/invalid', headers: ADMIN });
      expect(r.status).toBe(500);
      const error = r.body.errors[0];
      expect(error.extensions.code).toBe('INVALID_SELECTION');
      expect(error.message).toBe('typed client: shop_customers.orders: "orders" is a relation or object of type shop_orders: select its fields with { select: { ... } }, not true');
      expect(typeof error.extensions.request_id).toBe('string');
      expect((logged.find((l) => l.id === error.extensions.request_id)?.err as Error).message).toBe(error.message);
    } finally {
      spy.mockRestore();
    }
  });

  it('inside an extension\'s GraphQL field: the same code and message at the field\'s path, with the request id', async () => {
    const r = await t.gql('{ typed_bad }', undefined, ADMIN);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ typed_bad: null });
    expect(r.body.errors[0]).toMatchObject({
      path: ['typed_bad'],
      message: expect.stringMatching(/^typed client: shop_orders\.customer: "customer" is a relation or object of type shop_customers/),
      extensions: { code: 'INVALID_SELECTION', request_id: expect.any(String) },
    });
  });

  it('names unknown fields, unknown arguments and missing required ones', async () => {
    const shop = t.app.get(ShopClient).asSystem();
    const code = { code: 'INVALID_SELECTION' };
    await expect(shop.customers({ nope: true } as never)).rejects.toMatchObject({ ...code, message: 'typed client: shop_customers.nope: "shop_customers" has no field "nope"' });
    await expect(shop.customers({ name: { select: { x: true } } } as never)).rejects.toMatchObject({ ...code, message: expect.stringMatching(/shop_customers\.name: a String field is selected with true/) });
    await expect(shop.customers({ orders: { select: { id: true }, args: { limt: 1 } } } as never)).rejects.toMatchObject({ ...code, message: expect.stringMatching(/shop_customers\.orders: unknown argument "limt"/) });
    await expect(shop.orders({ total_after: true } as never)).rejects.toMatchObject({ ...code, message: expect.stringMatching(/shop_orders\.total_after: missing required argument "percent"/) });
    await expect(shop.customers({} as never)).rejects.toMatchObject({ ...code, message: expect.stringMatching(/select at least one field/) });
  });

  it('sends argument values as variables, never as text of the operation', async () => {
    const shop = t.app.get(ShopClient).asSystem();
    const evil = '") { id } } mutation { delete_shop_tags { affected_rows } } #';
    expect(await shop.tags({ id: true }, { filter: { name: { eq: evil } } })).toEqual([]);
    expect(await shop.tags_aggregation({ _rows_count: true })).toEqual({ _rows_count: 3 });
  });
});

describe('compile-time checks (tsc --noEmit)', () => {
  const tsc = (config: string) =>
    promisify(execFile)(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(FIXTURES, config)], { cwd: ROOT })
      .then(() => ({ code: 0, out: '' }), (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }));

  it('accept every valid call, with the result types asserted in the fixture', async () => {
    const r = await tsc('tsconfig.valid.json');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  }, 180_000);

  it('fail on every invalid selection or argument of the fixture, and nowhere else', async () => {
    const r = await tsc('tsconfig.invalid.json');
    expect(r.code).not.toBe(0);
    const failing = new Set([...r.out.matchAll(/invalid\.ts\((\d+),\d+\): error/g)].map((m) => Number(m[1])));
    const marked = readFileSync(join(FIXTURES, 'invalid.ts'), 'utf8').split('\n').flatMap((line, i) => (/^\s+\/\/ error:/.test(line) ? [i + 2] : []));
    expect(marked.length).toBeGreaterThan(10);
    expect([...failing].sort((a, b) => a - b)).toEqual(marked);
    // The relation passed as a scalar is refused with a message about its selection.
    expect(r.out).toMatch(/Type 'boolean' is not assignable to type '\{ select: Selection<ShopSchema, "shop_orders">/);
  }, 180_000);
});
