// An unknown or disabled role gets 403 (SPEC §7). Role rows are read from the core database and
// remembered briefly, so a hot path does not query it per request.
import { metrics } from '../shared/metrics.js';
import { ErrorCode, PublicError } from '../shared/errors.js';

/** Where role rows are kept (the core store, src/system/core-store.ts). */
/** Injection token of the RoleStore (the core database, bound by the system module). */
export const ROLE_STORE = Symbol('svc.role-store');

export interface RoleStore {
  role(name: string): Promise<{ disabled?: unknown } | undefined | null>;
}

const TTL_MS = 5_000;

function refuseUnless(ok: boolean, role: string): void {
  if (ok) return;
  metrics.authFailures.inc({ reason: 'role_denied' });
  throw new PublicError(ErrorCode.Forbidden, `role "${role}" is unknown or disabled`, 403);
}

export class RoleGate {
  private readonly known = new Map<string, { ok: boolean; at: number }>();

  constructor(private readonly core: RoleStore) {}

  /**
   * Refuses (403) a role that is unknown or disabled. Synchronous while the role's row is
   * remembered, which is nearly every request: a promise only when the core database is read.
   */
  check(role: string): void | Promise<void> {
    const hit = this.known.get(role);
    if (hit && Date.now() - hit.at < TTL_MS) return refuseUnless(hit.ok, role);
    return this.core.role(role).then((row) => {
      const ok = !!row && !row.disabled;
      this.known.set(role, { ok, at: Date.now() });
      refuseUnless(ok, role);
    });
  }

  forget(): void {
    this.known.clear();
  }
}
