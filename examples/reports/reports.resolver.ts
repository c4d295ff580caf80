// Code-first GraphQL of the example extension (docs/extending.md): a query, a mutation and a type
// of its own, added to svc's schema beside the generated fields.
import { Inject } from '@nestjs/common';
import { Args, Context, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '../../src/executor/request-context.js';
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

  constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}

  @Query(() => [CountryReport], { description: 'Customers per country (the caller sees only the customers its role may read)' })
  async report_customers_by_country(@Context() ctx: RequestContext): Promise<CountryReport[]> {
    // As the caller: its role's row filters apply to what the report counts.
    const data = (await this.shop.query('{ shop_customers { country } }', {}, ctx.identity)) as { shop_customers: { country: string | null }[] };
    const counts = new Map<string, number>();
    for (const c of data.shop_customers) counts.set(c.country ?? '(none)', (counts.get(c.country ?? '(none)') ?? 0) + 1);
    return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([country, customers]) => ({ country, customers }));
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
