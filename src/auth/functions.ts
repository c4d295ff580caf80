// The `core.auth` functions (SPEC §6): who the caller is, as the server sees it.
import type { RequestContext } from '../executor/request-context.js';
import type { FunctionHandler } from '../schema/resolvers.js';
import type { SystemFunction } from '../schema/surface.js';

export const AUTH_TYPES_SDL = [
  `"""The caller's identity (SPEC §6)."""
type AuthInfo {
  user_id: String
  user_name: String
  role: String
  auth_type: String
  auth_provider: String
  impersonated_by_user_id: String
  impersonated_by_user_name: String
  impersonated_by_user_role: String
}`,
];

export const AUTH_FUNCTIONS: readonly SystemFunction[] = [
  { module: 'core.auth', mutation: false, name: 'me', args: '', returns: 'AuthInfo', handler: 'auth_me', description: 'The identity of the caller' },
];

export function authHandlers(): Record<string, FunctionHandler> {
  return {
    auth_me: async (_args, ctx: RequestContext) => {
      const id = ctx.identity;
      return {
        user_id: id.userId,
        user_name: id.userName,
        role: id.role,
        auth_type: id.authType,
        auth_provider: id.provider ?? null,
        impersonated_by_user_id: id.impersonatedBy?.userId ?? null,
        impersonated_by_user_name: id.impersonatedBy?.userName ?? null,
        impersonated_by_user_role: id.impersonatedBy?.role ?? null,
      };
    },
  };
}
