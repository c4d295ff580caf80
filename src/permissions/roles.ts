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

export class RoleGate {
  private readonly known = new Map<string, { ok: boolean; at: number }>();

  constructor(private readonly core: RoleStore) {}

  async check(role: string): Promise<void> {
    const hit = this.known.get(role);
    let ok = hit && Date.now() - hit.at < TTL_MS ? hit.ok : undefined;
    if (ok === undefined) {
      const row = await this.core.role(role);
      ok = !!row && !row.disabled;
      this.known.set(role, { ok, at: Date.now() });
    }
    if (!ok) {
      metrics.authFailures.inc({ reason: 'role_denied' });
      throw new PublicError(ErrorCode.Forbidden, `role "${role}" is unknown or disabled`, 403);
    }
  }

  forget(): void {
    this.known.clear();
  }
}
