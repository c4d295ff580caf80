// Role permissions per role, cached (SPEC §7: key `RolePermissions:<role>`, tag `$role_permissions`,
// ROLE_PERMISSIONS_TTL, one hour by default). A committed change to roles or role_permissions drops
// the cache at once; the lifetime bounds how long a change made elsewhere (another process writing
// the core database without an invalidation) takes to apply.
import { type PermissionRow, RoleAccess } from './access.js';

/** The default lifetime (SPEC §7). */
export const ROLE_PERMISSIONS_TTL_MS = 60 * 60 * 1000;

/** Where role permission rows are kept (the core store, src/system/core-store.ts). */
/** Injection token of the PermissionStore (the core database, bound by the system module). */
export const PERMISSION_STORE = Symbol('svc.permission-store');

export interface PermissionStore {
  rolePermissions(role: string): Promise<readonly Record<string, unknown>[]>;
}

/** The tag of everything that depends on role permissions; invalidating it applies changes at once. */
export const ROLE_PERMISSIONS_TAG = '$role_permissions';
/** The tag of remembered managed API key lookups (SPEC §6). */
export const API_KEYS_TAG = '$AuthAPIKeys';

export class PermissionService {
  private readonly cache = new Map<string, { access: Promise<RoleAccess>; at: number }>();

  constructor(
    private readonly core: PermissionStore,
    /** ROLE_PERMISSIONS_TTL; 0: read on every request. */
    private readonly ttlMs = ROLE_PERMISSIONS_TTL_MS,
  ) {}

  forRole(role: string): Promise<RoleAccess> {
    const key = `RolePermissions:${role}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.access;
    const access = this.core.rolePermissions(role).then((rows) => new RoleAccess(role, rows.map(toRow)));
    this.cache.set(key, { access, at: Date.now() });
    access.catch(() => this.cache.delete(key));
    return access;
  }

  invalidate(): void {
    this.cache.clear();
  }
}

function toRow(r: Record<string, unknown>): PermissionRow {
  return {
    type_name: String(r.type_name),
    field_name: String(r.field_name),
    hidden: r.hidden === true,
    disabled: r.disabled === true,
    filter: (r.filter as Record<string, unknown> | null) ?? null,
    data: (r.data as Record<string, unknown> | null) ?? null,
  };
}
