// The `core.auth` functions (SPEC §6): who the caller is, as the server sees it.
import type { RequestContext } from '../executor/request-context.js';
import type { FunctionHandler } from '../pipeline/resolver-deps.js';
import type { SystemFunction } from '../schema/surface.js';

export const AUTH_TYPES_SDL = [
  `"One permission row of the caller's role (SPEC §7)."
type RolePermissionInfo {
  object: String
  field: String
  hidden: Boolean
  disabled: Boolean
  filter: JSON
  data: JSON
}`,
  `"The caller's role and its permission rows."
type MyPermissions {
  role_name: String
  disabled: Boolean
  permissions: [RolePermissionInfo]
}`,
  `"Whether the caller may use and see a field."
type FieldAccess {
  field: String
  enabled: Boolean
  visible: Boolean
}`,
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
  { module: 'core.auth', mutation: false, name: 'my_permissions', args: '', returns: 'MyPermissions', handler: 'auth_my_permissions', description: "The caller's role and its permission rows" },
  { module: 'core.auth', mutation: false, name: 'check_access', args: '(type_name: String!, fields: String!)', returns: '[FieldAccess]', handler: 'auth_check_access', description: 'Whether the caller may use (enabled) and see (visible) each of the comma-separated fields of a type' },
];

/** They only describe the caller, so every role may use them, anonymous included (issue 14 item 1). */
export const OPEN_AUTH_HANDLERS: ReadonlySet<string> = new Set(AUTH_FUNCTIONS.map((f) => f.handler));

export function authHandlers(): Record<string, FunctionHandler> {
  return {
    auth_my_permissions: async (_args, ctx: RequestContext) => ({
      role_name: ctx.identity.role,
      // A disabled role never gets this far (403), so the caller's role is enabled.
      disabled: false,
      permissions: ctx.access.rows.map((r) => ({ object: r.type_name, field: r.field_name, hidden: r.hidden, disabled: r.disabled, filter: r.filter, data: r.data })),
    }),
    auth_check_access: async (args, _ctx: RequestContext, access) => {
      const type = String(args.type_name);
      return String(args.fields).split(',').map((f) => f.trim()).filter(Boolean).map((field) => {
        const enabled = !access.fieldDenied(type, field);
        return { field, enabled, visible: enabled && !access.hidden(type, field) };
      });
    },
    auth_me: async (_args, ctx: RequestContext) => {
      const id = ctx.identity;
      // Anonymous callers are `anonymous` by id and provider too, as the established servers answer
      // (issue 18 item 10); `[$auth.user_id]` stays null for them.
      const anonymous = id.authType === 'anonymous';
      return {
        user_id: id.userId ?? (anonymous ? 'anonymous' : null),
        user_name: id.userName,
        role: id.role,
        auth_type: id.authType,
        auth_provider: id.provider ?? (anonymous ? 'anonymous' : null),
        impersonated_by_user_id: id.impersonatedBy?.userId ?? null,
        impersonated_by_user_name: id.impersonatedBy?.userName ?? null,
        impersonated_by_user_role: id.impersonatedBy?.role ?? null,
      };
    },
  };
}
