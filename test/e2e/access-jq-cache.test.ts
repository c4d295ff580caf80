// /jq-query cache and permissions (issue 14 item 11): an entry is keyed by the caller's role and
// identity and time zone, carries the tags of the objects its query read, and is dropped by writes
// and by permission changes, on DuckDB and PostgreSQL with the real result cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDialects, type Dialect, type Dialects } from '../support/dialects.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
const as = (userId: string, extra: Record<string, string> = {}) => ({ ...ADMIN, 'x-svc-role': 'reader', 'x-svc-user-id': userId, 'x-svc-user-name': `user${userId}`, ...extra });
const BODY = { jq: '[.data.shop_orders[] | {id, ordered_at}]', query: { query: '{ shop_orders(order_by: [{field: "id"}]) { id ordered_at } }' } };
const SVC = { jq: 'querySvc("{ shop_orders(order_by: [{field: \\"id\\"}]) { id } }") | [.data.shop_orders[].id]', query: { query: '{ __typename }' } };

let dialects: Dialects;

beforeAll(async () => {
  dialects = await startDialects({ SECRET_KEY: 'k', CACHE_L1_ENABLED: 'true' });
  for (const d of dialects.all) {
    const r = await d.app.gql(`mutation { core { insert_roles(data: {name: "reader", description: "own orders", permissions: [
      {type_name: "data-object:query", field_name: "shop_orders", filter: {customer_id: {eq: "[$auth.user_id_int]"}}}
    ]}) { name } } }`, undefined, ADMIN);
    expect(r.body.errors).toBeUndefined();
  }
}, 120_000);
afterAll(() => dialects?.close());

const post = async (d: Dialect, body: unknown, headers: Record<string, string>) => {
  const r = await d.app.request({ method: 'POST', url: '/jq-query', headers: { 'content-type': 'application/json', 'x-svc-cache': '300', ...headers }, payload: JSON.stringify(body) });
  expect(r.status, r.text).toBe(200);
  return r.body;
};
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe.each(['duckdb', 'postgres'] as const)('on %s', (dialect) => {
  const d = () => dialects.all.find((x) => x.name === dialect)!;

  it('a second user of the role gets their own rows, not the first user\'s', async () => {
    expect(ids(await post(d(), BODY, as('1')))).toEqual([1, 2]);
    expect(ids(await post(d(), BODY, as('2')))).toEqual([3]);
    expect(ids(await post(d(), BODY, as('1')))).toEqual([1, 2]);
    // querySvc inside the program runs as the caller too.
    expect(await post(d(), SVC, as('1'))).toEqual([1, 2]);
    expect(await post(d(), SVC, as('2'))).toEqual([3]);
  });

  it('the time zone is part of the key', async () => {
    const utc = await post(d(), BODY, as('2'));
    const tokyo = await post(d(), BODY, as('2', { 'x-svc-timezone': 'Asia/Tokyo' }));
    expect(utc[0].ordered_at).toMatch(/^2025-02-20T17:30:00(\.000)?(Z|\+00:00)$/);
    expect(tokyo[0].ordered_at).toMatch(/^2025-02-21T02:30:00(\.000)?\+09:00$/);
  });

  it('a write to an object the answer read drops the entry', async () => {
    expect(ids(await post(d(), BODY, as('2')))).toEqual([3]);
    expect(await post(d(), SVC, as('2'))).toEqual([3]);
    const w = await d().app.gql('mutation { insert_shop_orders(data: {id: 60, customer_id: 2, status: "pending", ordered_at: "2025-05-01T00:00:00Z"}) { id } }', undefined, ADMIN);
    expect(w.body.errors).toBeUndefined();
    expect(ids(await post(d(), BODY, as('2')))).toEqual([3, 60]);
    expect(await post(d(), SVC, as('2'))).toEqual([3, 60]);
  });

  it('a permission change drops the entry', async () => {
    expect(ids(await post(d(), BODY, as('1')))).toEqual([1, 2]);
    const w = await d().app.gql('mutation { core { update_role_permissions(filter: {role: {eq: "reader"}}, data: {filter: {customer_id: {eq: 3}}}) { affected_rows } } }', undefined, ADMIN);
    expect(w.body.data.core.update_role_permissions.affected_rows).toBe(1);
    expect(ids(await post(d(), BODY, as('1')))).toEqual([4]);
  });
});
