// What every generated client (src/generated/<source>/module.ts) is: one method per root field of
// its source, each a call of `run` below. Calls go through InProcessClient (same schema, planner,
// permissions, field stages and transactions as /query) as a caller:
// - by default the caller of the request being served (its RequestContext, made by the factory);
// - `as(ctx)` / `as(identity)`: the caller named;
// - `asSystem()`: the unrestricted system identity, only when asked for by that name.
// Outside any request, with no caller named, a call is refused rather than run as the system.
import { GraphQLError } from 'graphql';
import type { Identity } from '../../auth/identity.js';
import type { RequestContext } from '../../executor/request-context.js';
import { ErrorCode, PublicError } from '../../shared/errors.js';
import type { Caller, InProcessClient } from '../in-process.js';
import { buildOperation, dig, type RootCall } from './operation.js';

/** An operation of a client failed: the first error's code, every error's message. */
export class ClientError extends PublicError {
  constructor(
    code: string,
    message: string,
    /** The GraphQL errors of the operation, as graphql-js reported them. */
    readonly errors: readonly GraphQLError[],
  ) {
    super(code as ErrorCode, message);
    this.name = 'ClientError';
  }
}

/** How a root field's value comes back: a list (never null), or one value (null when there is none). */
export type Shape = 'list' | 'one';

function codeOf(e: GraphQLError): string {
  const original = e.originalError;
  if (original instanceof PublicError) return original.code;
  return (e.extensions?.code as string | undefined) ?? ErrorCode.ValidationFailed;
}

/**
 * Throws for a failed operation. An internal fault inside it (a resolver's own error) is thrown as
 * it is, so it is logged with the request id and shown as "internal server error", like any other.
 */
function raise(errors: readonly GraphQLError[]): never {
  const internal = errors.find((e) => e.originalError && !(e.originalError instanceof PublicError) && !(e.originalError instanceof GraphQLError));
  if (internal) throw internal.originalError;
  throw new ClientError(codeOf(errors[0]!), errors.map((e) => e.message).join('; '), errors);
}

export abstract class TypedClient {
  private caller?: Caller;

  protected constructor(private readonly svc: InProcessClient) {}

  /** The same client acting as `caller`: a RequestContext (`@Context()`, `@SvcContext()`) or an Identity. */
  as(caller: RequestContext | Identity | 'system'): this {
    const client = Object.create(this) as this;
    client.caller = caller;
    return client;
  }

  /** The same client acting as the system identity: unrestricted (role admin), no request limits. */
  asSystem(): this {
    return this.as('system');
  }

  private callerOrRefuse(explicit?: Caller): Caller {
    const caller = explicit ?? this.caller ?? this.svc.requestCaller();
    if (caller) return caller;
    // Outside any request, or in a route svc did not identify: acting as the system would hand
    // whoever triggered it everything.
    throw new PublicError(ErrorCode.Internal, `${this.constructor.name}: no caller (outside a request, or in a route without SvcGuard): guard the route with SvcGuard, name the caller with .as(ctx) / .as(identity), or ask for the unrestricted system identity with .asSystem()`, 500);
  }

  /** Any GraphQL operation, as the caller (see the class); a failed operation throws ClientError. */
  async query(query: string, variables: Record<string, unknown> = {}, caller?: Caller): Promise<unknown> {
    const result = await this.svc.execute({ query, variables }, this.callerOrRefuse(caller));
    if (result.errors?.length) raise(result.errors);
    return result.data;
  }

  /**
   * One root field with its arguments and selection, as one operation; the field's value. `R` is the
   * generated method's declared result (the selection's type was checked by the method's signature).
   */
  protected async run<R>(root: RootCall, shape: Shape, select: unknown, args: unknown): Promise<R> {
    const caller = this.callerOrRefuse();
    const op = buildOperation(this.svc.schema(), root, select, args);
    const result = await this.svc.execute(op, caller);
    if (result.errors?.length) raise(result.errors);
    const value = dig(result.data, root.path);
    return (shape === 'list' ? (value ?? []) : (value ?? null)) as R;
  }
}
