// An extension module (docs/extending.md "Extension modules"): served by `npm start` when named in
// EXTENSIONS, e.g. EXTENSIONS=examples/reports/reports.module.ts.
import { Module } from '@nestjs/common';
import { ShopSourceModule } from '../../src/generated/shop/module.js';
import { CustomerValueResolver } from './customer-value.resolver.js';
import { ReportsResolver } from './reports.resolver.js';

@Module({ imports: [ShopSourceModule], providers: [ReportsResolver, CustomerValueResolver] })
export class ReportsModule {}
