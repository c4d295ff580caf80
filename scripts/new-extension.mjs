#!/usr/bin/env node
// `npm run new:extension -- <name>`: writes a working extension module (docs/extending.md) with a
// code-first query, a field added to a generated type left as a comment to fill in, and a test:
//   extensions/<name>/<name>.module.ts, extensions/<name>/<name>.resolver.ts, test/extensions/<name>.test.ts
// Serve it with EXTENSIONS=extensions/<name>/<name>.module.ts npm start.
//   node scripts/new-extension.mjs <name> [--root DIR]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = resolve(rootAt >= 0 ? args[rootAt + 1] ?? '.' : '.');
const name = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--root');
if (!name || !/^[a-z][a-z0-9_]*$/.test(name)) {
  console.error('usage: npm run new:extension -- <name>   (lower case letters, digits and _, starting with a letter)');
  process.exit(2);
}
const Pascal = name.split('_').map((p) => p[0].toUpperCase() + p.slice(1)).join('');
const dir = join(root, 'extensions', name);
const files = {
  [join(dir, `${name}.module.ts`)]: `// The ${name} extension module: served when EXTENSIONS names this file (docs/extending.md).
import { Module } from '@nestjs/common';
import { ${Pascal}Resolver } from './${name}.resolver.js';

@Module({ providers: [${Pascal}Resolver] })
export class ${Pascal}Module {}
`,
  [join(dir, `${name}.resolver.ts`)]: `// GraphQL fields of the ${name} extension, written with @nestjs/graphql's decorators. They are
// merged into svc's schema and go through its pipeline: authentication, role permissions (rows name
// "Query", "${name}_info"), limits, jq. Name fields so they do not clash with generated ones.
import { Context, Field, ObjectType, Query, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '../../src/executor/request-context.js';

@ObjectType({ description: 'What the ${name} extension knows about the caller' })
export class ${Pascal}Info {
  @Field()
  module!: string;

  @Field()
  user!: string;

  @Field()
  role!: string;
}

@Resolver()
export class ${Pascal}Resolver {
  @Query(() => ${Pascal}Info)
  ${name}_info(@Context() ctx: RequestContext): ${Pascal}Info {
    return { module: '${name}', user: ctx.identity.userName, role: ctx.identity.role };
  }
}

// Reading svc's data: import the source's module in ${Pascal}Module (imports: [ShopSourceModule]) and
// inject its typed client (src/generated/<source>/module.ts, docs/codegen.md). It reads as the caller
// of the request, with its role's rules; asSystem() is the unrestricted system identity, by name only.
//
//   constructor(@Inject(ShopClient) private readonly shop: ShopClient) {}
//   const rows = await this.shop.customers({ id: true, orders: { select: { id: true } } }, { limit: 10 });
//
// A field on a generated type is resolved once per list of parents (never once per row):
//
// @Resolver('shop_customers')
// export class ${Pascal}CustomerResolver {
//   @ResolveField('${name}_score', () => Float, { nullable: true })
//   score(@Parent() customers: { id: number }[]): (number | null)[] {
//     return customers.map(() => null);
//   }
// }
`,
  [join(root, 'test', 'extensions', `${name}.test.ts`)]: `// The ${name} extension, loaded as EXTENSIONS loads it and queried over HTTP.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadExtensionModules } from '../../src/extensions/load.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  const root = join(import.meta.dirname, '..', '..');
  t = await startApp({}, await loadExtensionModules(['extensions/${name}/${name}.module.ts'], root));
});
afterAll(() => t?.close());

it('answers ${name}_info for the caller', async () => {
  const r = await t.gql('{ ${name}_info { module user role } }');
  expect(r.body).toEqual({ data: { ${name}_info: { module: '${name}', user: 'anonymous', role: 'admin' } }, extensions: {} });
});
`,
};
for (const path of Object.keys(files)) {
  if (existsSync(path)) {
    console.error(`new:extension: ${path} exists; choose another name`);
    process.exit(1);
  }
}
for (const [path, text] of Object.entries(files)) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
console.log(`\nServe it:  EXTENSIONS=extensions/${name}/${name}.module.ts npm start\nTest it:   npx vitest run test/extensions/${name}.test.ts`);
