// A field added to a generated type: shop_customers.lifetime_value. svc calls the method once per
// list of customers (never once per row) with the customers' rows, keys included.
import { Inject } from '@nestjs/common';
import { Float, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { ShopClient } from '../../src/generated/shop/module.js';

@Resolver('shop_customers')
export class CustomerValueResolver {
  /** Calls so far (the example's test proves the batching with it). */
  calls = 0;

  constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}

  @ResolveField('lifetime_value', () => Float, { nullable: true, description: 'Revenue of all orders of the customer (reports extension)' })
  async lifetimeValue(@Parent() customers: { id: number }[]): Promise<(number | null)[]> {
    this.calls++;
    const ids = [...new Set(customers.map((c) => c.id))];
    // One statement for the whole list, as the caller of the request (its role's rules apply).
    const rows = await this.shop.customer_revenue({ customer_id: true, revenue: true }, { filter: { customer_id: { in: ids } } });
    const revenue = new Map(rows.map((r) => [r.customer_id, r.revenue]));
    return customers.map((c) => revenue.get(c.id) ?? null);
  }
}
