// The one place a request context is made (DESIGN.md §2a). Every entry point asks it: /query,
// /jq-query, querySvc inside jq, the generated clients, a team's controller behind SvcGuard. The
// steps, in order: identify -> role gate -> access -> endpoint -> time zone -> limits.
import type { Identity } from '../auth/identity.js';
import type { IdentityService } from '../auth/identity.service.js';
import type { RawHeaders } from '../auth/request.js';
import type { Config } from '../config/schema.js';
import { RequestContext } from '../executor/request-context.js';
import type { RoleAccess } from '../permissions/access.js';
import type { RoleGate } from '../permissions/roles.js';
import type { PermissionService } from '../permissions/service.js';
import { ErrorCode, PublicError } from '../shared/errors.js';
import { metrics } from '../shared/metrics.js';
import { currentRequest, type RequestScope } from '../shared/request-scope.js';
import { requestTimeZone } from '../shared/timezone.js';
import { type MaybePromise, andThen } from '../shared/maybe-async.js';

/**
 * Code acting on its own behalf (start-up work, a generated client called outside any request).
 * Unrestricted: used only where a caller asks for it by name (`RequestContextFactory.system()`).
 */
export const SYSTEM_IDENTITY: Identity = Object.freeze({ role: 'admin', userId: 'system', userName: 'system', authType: 'internal' });

export interface CallerOptions {
  /** The route, checked against the role's `_endpoints` rules (SPEC §7); none for in-process calls. */
  readonly endpoint?: string;
  /** The request's zone; default DB_TIMEZONE, else UTC (SPEC §10). */
  readonly timezone?: string;
}

/** The headers that override the identity (seed 000), for the secret key's callers only. */
const OVERRIDE_HEADERS = ['x-svc-role', 'x-svc-user-id', 'x-svc-user-name'] as const;

export interface HeaderOptions {
  /** What a caller other than the secret key's sending identity override headers gets: ignored (requests) or refused (subscriptions). */
  readonly overrides?: 'ignore' | 'refuse';
  /** The HTTP request's scope (src/http/request-log.ts), when the caller has it at hand; else the AsyncLocalStorage's. */
  readonly scope?: RequestScope;
}

export class RequestContextFactory {
  private readonly defaultZone: string;

  constructor(
    private readonly identities: IdentityService,
    private readonly roles: RoleGate,
    private readonly permissions: PermissionService,
    config: Pick<Config, 'DB_TIMEZONE'>,
  ) {
    this.defaultZone = requestTimeZone({}, config.DB_TIMEZONE);
  }

  /**
   * An HTTP request's or a connection's caller, from its headers (credentials, X-Svc-Timezone /
   * Time-Zone). Identity override (`x-svc-role`, `x-svc-user-id`, `x-svc-user-name`) is the secret
   * key's alone (seed 000 "Secret key"): a request from anyone else ignores those headers, a
   * subscription connection (`overrides: 'refuse'`: /subscribe, the /ipc WebSocket) is refused.
   */
  fromHeaders(headers: RawHeaders, endpoint: string, options: HeaderOptions = {}): MaybePromise<RequestContext> {
    // Each step answers at once when it need not wait (no credentials, a remembered role and rules),
    // so an ordinary request is decided without a promise (issue 30); a refusal is then a throw.
    return andThen(this.identities.identify(headers), (identity) => {
      if (options.overrides === 'refuse' && identity.authType !== 'impersonation' && OVERRIDE_HEADERS.some((h) => headers[h] !== undefined)) {
        metrics.authFailures.inc({ reason: 'override_refused' });
        throw new PublicError(ErrorCode.Forbidden, `identity override (${OVERRIDE_HEADERS.join(', ')}) needs the secret key`, 403);
      }
      return this.forCaller(identity, { endpoint, headers, scope: options.scope });
    });
  }

  /** A caller already identified: role gate, its role's access, the endpoint rule, zone and limits. */
  forCaller(identity: Identity, options: CallerOptions & { readonly headers?: RawHeaders; readonly scope?: RequestScope } = {}): MaybePromise<RequestContext> {
    return andThen(this.roles.check(identity.role), () => andThen(this.permissions.forRole(identity.role), (access) => this.contextOf(identity, access, options)));
  }

  private contextOf(identity: Identity, access: RoleAccess, options: CallerOptions & { readonly headers?: RawHeaders; readonly scope?: RequestScope }): RequestContext {
    if (options.endpoint !== undefined && access.endpointDenied(options.endpoint)) {
      metrics.authFailures.inc({ reason: 'endpoint_denied' });
      throw new PublicError(ErrorCode.Forbidden, `role "${identity.role}" may not use ${options.endpoint}`, 403);
    }
    const timezone = options.headers ? requestTimeZone(options.headers, this.defaultZone) : (options.timezone ?? this.defaultZone);
    const context = new RequestContext(identity, access, timezone, true);
    const scope = options.scope ?? currentRequest();
    if (scope) context.signal = scope.cancellation;
    if (options.scope) {
      // Given by the route (the prepared /query path runs outside the AsyncLocalStorage): the scope
      // learns who asks here, as IdentityService tells the storage's scope.
      context.scope = options.scope;
      options.scope.identified(identity);
    }
    if (scope && options.endpoint !== undefined) scope.caller = context;
    return context;
  }

  /**
   * Another operation of the same caller (querySvc, a client call inside a request): the same
   * identity, access, zone and limits, with state of its own (transactions, statements, stats) but the
   * request's answer budget.
   */
  derive(parent: RequestContext): RequestContext {
    const derived = new RequestContext(parent.identity, parent.access, parent.timezone, parent.limited);
    if (parent.signal) derived.signal = parent.signal;
    if (parent.scope) derived.scope = parent.scope;
    // One request's answers count together, however many operations a jq program runs (issue 31).
    derived.budgetOf = parent.budgetOf ?? parent;
    return derived;
  }

  /** The system identity: unrestricted, no request limits, the configured zone. */
  system(): RequestContext {
    return new RequestContext(SYSTEM_IDENTITY, undefined, this.defaultZone, false);
  }

  /** The context svc made for the request being served, if any (src/shared/request-scope.ts). */
  current(): RequestContext | undefined {
    const caller = currentRequest()?.caller;
    return caller instanceof RequestContext ? caller : undefined;
  }
}
