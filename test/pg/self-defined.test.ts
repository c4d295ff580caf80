// self_defined on PostgreSQL (SPEC §3.1): the catalog read from the database compiles, and served
// as a source it answers queries over its relations.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../../src/catalog/compile.js';
import type { ResolvedCatalog } from '../../src/catalog/model.js';
import type { RootQuery } from '../../src/planner/ir/select.js';
import { introspect } from '../../src/sources/postgres/introspect.js';
import { PostgresSource } from '../../src/sources/postgres/source.js';
import { startApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/pg.js';
import { catalogDir, data, fixtureDatabase, registerSource } from './support.js';

let db: TestDatabase;
let sdl: string;
let warnings: readonly string[];
let catalog: ResolvedCatalog;

beforeAll(async () => {
  db = await fixtureDatabase('selfdef.sql', 'svc_self');
  const source = await PostgresSource.connect({ name: 'app', url: `${db.url}?schema=app`, readOnly: false, maxConnections: 2 });
  try {
    ({ sdl, warnings } = await introspect(source, source.defaultSchema, 'app'));
  } finally {
    await source.close();
  }
  catalog = compileCatalog({ name: 'app', type: 'postgres', prefix: 'app', asModule: false, readOnly: false }, [{ file: 'introspected.graphql', text: sdl }]);
});

afterAll(async () => {
  await db?.drop();
});

const object = (name: string) => {
  const o = catalog.objects.find((x) => x.localName === name);
  if (!o) throw new Error(`no object ${name} in\n${sdl}`);
  return o;
};

describe('introspection', () => {
  it('reads the tables and views of the named schema only', () => {
    expect(catalog.objects.map((o) => [o.localName, o.kind, o.table])).toEqual([
      ['categories', 'table', 'categories'],
      ['customers', 'table', 'customers'],
      ['open_orders', 'view', 'open_orders'],
      ['Order_Lines', 'table', 'Order Lines'],
      ['orders', 'table', 'orders'],
      ['shipments', 'table', 'shipments'],
    ]);
  });

  it('maps column types to scalars, keeping nullability and primary keys', () => {
    const fields = (name: string) => object(name).fields.map((f) => `${f.name}:${f.list ? `[${f.type}]` : f.type}${f.nonNull ? '!' : ''}${f.pk ? ' pk' : ''}${f.column !== f.name ? ` <- ${f.column}` : ''}`);
    expect(fields('orders')).toEqual([
      'id:BigInt! pk', 'customer_id:Int!', 'customer:String', 'status:String!', 'tags:[String]', 'placed:TimestampRange',
      'notes:String', 'total:Float', 'code:BigInt',
    ]);
    expect(fields('customers')).toEqual(['id:Int! pk', 'name:String!', 'orders:String', 'location:Geometry', 'joined:Timestamp']);
    expect(fields('shipments')).toEqual(['order_id:BigInt! pk', 'line:Int! pk', 'Weight_kg:Float <- Weight kg', '_2nd:Int <- 2nd']);
    expect(fields('open_orders')).toEqual(['id:BigInt', 'customer_id:Int', 'status:String']);
    expect(sdl).toContain('location: Geometry @geometry_info(type: "Point", srid: 3857)');
  });

  it('lists types without a scalar as warnings', () => {
    expect(warnings).toEqual(['app.orders.notes: type tsvector has no svc scalar; served as String']);
    expect(sdl).toContain('# warning: app.orders.notes: type tsvector has no svc scalar; served as String');
  });

  it('names relations so that they never clash with columns', () => {
    const rels = (name: string) => object(name).relations.map((r) => `${r.name}:${r.kind}:${r.target}`).sort();
    // orders has a column "customer", customers a column "orders": the relations take other names.
    expect(rels('orders')).toEqual(['Order_Lines:many:app_Order_Lines', 'customers:one:app_customers']);
    expect(rels('customers')).toEqual(['orders_by_customer_id:many:app_orders']);
    expect(rels('categories')).toEqual(['Order_Lines:many:app_Order_Lines', 'categories_by_parent_id:many:app_categories', 'parent:one:app_categories']);
    expect(rels('Order_Lines')).toEqual(['category:one:app_categories', 'order:one:app_orders', 'shipments:many:app_shipments']);
    expect(rels('shipments')).toEqual(['Order_Lines:one:app_Order_Lines']);
  });
});

describe('served from its introspected catalog', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
    const dir = catalogDir(sdl);
    writeFileSync(join(dir, 'schema.graphql'), sdl);
    expect(await registerSource(t, { name: 'appsrc', path: `${db.url}?schema=app`, catalog: dir, prefix: 'app' })).toEqual({ success: true, message: 'data source "appsrc" loaded' });
  });
  afterAll(() => t?.close());

  it('answers over single, composite and self-referencing relations', async () => {
    const d = await data(t, `{
      app_orders(order_by: [{field: "id"}]) { id customer status tags placed code customers { name orders } Order_Lines(nested_order_by: [{field: "line"}]) { line qty category { name parent { name } } shipments { Weight_kg _2nd } } }
      app_categories_by_pk(id: 1) { name categories_by_parent_id { name } }
      app_open_orders(order_by: [{field: "id"}]) { id }
    }`);
    expect(d.app_orders[0]).toEqual({
      id: 10, customer: 'text col', status: 'open', tags: ['a'], placed: '["2025-01-01 00:00:00+00",)', code: expect.anything(),
      customers: { name: 'Ada', orders: 'many' },
      Order_Lines: [
        { line: 1, qty: 5, category: { name: 'leaf', parent: { name: 'root' } }, shipments: [{ Weight_kg: 2.5, _2nd: 3 }] },
        { line: 2, qty: 1, category: null, shipments: null },
      ],
    });
    expect(d.app_orders.map((o: { id: number }) => o.id)).toEqual([10, 11, 12]);
    expect(d.app_categories_by_pk).toEqual({ name: 'root', categories_by_parent_id: [{ name: 'leaf' }] });
    expect(d.app_open_orders).toEqual([{ id: 10 }, { id: 12 }]);
  });

  it('filters through relations and keeps wide numerics exact', async () => {
    const r = await t.gql('{ app_customers(filter: {orders_by_customer_id: {any_of: {id: {eq: 11}}}}) { id } app_orders_by_pk(id: 10) { code } }');
    expect(r.body.data.app_customers).toEqual([{ id: 1 }]);
    expect(r.text).toContain('"code":123456789012345678901234567890');
  });

  it('inserts into a table with enum, domain and array columns', async () => {
    const r = await t.gql('mutation { insert_app_orders(data: {id: 13, customer_id: 2, status: "done", tags: ["x", "y"], Order_Lines: [{line: 1, qty: 2}]}) { id status tags Order_Lines { line qty } } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.insert_app_orders).toEqual({ id: 13, status: 'done', tags: ['x', 'y'], Order_Lines: [{ line: 1, qty: 2 }] });
  });
});

describe('introspection by URL', () => {
  it('reads the same catalog from a postgres:// URL', async () => {
    expect((await introspect(`${db.url}?schema=app`, 'app', 'app')).sdl).toBe(sdl);
  });

  it('reports an unreachable server with the redacted URL', async () => {
    await expect(introspect('postgres://postgres:secret@127.0.0.1:1/nowhere', 'public', 'gone')).rejects.toThrow(
      /^data source "gone" \(postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nowhere\) is unreachable: .*ECONNREFUSED/,
    );
  });
});

describe('String filters on uuid and enum columns', () => {
  /** `SELECT json_agg(id) FROM app.orders WHERE status <op> value` through the source's compiler. */
  const byStatus = (op: string, value: unknown): RootQuery => ({
    kind: 'list',
    select: {
      kind: 'select', from: { kind: 'from', alias: 't', name: ['app', 'orders'] }, orderBy: [{ expr: { kind: 'column', table: 't', column: 'id' }, desc: false }],
      fields: [{ kind: 'scalar', key: 'id', expr: { kind: 'column', table: 't', column: 'id' }, scalar: 'BigInt', list: false }],
      where: { kind: 'compare', op, left: { kind: 'column', table: 't', column: 'status' }, right: { kind: 'param', value, scalar: 'String' }, scalar: 'String', list: false },
    },
  });

  it('compare strings with untyped parameters, so enum and uuid columns take them', async () => {
    const untyped = await PostgresSource.connect({ name: 'untyped', url: db.url, readOnly: true, maxConnections: 1 });
    try {
      const eq = untyped.compiler.compileQuery(byStatus('eq', 'open'));
      expect(eq.sql).toContain('WHERE "t"."status" = $1');
      expect(await untyped.queryJson(eq)).toEqual([{ id: 10 }, { id: 12 }]);
      expect(await untyped.queryJson(untyped.compiler.compileQuery(byStatus('in', ['open'])))).toEqual([{ id: 10 }, { id: 12 }]);
      await expect(untyped.queryJson(untyped.compiler.compileQuery(byStatus('eq', 'nope')))).rejects.toThrow(/invalid input value for enum/);
      expect(await untyped.queryJson(untyped.compiler.compileQuery(byStatus('in', [])))).toEqual([]);
    } finally {
      await untyped.close();
    }
  });
});
