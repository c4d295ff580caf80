// One place decides who asks (issue 16): /jq-query, querySvc inside jq, the generated client (in a
// team's controller behind SvcGuard, and outside any request) all run with the caller's role and
// time zone, through src/pipeline/context.factory.ts. Each case fails if an entry point makes its
// own context again (zone dropped, or the system identity used for a caller).
import { Controller, Get, Inject, Module, UseGuards } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/executor/request-context.js';
import { ShopClient, ShopSourceModule } from '../../src/generated/shop/module.js';
import { SvcContext, SvcGuard } from '../../src/pipeline/svc.guard.js';
import { startApp, type TestApp } from '../support/app.js';

const ADMIN = { 'x-svc-secret-key': 'k' };
/** The restricted caller: impersonated by the admin, as access-paths.test.ts does. */
const ANALYST = { ...ADMIN, 'x-svc-role': 'analyst', 'x-svc-user-id': '7', 'x-svc-user-name': 'ana' };
const ORDER = '{ shop_orders_by_pk(id: 3) { ordered_at } }';
// 2025-02-20T17:30:00Z, as each zone shows it.
const BERLIN = '2025-02-20T18:30:00+01:00';
const KOLKATA = '2025-02-20T23:00:00+05:30';

@Controller('team')
class TeamController {
  constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}

  @Get('order')
  @UseGuards(SvcGuard)
  async order(@SvcContext() caller: RequestContext): Promise<unknown> {
    // No caller named: the client acts as the request's caller.
    const data = (await this.shop.query(ORDER)) as { shop_orders_by_pk: { ordered_at: string } };
    return { role: caller.identity.role, zone: caller.timezone, ordered_at: data.shop_orders_by_pk.ordered_at };
  }

  @Get('emails')
  @UseGuards(SvcGuard)
  async emails(): Promise<unknown> {
    try {
      return { rows: await this.shop.customers({ email: true }) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }

  @Get('unguarded')
  async unguarded(): Promise<unknown> {
    try {
      return { rows: await this.shop.tags({ name: true }) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
}

@Module({ imports: [ShopSourceModule], controllers: [TeamController] })
class TeamModule {}

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k', DB_TIMEZONE: 'Asia/Kolkata' }, [TeamModule]);
  const r = await t.gql(`mutation { core { insert_roles(data: {name: "analyst", description: "no emails, not /team/order", permissions: [
    {type_name: "shop_customers", field_name: "email", disabled: true},
    {type_name: "_endpoints", field_name: "/team/order", disabled: true}
  ]}) { name } } }`, undefined, ADMIN);
  expect(r.body.errors).toBeUndefined();
});
afterAll(() => t?.close());

const jqQuery = (jq: string, query: string, headers: Record<string, string>) =>
  t.request({ method: 'POST', url: '/jq-query', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ jq, query: { query } }) });

describe('the time zone reaches every entry point', () => {
  it('/jq-query: X-Svc-Timezone, else DB_TIMEZONE', async () => {
    const berlin = await jqQuery('.data.shop_orders_by_pk.ordered_at', ORDER, { ...ADMIN, 'x-svc-timezone': 'Europe/Berlin' });
    expect(berlin.body).toBe(BERLIN);
    const configured = await jqQuery('.data.shop_orders_by_pk.ordered_at', ORDER, ADMIN);
    expect(configured.body).toBe(KOLKATA);
  });

  it('querySvc inside a jq program: the request zone, else DB_TIMEZONE', async () => {
    const program = `querySvc(${JSON.stringify(ORDER)}; {}) | .data.shop_orders_by_pk.ordered_at`;
    expect((await jqQuery(program, '{ __typename }', { ...ADMIN, 'x-svc-timezone': 'Europe/Berlin' })).body).toBe(BERLIN);
    expect((await jqQuery(program, '{ __typename }', ADMIN)).body).toBe(KOLKATA);
    // The same through a jq() field of /query.
    const r = await t.gql(`{ jq(query: ${JSON.stringify(program)}) { __typename } }`, undefined, { ...ADMIN, 'x-svc-timezone': 'Europe/Berlin' });
    expect(r.body.extensions.jq.jq).toBe(BERLIN);
  });

  it('the generated client in a team controller behind SvcGuard: the caller\'s zone', async () => {
    const r = await t.request({ method: 'GET', url: '/team/order', headers: { ...ADMIN, 'x-svc-timezone': 'Europe/Berlin' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ role: 'admin', zone: 'Europe/Berlin', ordered_at: BERLIN });
  });

  it('the generated client outside any request: the system identity when named (asSystem), in DB_TIMEZONE', async () => {
    const data = (await t.app.get(ShopClient).asSystem().query(ORDER)) as { shop_orders_by_pk: { ordered_at: string } };
    expect(data.shop_orders_by_pk.ordered_at).toBe(KOLKATA);
    // Not named: refused, never the system by default (issue 20 item 3).
    await expect(t.app.get(ShopClient).query(ORDER)).rejects.toThrow(/no caller.*asSystem\(\)/);
  });
});

describe('the caller\'s role reaches every entry point', () => {
  it('/jq-query and querySvc refuse the disabled field', async () => {
    const direct = await jqQuery('.', '{ shop_customers { email } }', ANALYST);
    expect(JSON.stringify(direct.body.errors)).toMatch(/forbidden/);
    expect(direct.text).not.toMatch(/@example\.com/);
    const inner = await jqQuery('querySvc("{ shop_customers { email } }"; {})', '{ __typename }', ANALYST);
    expect(JSON.stringify(inner.body.errors)).toMatch(/forbidden/);
    expect(inner.text).not.toMatch(/@example\.com/);
    // The admin sees them: the refusal above is the role's, not the query's.
    expect((await jqQuery('querySvc("{ shop_customers { email } }"; {}) | .data.shop_customers | length', '{ __typename }', ADMIN)).body).toBeGreaterThan(0);
  });

  it('the generated client in a team controller acts as the caller, never as the system', async () => {
    const refused = await t.request({ method: 'GET', url: '/team/emails', headers: ANALYST });
    expect(refused.body.error).toMatch(/forbidden/);
    const allowed = await t.request({ method: 'GET', url: '/team/emails', headers: ADMIN });
    expect(allowed.body.rows.length).toBeGreaterThan(0);
  });

  it('SvcGuard applies the endpoint rule of the route, credentials and the zone check', async () => {
    const denied = await t.request({ method: 'GET', url: '/team/order', headers: ANALYST });
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0]).toMatchObject({ message: 'role "analyst" may not use /team/order', extensions: { code: 'FORBIDDEN' } });
    const bad = await t.request({ method: 'GET', url: '/team/order', headers: { 'x-svc-api-key': 'nope' } });
    expect(bad.status).toBe(401);
    const zone = await t.request({ method: 'GET', url: '/team/order', headers: { ...ADMIN, 'x-svc-timezone': 'Mars/Olympus' } });
    expect(zone.status).toBe(400);
    expect(zone.body.errors[0].message).toMatch(/invalid time zone "Mars\/Olympus" in X-Svc-Timezone/);
  });

  it('a generated client inside a request svc did not identify is refused, not run as the system', async () => {
    const r = await t.request({ method: 'GET', url: '/team/unguarded' });
    expect(r.body.error).toMatch(/SvcGuard/);
  });
});
