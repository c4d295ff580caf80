// Errors classified honestly (issue 15 item 3): long IN lists are one array parameter on PostgreSQL
// (no 65535-parameter ceiling) and one list parameter on DuckDB, and a pool that cannot hand out a connection in time is
// SOURCE_UNAVAILABLE, retryable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

describe('IN lists', () => {
  it('9,000 values in one filter (under MAX_LIST_VALUES): one parameter on both dialects, the same answer', async () => {
    const ids = Array.from({ length: 9_000 }, (_, i) => i + 1);
    for (const d of dialects.all) {
      const r = await d.app.gql('query($ids: [Int!]) { shop_tags(filter: {id: {in: $ids}}, order_by: [{field: "id"}]) { id } }', { ids });
      expect(r.body.errors, `${d.name}: ${r.text.slice(0, 300)}`).toBeUndefined();
      expect(r.body.data.shop_tags, d.name).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    }
    const pg = dialects.all.find((d) => d.name === 'postgres')!;
    expect(pg.statements.at(-1)).toMatch(/"id" = ANY\(\$1::integer\[\]\)/);
    const duck = dialects.all.find((d) => d.name === 'duckdb')!;
    expect(duck.statements.at(-1)).toMatch(/"id" = ANY\(CAST\(CAST\(\$1 AS JSON\) AS INTEGER\[\]\)\)/);
    expect(duck.statements.at(-1)).not.toMatch(/\$2/);
  });

  it('texts with quotes, commas and brackets, and dates match as they are on both dialects', async () => {
    const names = ['classic', 'it\'s "new", [x]', 'bestseller', '\u00e9t\u00e9 \\ ok'];
    for (const d of dialects.all) {
      const r = await d.app.gql('query($n: [String!]) { shop_tags(filter: {name: {in: $n}}, order_by: [{field: "id"}]) { id name } }', { n: names });
      expect(r.body.data?.shop_tags, `${d.name}: ${r.text.slice(0, 300)}`).toEqual([{ id: 1, name: 'classic' }, { id: 2, name: 'bestseller' }]);
      const dates = await d.app.gql('{ shop_orders(filter: {ship_date: {in: ["2025-02-22", "1999-01-01"]}}) { id } }');
      expect(dates.body.data?.shop_orders, `${d.name}: ${dates.text.slice(0, 300)}`).toEqual([{ id: 3 }]);
    }
  });
});

describe('a pool that cannot hand out a connection in time', () => {
  let small: Dialects;
  beforeAll(async () => {
    small = await startDialects({ QUERY_TIMEOUT: '1s', DB_MAX_OPEN_CONNS: '1', DB_PG_CONNECTION_LIMIT: '1' });
  }, 120_000);
  afterAll(() => small?.close());

  it('is SOURCE_UNAVAILABLE, retryable, and the source answers once a connection is free', async () => {
    for (const d of small.all) {
      const runtime = d.app.runtime.registry.get('shop')!.runtime as import('../../src/sources/types.js').DataSourceRuntime & { withConnection?: (fn: () => Promise<void>) => Promise<void> };
      // Hold the pool's only connection (DuckDB reads use the pool; PostgreSQL transactions too).
      let release!: () => void;
      const held = new Promise<void>((ready) => {
        const hold = () => new Promise<void>((done) => { release = done; ready(); });
        void (runtime.withConnection ? runtime.withConnection(hold) : runtime.transaction(hold));
      });
      await held;
      const r = await d.app.gql('{ shop_tags { id } }');
      release();
      // On DuckDB the core database shares the pool, so its role lookup may be the one that waits.
      expect(r.body.errors?.[0]?.message, `${d.name}: ${r.text}`).toMatch(/^data source "(shop|core)" has no free connection: its pool is busy; try again$/);
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'SOURCE_UNAVAILABLE', retryable: true });
      const again = await d.app.gql('{ shop_tags(order_by: [{field: "id"}]) { id } }');
      expect(again.body.data, d.name).toEqual({ shop_tags: [{ id: 1 }, { id: 2 }, { id: 3 }] });
    }
  });
});
