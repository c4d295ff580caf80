// A Nest guard over the context factory, for any controller, a team's included: the route is
// served only to a caller svc accepts (credentials, role, the `_endpoints` rule for the route, a
// known time zone), and the handler gets that caller's context with `@SvcContext()`. Generated
// clients called from the handler then act as the same caller (src/pipeline/in-process.ts).
//
//   @Controller('reports') @UseGuards(SvcGuard)
//   class Reports { @Get() list(@SvcContext() caller: RequestContext) { ... } }
import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../executor/request-context.js';
import { RequestContextFactory } from './context.factory.js';

type GuardedRequest = FastifyRequest & { svcContext?: RequestContext };

@Injectable()
export class SvcGuard implements CanActivate {
  constructor(@Inject(RequestContextFactory) private readonly contexts: RequestContextFactory) {}

  async canActivate(execution: ExecutionContext): Promise<boolean> {
    const req = execution.switchToHttp().getRequest<GuardedRequest>();
    // The route as declared (`/reports/:id`), so one `_endpoints` rule covers every id.
    const endpoint = req.routeOptions?.url ?? req.url.split('?')[0]!;
    // A refusal is a PublicError (401, 403, 400), answered by the app's error filter as /query's are.
    req.svcContext = await this.contexts.fromHeaders(req.headers, endpoint);
    return true;
  }
}

/** The caller's context in a handler behind SvcGuard. */
export const SvcContext = createParamDecorator((_data: unknown, execution: ExecutionContext): RequestContext | undefined => {
  return execution.switchToHttp().getRequest<GuardedRequest>().svcContext;
});
