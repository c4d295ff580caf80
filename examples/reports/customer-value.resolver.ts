// A field added to a generated type: shop_customers.lifetime_value. svc calls the method once per
// list of customers (never once per row) with the customers' rows, keys included.
import { Inject } from '@nestjs/common';
import { Context, Float, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '../../src/executor/request-context.js';
import { ShopClient } from '../../src/generated/shop/module.js';

@Resolver('shop_customers')
export class CustomerValueResolver {
  /** Calls so far (the example's test proves the batching with it). */
  calls = 0;

  constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}

  @ResolveField('lifetime_value', () => Float, { nullable: true, description: 'Revenue of all orders of the customer (reports extension)' })
  async lifetimeValue(@Parent() customers: { id: number }[], @Context() ctx: RequestContext): Promise<(number | null)[]> {
    this.calls++;
    const ids = [...new Set(customers.map((c) => c.id))];
    const data = (await this.shop.query(
      'query($ids: [Int!]) { shop_customer_revenue(filter: {customer_id: {in: $ids}}) { customer_id revenue } }', { ids }, ctx.identity,
    )) as { shop_customer_revenue: { customer_id: number; revenue: number | null }[] };
    const revenue = new Map(data.shop_customer_revenue.map((r) => [r.customer_id, r.revenue]));
    return customers.map((c) => revenue.get(c.id) ?? null);
  }
}
