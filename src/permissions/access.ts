// What one role may see and do (SPEC §7, issue 14), decided in one place. `RoleAccess` holds a
// role's rows and matches them on (parent type, field): exact > (type, *) > (*, field) > (*, *);
// the winning row decides. `Access` joins those rows to what the served schema is made of
// (`AccessScope`: which types belong to which data object, what belongs to the system module), and
// is the only thing the planner, the resolvers, introspection and the auth functions ask.
import { ErrorCode, PublicError } from '../shared/errors.js';
import { substitute } from './placeholders.js';

export interface PermissionRow {
  readonly type_name: string;
  readonly field_name: string;
  readonly hidden: boolean;
  readonly disabled: boolean;
  readonly filter: Record<string, unknown> | null;
  readonly data: Record<string, unknown> | null;
}

export type ObjectOp = 'query' | 'insert' | 'update' | 'delete';

/** How a planned field is used: each use is asked separately (issue 14 "every path checked"). */
export type FieldUse = 'read' | 'filter' | 'order' | 'aggregate' | 'write';

/** The role with every right; the system module is open to it alone (issue 14 item 1). */
export const ADMIN_ROLE = 'admin';

export const forbidden = (what?: string) => new PublicError(ErrorCode.Forbidden, what ? `forbidden: ${what}` : 'forbidden');

let generation = 0;

export class RoleAccess {
  private readonly exact = new Map<string, PermissionRow>();
  /** Distinguishes a reloaded rule set from the one before it (plan cache keys). */
  readonly generation = ++generation;

  constructor(
    readonly role: string,
    readonly rows: readonly PermissionRow[],
  ) {
    for (const r of rows) this.exact.set(`${r.type_name}\u0000${r.field_name}`, r);
  }

  /** `admin` without rows: everything, the system module included (the common case takes no per-field work). */
  get unrestricted(): boolean {
    return this.role === ADMIN_ROLE && this.rows.length === 0;
  }

  row(type: string, field: string): PermissionRow | undefined {
    return this.exact.get(`${type}\u0000${field}`);
  }

  rule(type: string, field: string): PermissionRow | undefined {
    return this.row(type, field) ?? this.row(type, '*') ?? this.row('*', field) ?? this.row('*', '*');
  }

  /** An object-wide row for `op` on the object type `name` (exact name before `*`). */
  objectRule(op: ObjectOp, name: string): PermissionRow | undefined {
    return this.row(`data-object:${op}`, name) ?? this.row(`data-object:${op}`, '*');
  }

  /** `_endpoints` rows: the longest matching path prefix decides. */
  endpointDenied(path: string): boolean {
    let best: PermissionRow | undefined;
    for (const r of this.rows) {
      if (r.type_name !== '_endpoints' || !path.startsWith(r.field_name)) continue;
      if (!best || r.field_name.length > best.field_name.length) best = r;
    }
    return !!best?.disabled;
  }
}

/** What the served schema is made of, as far as access decisions need it (built with the schema). */
export interface AccessScope {
  /** Every type that shows rows of a data object (the object, its filters, inputs, aggregations) -> the object. */
  readonly owners: ReadonlyMap<string, string>;
  /** Data objects of the system module: closed to roles other than admin unless a row grants them. */
  readonly systemObjects: ReadonlySet<string>;
  /** `Type.field` of system functions, closed likewise. */
  readonly systemFields: ReadonlySet<string>;
  /** `Type.field` every caller may use, anonymous included (`me`, `my_permissions`, `check_access`). */
  readonly openFields: ReadonlySet<string>;
  /** `Type.field` of data root fields -> the object and the operation they perform. */
  readonly roots: ReadonlyMap<string, { readonly object: string; readonly op: ObjectOp }>;
  /** Data object -> its secret fields and how they are kept (never filtered, ordered or aggregated by value). */
  readonly secrets: ReadonlyMap<string, ReadonlyMap<string, SecretKind>>;
  /** `Type.field` of a `@function_call` field -> `Type.field` of the function it calls: a role denied the function is denied the field. */
  readonly calls: ReadonlyMap<string, string>;
}

/** `hash`: stored as a sha256 hash (API keys); `mask`: a password inside is shown as `***`. */
export type SecretKind = 'hash' | 'mask';

const scopes = new WeakMap<object, AccessScope>();

/** Remembers the scope of a served schema, for code that holds only the schema (the fast path). */
export function registerScope(schema: object, scope: AccessScope): void {
  scopes.set(schema, scope);
}

export function scopeOf(schema: object): AccessScope | undefined {
  return scopes.get(schema);
}

const bound = new WeakMap<RoleAccess, WeakMap<AccessScope, Access>>();

/** The decisions of one role's rows over one served schema (remembered per pair). */
export function accessOf(rules: RoleAccess, scope: AccessScope): Access {
  let byScope = bound.get(rules);
  if (!byScope) bound.set(rules, (byScope = new WeakMap()));
  let a = byScope.get(scope);
  if (!a) byScope.set(scope, (a = new Access(rules, scope)));
  return a;
}

export class Access {
  constructor(
    readonly rules: RoleAccess,
    readonly scope: AccessScope,
  ) {}

  get role(): string {
    return this.rules.role;
  }

  get rows(): readonly PermissionRow[] {
    return this.rules.rows;
  }

  get unrestricted(): boolean {
    return this.rules.unrestricted;
  }

  get generation(): number {
    return this.rules.generation;
  }

  private get admin(): boolean {
    return this.rules.role === ADMIN_ROLE;
  }

  /** The data object a type shows (`T`, `T_filter`, `_T_aggregation`, ...), if any. */
  ownerOf(type: string): string | undefined {
    return this.scope.owners.get(type);
  }

  /**
   * `disabled` on `data-object:<op>` refuses that operation on the object everywhere. Objects of the
   * system module are refused to every role but admin unless a row names the object exactly and
   * does not disable it (issue 14 item 1).
   */
  objectDenied(op: ObjectOp, object: string): boolean {
    if (this.unrestricted) return false;
    // An update or delete filter reads the rows it matches (its affected_rows answers questions),
    // so an object the role may not read is not changed by it either.
    if ((op === 'update' || op === 'delete') && this.objectDenied('query', object)) return true;
    if (!this.admin && this.scope.systemObjects.has(object)) {
      const grant = this.rules.row(`data-object:${op}`, object);
      return !grant || grant.disabled;
    }
    return !!this.rules.objectRule(op, object)?.disabled;
  }

  /**
   * A field is unusable when its row disables it, when it belongs to the system module and the
   * role is not granted it, or when it returns (rows, aggregations or filters of) an object the
   * role may not read.
   */
  fieldDenied(type: string, field: string, returns?: string): boolean {
    if (this.unrestricted) return false;
    const coord = `${type}.${field}`;
    if (this.scope.openFields.has(coord)) return false;
    if (!this.admin && this.scope.systemFields.has(coord)) {
      const grant = this.rules.row(type, field) ?? this.rules.row(type, '*');
      if (!grant || grant.disabled) return true;
    }
    const owner = this.ownerOf(type) ?? type;
    if (this.rules.rule(owner, field)?.disabled) return true;
    if (owner !== type && this.rules.rule(type, field)?.disabled) return true;
    const root = this.scope.roots.get(coord);
    if (root && root.op !== 'query' && this.objectDenied(root.op, root.object)) return true;
    // A field computed by a catalog function (in this source or another) needs the function too.
    const fn = this.scope.calls.get(coord);
    if (fn !== undefined) {
      const dot = fn.indexOf('.');
      if (this.fieldDenied(fn.slice(0, dot), fn.slice(dot + 1))) return true;
    }
    // Only types of data objects count: a struct or function result type is not an object a
    // `data-object:query` row (even with `*`) can deny (issue 18 item 8).
    const target = returns === undefined ? undefined : this.ownerOf(returns);
    return target !== undefined && this.objectDenied('query', target);
  }

  hidden(type: string, field: string): boolean {
    const r = this.rules.rule(this.ownerOf(type) ?? type, field);
    return !!r && (r.hidden || r.disabled);
  }

  /**
   * Every use of a column or relation of `object` the planner makes passes here: reading it into
   * the result, filtering, ordering, aggregating or writing it. A disabled field is refused,
   * naming it; a secret field (a key hash, a masked password) is refused for anything but reading
   * and writing, so its value cannot be extracted through comparisons.
   */
  useField(object: string, field: string, use: FieldUse): void {
    if (this.unrestricted && use !== 'filter' && use !== 'order' && use !== 'aggregate') return;
    if (use !== 'read' && use !== 'write' && this.scope.secrets.get(object)?.has(field)) {
      throw forbidden(`"${object}.${field}" is a secret and cannot be used to ${use === 'filter' ? 'filter' : use === 'order' ? 'order' : 'aggregate'}`);
    }
    if (this.unrestricted) return;
    if (this.rules.rule(object, field)?.disabled) throw forbidden(`field "${object}.${field}" may not be used by role "${this.role}"`);
  }

  /** Refuses an operation on an object the role may not perform it on, naming both. */
  checkObject(op: ObjectOp, object: string): void {
    if (this.objectDenied(op, object)) throw forbidden(`role "${this.role}" may not ${op} "${object}"`);
  }

  /** The row filter for reading `object` (with placeholders filled from `vars`). */
  readFilter(object: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    if (this.unrestricted) return undefined;
    const parts = this.queryFilters(object).map((f) => substitute(f, vars) as Record<string, unknown>);
    if (!parts.length) return undefined;
    return parts.length === 1 ? parts[0] : { _and: parts };
  }

  /**
   * The row filters of reading `object`: its `data-object:query` row, and a filter on the row of
   * its type with field `*`, as hugr's access rules write it (`orders, *, {user_id: {eq:
   * "[$auth.user_id]"}}`; issue 32: that filter was ignored, so every row was readable).
   */
  private queryFilters(object: string): Record<string, unknown>[] {
    const own = this.rules.objectRule('query', object)?.filter;
    const typeWide = this.rules.row(object, '*')?.filter;
    return [own, typeWide].filter((f): f is Record<string, unknown> => !!f);
  }

  /**
   * The filter a write of `op` must satisfy: the operation's own filter ANDed with the read filter,
   * so a role never changes rows it cannot read (issue 14 item 8).
   */
  writeFilter(op: 'update' | 'delete', object: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    if (this.unrestricted) return undefined;
    const own = this.rules.objectRule(op, object)?.filter;
    const parts = [own, ...this.queryFilters(object)].filter((f): f is Record<string, unknown> => !!f).map((f) => substitute(f, vars) as Record<string, unknown>);
    if (!parts.length) return undefined;
    return parts.length === 1 ? parts[0] : { _and: parts };
  }

  /**
   * The filter of the write `op`'s own object-wide row alone (no read filter), which the rows an
   * insert or update produced must pass (the check after a write, issue 31).
   */
  writeRule(op: 'insert' | 'update', object: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    if (this.unrestricted) return undefined;
    const own = this.rules.objectRule(op, object)?.filter;
    return own ? (substitute(own, vars) as Record<string, unknown>) : undefined;
  }

  /** Object-wide values stamped over every insert/update of `object`, nested inserts included. */
  objectData(op: 'insert' | 'update', object: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (this.unrestricted) return {};
    const data = this.rules.objectRule(op, object)?.data;
    return data ? (substitute(data, vars) as Record<string, unknown>) : {};
  }

  /** Values stamped by the mutation field's own row (e.g. Mutation.insert_orders). */
  fieldData(type: string, field: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (this.unrestricted) return {};
    const data = this.rules.rule(type, field)?.data;
    return data ? (substitute(data, vars) as Record<string, unknown>) : {};
  }

  /** The filter row on a query field itself (e.g. Query.shop_orders). */
  fieldFilter(type: string, field: string, vars: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    if (this.unrestricted) return undefined;
    const f = this.rules.row(type, field)?.filter ?? this.rules.row(type, '*')?.filter;
    return f ? (substitute(f, vars) as Record<string, unknown>) : undefined;
  }

  endpointDenied(path: string): boolean {
    return this.rules.endpointDenied(path);
  }
}

export const UNRESTRICTED = new RoleAccess(ADMIN_ROLE, []);
