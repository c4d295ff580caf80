// A Nest guard over the context factory, for any controller, a team's included: the route is
// served only to a caller svc accepts (credentials, role, the `_endpoints` rule for the route, a
// known time zone), and the handler gets that caller's context with `@SvcContext()`. Generated
// clients called from the handler then act as the same caller (src/pipeline/in-process.ts).
//
//   @Controller('reports') @UseGuards(SvcGuard)
//   class Reports { @Get() list(@SvcContext() caller: RequestContext) { ... } }
//
// The decision itself is `admitRequest`, one function: SvcGuard calls it for Nest routes, and the
// /query route, which is registered on Fastify below Nest's router (src/http/query.route.ts), calls
// the same function before its handler.
import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../executor/request-context.js';
import { type MaybePromise, andThen } from '../shared/maybe-async.js';
import { RequestContextFactory } from './context.factory.js';
import { routeUrl } from '../shared/route-url.js';

type GuardedRequest = FastifyRequest & { svcContext?: RequestContext };

/**
 * Who asks, and may they use this route: the caller's context, kept on the request for the handler.
 * A refusal is a PublicError (401, 403, 400), thrown or rejected. Synchronous when nothing has to
 * be waited for (no credentials or a static key, the role and its rules remembered).
 */
export function admitRequest(contexts: RequestContextFactory, req: FastifyRequest): MaybePromise<RequestContext> {
  // The route as declared (`/reports/:id`), so one `_endpoints` rule covers every id.
  const endpoint = routeUrl(req) ?? req.url.split('?')[0]!;
  return andThen(contexts.fromHeaders(req.headers, endpoint, { scope: req.svcScope }), (context) => ((req as GuardedRequest).svcContext = context));
}

@Injectable()
export class SvcGuard implements CanActivate {
  constructor(@Inject(RequestContextFactory) private readonly contexts: RequestContextFactory) {}

  canActivate(execution: ExecutionContext): MaybePromise<boolean> {
    // A refusal is answered by the app's error filter as /query's are.
    return andThen(admitRequest(this.contexts, execution.switchToHttp().getRequest<FastifyRequest>()), () => true);
  }
}

/** The caller's context in a handler behind SvcGuard. */
export const SvcContext = createParamDecorator((_data: unknown, execution: ExecutionContext): RequestContext | undefined => {
  return execution.switchToHttp().getRequest<GuardedRequest>().svcContext;
});
