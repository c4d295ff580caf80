// Timezones (SPEC §10) on DuckDB and PostgreSQL: rendering across a DST change, bucket truncation
// in a non-UTC zone, the header order, and the invalid-zone error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dialects, startDialects } from '../support/dialects.js';

let dialects: Dialects;
beforeAll(async () => {
  dialects = await startDialects();
}, 120_000);
afterAll(() => dialects?.close());

const Q = '{ shop_orders(order_by: [{field: "id"}]) { id ordered_at } }';

describe('timestamps in the request time zone', () => {
  it('render with the offset of each instant, across a DST change', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql(Q, undefined, { 'x-svc-timezone': 'America/New_York' });
      expect(r.body.data.shop_orders, d.name).toEqual([
        { id: 1, ordered_at: '2025-03-01T07:00:00-05:00' },
        { id: 2, ordered_at: '2025-03-15T05:00:00-04:00' },
        { id: 3, ordered_at: '2025-02-20T12:30:00-05:00' },
        { id: 4, ordered_at: '2025-01-10T03:15:00-05:00' },
      ]);
    }
  });

  it('use Time-Zone when X-Svc-Timezone is absent, and UTC by default', async () => {
    for (const d of dialects.all) {
      const tokyo = await d.app.gql('{ shop_orders_by_pk(id: 3) { ordered_at } }', undefined, { 'time-zone': 'Asia/Kolkata' });
      expect(tokyo.body.data.shop_orders_by_pk.ordered_at).toBe('2025-02-20T23:00:00+05:30');
      const both = await d.app.gql('{ shop_orders_by_pk(id: 3) { ordered_at } }', undefined, { 'time-zone': 'Asia/Kolkata', 'x-svc-timezone': 'Europe/Berlin' });
      expect(both.body.data.shop_orders_by_pk.ordered_at).toBe('2025-02-20T18:30:00+01:00');
      const utc = await d.app.gql('{ shop_orders_by_pk(id: 3) { ordered_at } }');
      expect(utc.body.data.shop_orders_by_pk.ordered_at).toBe('2025-02-20T17:30:00Z');
    }
  });

  it('truncate time buckets in the zone', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('{ shop_orders_bucket_aggregation(order_by: [{field: "key.ordered_at"}]) { key { ordered_at(bucket: day) } aggregations { _rows_count } } }', undefined, { 'x-svc-timezone': 'Asia/Tokyo' });
      expect(r.body.data.shop_orders_bucket_aggregation.map((b: { key: { ordered_at: string } }) => b.key.ordered_at), d.name).toEqual([
        '2025-01-10T00:00:00+09:00', '2025-02-21T00:00:00+09:00', '2025-03-01T00:00:00+09:00', '2025-03-15T00:00:00+09:00',
      ]);
    }
  });

  it('leave dates untouched and answer an unknown zone with 400', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('{ shop_orders_by_pk(id: 1) { ship_date } }', undefined, { 'x-svc-timezone': 'Pacific/Kiritimati' });
      expect(r.body.data.shop_orders_by_pk.ship_date).toBe('2025-03-03');
      const bad = await d.app.gql(Q, undefined, { 'x-svc-timezone': "Mars/Olympus'; DROP TABLE x" });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].message).toMatch(/^invalid time zone "Mars\/Olympus/);
    }
  });
});

describe('time parts in the request time zone', () => {
  it('read calendar parts locally and epoch absolutely', async () => {
    for (const d of dialects.all) {
      const r = await d.app.gql('{ shop_orders_by_pk(id: 3) { day: _ordered_at_part(extract: day) hour: _ordered_at_part(extract: hour) epoch: _ordered_at_part(extract: epoch) } }', undefined, { 'x-svc-timezone': 'Asia/Tokyo' });
      expect(r.body.data.shop_orders_by_pk, d.name).toEqual({ day: 21, hour: 2, epoch: 1740072600 });
    }
  });
});
