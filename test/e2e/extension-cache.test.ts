// svc's result cache on extension modules' root fields (issue 20 item 2): the example's
// `@SvcCache()` query over HTTP, with the resolver's call counter proving which answers came from the
// cache: the second call of a caller is cached, another role (or user) gets its own entry, a write to
// what the method read through the typed client drops it, and a client's `@no_cache` skips it.
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { Int, Query, Resolver } from '@nestjs/graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExtensionModules } from '../../src/extensions/load.js';
import { startApp, type TestApp } from '../support/app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN = { 'x-svc-secret-key': 'k' };
const as = (role: string, user = '5') => ({ ...ADMIN, 'x-svc-role': role, 'x-svc-user-id': user, 'x-svc-user-name': `a ${role}` });
const REPORT = '{ report_customers_by_country { country customers } }';

/** A field without @SvcCache(): cached only when the client asks with @cache. */
@Resolver()
class CounterResolver {
  static calls = 0;

  @Query(() => Int)
  ext_counter(): number {
    return ++CounterResolver.calls;
  }
}

@Module({ providers: [CounterResolver] })
class CounterModule {}

let t: TestApp;
let runs: () => number;
beforeAll(async () => {
  const modules = await loadExtensionModules(['examples/reports/reports.module.ts'], ROOT);
  t = await startApp({ SECRET_KEY: 'k', CACHE_L1_ENABLED: 'true' }, [...modules, CounterModule]);
  const { ReportsResolver } = await import('../../examples/reports/reports.resolver.js');
  const resolver = t.app.get(ReportsResolver, { strict: false });
  runs = () => resolver.countryReports;
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "gb", permissions: [
    {type_name: "data-object:query", field_name: "shop_customers", filter: {country: {eq: "GB"}}}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(() => t?.close());

describe('@SvcCache() on an extension query', () => {
  it('answers the second call of the same caller from the cache, without running the method', async () => {
    const before = runs();
    const first = await t.gql(REPORT, undefined, ADMIN);
    expect(first.body.errors).toBeUndefined();
    expect(runs()).toBe(before + 1);
    const again = await t.gql(REPORT, undefined, ADMIN);
    expect(again.body.data).toEqual(first.body.data);
    expect(runs()).toBe(before + 1);
    // @stats shows where the answer came from, as for generated fields.
    const stats = await t.gql('{ report_customers_by_country @stats { country } }', undefined, ADMIN);
    expect(stats.body.extensions.report_customers_by_country.stats).toMatchObject({ cached: false });
    const statsAgain = await t.gql('{ report_customers_by_country @stats { country } }', undefined, ADMIN);
    expect(statsAgain.body.extensions.report_customers_by_country.stats).toMatchObject({ cached: true });
    expect(runs()).toBe(before + 2);
  });

  it('keeps entries per role and user: another caller never gets the admin\'s answer', async () => {
    const admin = await t.gql(REPORT, undefined, ADMIN);
    const before = runs();
    const gb = await t.gql(REPORT, undefined, as('gb'));
    expect(runs()).toBe(before + 1);
    expect(gb.body.data.report_customers_by_country).toEqual([{ country: 'GB', customers: 2 }]);
    expect(admin.body.data.report_customers_by_country.length).toBeGreaterThan(1);
    expect((await t.gql(REPORT, undefined, as('gb'))).body.data).toEqual(gb.body.data);
    expect(runs()).toBe(before + 1);
    // The same role, another user: an entry of its own (row filters may read [$auth.user_id]).
    await t.gql(REPORT, undefined, as('gb', '6'));
    expect(runs()).toBe(before + 2);
  });

  it('drops the entry when an object the method read through the typed client is written', async () => {
    await t.gql(REPORT, undefined, ADMIN);
    const before = runs();
    const w = await t.gql('mutation { insert_shop_customers(data: {id: 50, name: "Barbara Liskov", country: "US"}) { id } }', undefined, ADMIN);
    expect(w.body.errors).toBeUndefined();
    const after = await t.gql(REPORT, undefined, ADMIN);
    expect(runs()).toBe(before + 1);
    expect(after.body.data.report_customers_by_country).toContainEqual({ country: 'US', customers: 2 });
  });

  it('a client\'s @no_cache skips it; @cache caches a field without the decorator', async () => {
    const before = runs();
    await t.gql('{ report_customers_by_country @no_cache { country } }', undefined, ADMIN);
    await t.gql('{ report_customers_by_country @no_cache { country } }', undefined, ADMIN);
    expect(runs()).toBe(before + 2);
    const a = await t.gql('{ ext_counter @cache(ttl: 60) }', undefined, ADMIN);
    const b = await t.gql('{ ext_counter @cache(ttl: 60) }', undefined, ADMIN);
    expect(b.body.data.ext_counter).toBe(a.body.data.ext_counter);
    const plain = await t.gql('{ ext_counter }', undefined, ADMIN);
    expect(plain.body.data.ext_counter).toBe(a.body.data.ext_counter + 1);
  });
});
