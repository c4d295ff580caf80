// The route a Fastify request matched, as declared (`/reports/:id`), and its `config`. Fastify's
// `request.routeOptions` getter builds a fresh twelve-field object on every access; the request log
// and the access decision read the route on every request (issue 30), so they read the route's
// context, which that getter reads, directly. Should a Fastify version keep it elsewhere, the getter
// is used (test/unit/route-url.test.ts checks both agree).
import type { FastifyRequest } from 'fastify';

interface RouteContext {
  readonly config?: { readonly url?: string; readonly [k: string]: unknown };
}

let key: symbol | null | undefined;

function contextOf(req: FastifyRequest): RouteContext | undefined {
  if (key === undefined) key = Object.getOwnPropertySymbols(req).find((s) => s.description === 'fastify.context') ?? null;
  return key ? ((req as unknown as Record<symbol, RouteContext | undefined>)[key]) : undefined;
}

/** The matched route's URL as declared; undefined when none matched (404). */
export function routeUrl(req: FastifyRequest): string | undefined {
  const context = contextOf(req);
  return context ? context.config?.url : req.routeOptions?.url;
}

/** The matched route's `config` (what it was registered with). */
export function routeConfig(req: FastifyRequest): Readonly<Record<string, unknown>> | undefined {
  const context = contextOf(req);
  return context ? context.config : (req.routeOptions?.config as unknown as Readonly<Record<string, unknown>> | undefined);
}
