// The caller of an /ipc or /subscribe request, as /query makes it: identify → role gate → access →
// endpoint rule → time zone. (i16a's RequestContextFactory is to become the one maker of this; these
// endpoints move to it when it lands.)
import type { IdentityService } from '../auth/identity.service.js';
import type { RawHeaders } from '../auth/request.js';
import { RequestContext } from '../executor/request-context.js';
import type { RoleGate } from '../permissions/roles.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { metrics } from '../shared/metrics.js';
import { requestTimeZone } from '../shared/timezone.js';
import type { SvcRuntime } from '../system/runtime.js';

export interface CallerDeps {
  readonly identities: IdentityService;
  readonly roles: RoleGate;
  readonly runtime: SvcRuntime;
}

export async function callerContext(deps: CallerDeps, headers: RawHeaders, endpoint: string): Promise<RequestContext> {
  const identity = await deps.identities.identify(headers);
  await deps.roles.check(identity.role);
  const access = await deps.runtime.permissions.forRole(identity.role);
  if (access.endpointDenied(endpoint)) {
    metrics.authFailures.inc({ reason: 'endpoint_denied' });
    throw new PublicError(ErrorCode.Forbidden, `role "${identity.role}" may not use ${endpoint}`, 403);
  }
  return new RequestContext(identity, access, requestTimeZone(headers as never, deps.runtime.config.DB_TIMEZONE));
}
