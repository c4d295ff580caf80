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

/** A role's access while it is read (`pending`), then the access itself: a hit is not awaited. */
interface Entry {
  pending?: Promise<RoleAccess>;
  access?: RoleAccess;
  readonly at: number;
}

export class PermissionService {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly core: PermissionStore,
    /** ROLE_PERMISSIONS_TTL; 0: read on every request. */
    private readonly ttlMs = ROLE_PERMISSIONS_TTL_MS,
  ) {}

  /**
   * The role's access: the value itself when it is remembered (nearly every request; an `await` on
   * a settled promise still costs a turn of the microtask queue and, with the request scope's
   * hooks, more: issue 30), a promise while it is being read.
   */
  forRole(role: string): RoleAccess | Promise<RoleAccess> {
    const key = `RolePermissions:${role}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.access ?? hit.pending!;
    const entry: Entry = { at: Date.now() };
    entry.pending = this.core.rolePermissions(role).then((rows) => {
      const access = new RoleAccess(role, rows.map(toRow));
      entry.access = access;
      entry.pending = undefined;
      return access;
    });
    this.cache.set(key, entry);
    entry.pending.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return entry.pending;
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
