// Code-first GraphQL of the example extension (docs/extending.md): a query, a mutation and a type
// of its own, added to svc's schema beside the generated fields.
import { Inject } from '@nestjs/common';
import { Args, Context, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '../../src/executor/request-context.js';
import { SvcCache } from '../../src/extensions/cache.decorator.js';
import { ShopClient } from '../../src/generated/shop/module.js';

@ObjectType({ description: 'Customers per country, computed by the reports extension' })
export class CountryReport {
  @Field()
  country!: string;

  @Field(() => Int)
  customers!: number;
}

@ObjectType()
export class ReportNote {
  @Field(() => ID)
  id!: string;

  @Field()
  text!: string;

  @Field({ description: 'The user who wrote it (the caller of the mutation)' })
  author!: string;
}

@Resolver()
export class ReportsResolver {
  private readonly notes: ReportNote[] = [];
  /** Runs of report_customers_by_country so far (its test proves the result cache with it). */
  countryReports = 0;

  constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}

  @Query(() => [CountryReport], { description: 'Customers per country (the caller sees only the customers its role may read)' })
  // svc's result cache, as @cache on a generated type: one entry per role/user, dropped when a
  // customer is written (what the typed client read tags the entry). Needs a cache (CACHE_L1_ENABLED).
  @SvcCache({ ttl: '1m' })
  async report_customers_by_country(): Promise<CountryReport[]> {
    this.countryReports++;
    // The typed client acts as the caller of this request: its role's row filters apply to what is counted.
    const buckets = await this.shop.customers_bucket_aggregation({ key: { select: { country: true } }, aggregations: { select: { _rows_count: true } } });
    return buckets
      .map((b) => ({ country: b.key?.country ?? '(none)', customers: Number(b.aggregations?._rows_count ?? 0) }))
      .sort((a, b) => a.country.localeCompare(b.country));
  }

  @Query(() => [ReportNote])
  report_notes(): ReportNote[] {
    return this.notes;
  }

  @Mutation(() => ReportNote)
  report_add_note(@Args('text') text: string, @Context() ctx: RequestContext): ReportNote {
    const note = { id: String(this.notes.length + 1), text, author: ctx.identity.userName };
    this.notes.push(note);
    return note;
  }

  @Query(() => Int, { description: 'Fails on purpose: how an error inside an extension is reported' })
  report_broken(): number {
    throw new Error('the report fell over: detail only for the log');
  }
}
