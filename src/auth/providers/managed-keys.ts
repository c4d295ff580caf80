// Managed API keys (seed 000 "Managed API key record" and its rules): rows of `core.api_keys`,
// looked up by key value and remembered briefly so a busy client does not cost a query per request.
import { createHash } from 'node:crypto';
import type { Identity } from '../identity.js';
import { unauthenticated } from '../errors.js';
import type { AuthRequest } from '../request.js';

/** The one thing this module needs of the core store (src/system/core-store.ts). */
/** Injection token of the ApiKeyStore (the core database, bound by the system module). */
export const API_KEY_STORE = Symbol('svc.api-key-store');

export interface ApiKeyStore {
  apiKeyByKey(key: string): Promise<Record<string, unknown> | undefined>;
}

interface KeyRow {
  name: string;
  default_role: string | null;
  disabled: boolean;
  expires: number | null;
  headers: Record<string, unknown>;
  claims: Record<string, unknown>;
}

const MAX_ENTRIES = 10_000;
/** Claims with a fixed meaning; every other claim becomes an `[$auth.<claim>]` variable (SPEC §6). */
const IDENTITY_CLAIMS = new Set(['role', 'user_id', 'user_name']);

export class ManagedKeys {
  /** By sha256 of the key: a usable row, or null for "no such key". */
  private readonly cache = new Map<string, { row: KeyRow | null; at: number }>();

  constructor(
    private readonly store: ApiKeyStore,
    private readonly ttlMs: number,
  ) {}

  /** Drops every remembered lookup; the cache tag `$AuthAPIKeys` calls this (SPEC §6). */
  forget(): void {
    this.cache.clear();
  }

  /** The identity for a managed key, undefined when no row has this key, 401 when the row refuses. */
  async authenticate(key: string, req: AuthRequest): Promise<Identity | undefined> {
    const row = await this.lookup(key);
    if (!row) return undefined;
    // Seed 000 rules 1 and 2: a disabled or expired key stays in the store but is not usable.
    if (row.disabled) throw unauthenticated('API key is disabled');
    if (row.expires !== null && row.expires <= Date.now()) throw unauthenticated('API key has expired');
    return identityOf(row, req);
  }

  private async lookup(key: string): Promise<KeyRow | null> {
    const id = createHash('sha256').update(key).digest('base64url');
    const hit = this.cache.get(id);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.row;
    const raw = await this.store.apiKeyByKey(key);
    const row = raw ? toRow(raw) : null;
    // Refused rows are not remembered, so reviving a key (new expires_at, disabled: false) works at
    // once; usable rows and misses are, and stop at `forget()` (tag `$AuthAPIKeys`) or after the TTL.
    // Expiry is checked on every use, so a remembered row still expires on time.
    const usable = row === null || (!row.disabled && (row.expires === null || row.expires > Date.now()));
    if (usable) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, { row, at: Date.now() });
    } else {
      this.cache.delete(id);
    }
    return row;
  }
}

/** Seed 000 "API keys" rule 2: header named in `headers.<x>`, else `claims.<x>`, else the row default. */
function identityOf(row: KeyRow, req: AuthRequest): Identity {
  const pick = (field: 'role' | 'user_id' | 'user_name'): string | undefined => {
    const headerName = row.headers[field];
    const fromHeader = typeof headerName === 'string' && headerName ? req.header(headerName) : undefined;
    if (fromHeader !== undefined) return fromHeader;
    const claim = row.claims[field];
    return typeof claim === 'string' && claim ? claim : typeof claim === 'number' ? String(claim) : undefined;
  };
  const custom = Object.fromEntries(Object.entries(row.claims).filter(([k]) => !IDENTITY_CLAIMS.has(k)));
  const userName = pick('user_name') ?? row.name;
  return {
    // A key with no role anywhere gets `public`, the built-in role with the least rights (SPEC §7).
    role: pick('role') ?? row.default_role ?? 'public',
    userId: pick('user_id') ?? userName,
    userName,
    authType: 'apikey',
    ...(Object.keys(custom).length ? { claims: custom } : {}),
  };
}

function toRow(raw: Record<string, unknown>): KeyRow {
  return {
    name: String(raw.name),
    default_role: typeof raw.default_role === 'string' && raw.default_role ? raw.default_role : null,
    disabled: raw.disabled === true,
    // `expires_at` only limits temporal keys (seed 000: "when true expires_at is required").
    expires: raw.is_temporal === true ? toMillis(raw.expires_at) ?? 0 : null,
    headers: jsonObject(raw.headers),
    claims: jsonObject(raw.claims),
  };
}

/** A temporal key without a readable `expires_at` counts as expired (0): fail closed. */
function toMillis(v: unknown): number | undefined {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'string' || typeof v === 'number') {
    const t = new Date(v).getTime();
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** JSON columns arrive as text from DuckDB and as objects from PostgreSQL. */
function jsonObject(v: unknown): Record<string, unknown> {
  let x = v;
  if (typeof x === 'string') {
    try {
      x = JSON.parse(x);
    } catch {
      return {};
    }
  }
  return x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
}
