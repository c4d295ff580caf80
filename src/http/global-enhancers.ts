// Which of a team's modules register a global Nest guard or interceptor (APP_GUARD, APP_INTERCEPTOR).
// /query is served below Nest's router for its fixed cost (src/http/query.route.ts); a global guard or
// interceptor is Nest's and would not run there, so when a team registers one, /query is served
// through Nest's chain instead, as every other route is. Read from the modules' metadata before the
// application is built: the route is chosen before Nest registers its routes.
import type { ModuleMetadata } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants.js';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';

type Import = NonNullable<ModuleMetadata['imports']>[number];

/** `Module: APP_GUARD` for each global guard or interceptor found; `async module` for an import not known until it resolves. */
export function globalEnhancers(imports: ModuleMetadata['imports'] = []): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const visit = (m: Import | undefined): void => {
    if (!m || seen.has(m)) return;
    seen.add(m);
    // A module known only once a promise resolves cannot be read here: taken as one that registers some.
    if (m instanceof Promise) return void found.push('async module');
    if (typeof m === 'object' && 'forwardRef' in m) return visit((m as { forwardRef: () => Import }).forwardRef());
    const cls = (typeof m === 'function' ? m : (m as { module: unknown }).module) as object;
    const dynamic = typeof m === 'object' ? (m as ModuleMetadata) : {};
    const providers = [...((Reflect.getMetadata(MODULE_METADATA.PROVIDERS, cls) as unknown[] | undefined) ?? []), ...(dynamic.providers ?? [])];
    for (const p of providers) {
      const token = p && typeof p === 'object' && 'provide' in p ? p.provide : undefined;
      if (token === APP_GUARD || token === APP_INTERCEPTOR) found.push(`${(cls as { name?: string }).name ?? 'module'}: ${token === APP_GUARD ? 'APP_GUARD' : 'APP_INTERCEPTOR'}`);
    }
    for (const i of [...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, cls) as Import[] | undefined) ?? []), ...(dynamic.imports ?? [])]) visit(i);
  };
  for (const m of imports) visit(m);
  return found;
}
